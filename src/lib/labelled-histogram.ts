// A Prometheus histogram for the per-request path. prom-client's Histogram child re-validates and
// hashes its label object on every observe (about 1 µs, on every request); here a series is looked
// up once per label set and observing is a bucket scan and three additions. The registry exports
// it like prom-client's own histograms (same names, `le` labels, cumulative buckets).
import type { Metric, Registry } from 'prom-client';

export interface HistogramSeries {
  observe(value: number): void;
}

interface Series extends HistogramSeries {
  readonly labels: Readonly<Record<string, string>>;
  /** Observations per bucket, not cumulative; the last slot is above the highest bound. */
  readonly counts: Float64Array;
  sum: number;
  count: number;
}

interface ExportedValue {
  labels: Record<string, string | number>;
  value: number;
  metricName: string;
}

export class LabelledHistogram<Label extends string> {
  readonly type = 'histogram';
  readonly aggregator = 'sum';
  private readonly series = new Map<string, Series>();

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly labelNames: readonly Label[],
    private readonly bounds: readonly number[],
    registry: Registry,
  ) {
    // The registry reads name, help, type, aggregator, get() and reset(); its type lists only
    // prom-client's own classes.
    registry.registerMetric(this as unknown as Metric);
  }

  /** The series of one label set, created on first use; keep it to observe without a lookup. */
  seriesFor(labels: Readonly<Record<Label, string>>): HistogramSeries {
    const key = this.labelNames.map((name) => labels[name]).join('\u0000');
    let series = this.series.get(key);
    if (!series) {
      series = this.createSeries({ ...labels });
      this.series.set(key, series);
    }
    return series;
  }

  get(): { name: string; help: string; type: 'histogram'; aggregator: 'sum'; values: ExportedValue[] } {
    const values: ExportedValue[] = [];
    for (const series of this.series.values()) {
      let cumulative = 0;
      this.bounds.forEach((bound, index) => {
        cumulative += series.counts[index]!;
        values.push({ labels: { le: bound, ...series.labels }, value: cumulative, metricName: `${this.name}_bucket` });
      });
      values.push({ labels: { le: '+Inf', ...series.labels }, value: series.count, metricName: `${this.name}_bucket` });
      values.push({ labels: { ...series.labels }, value: series.sum, metricName: `${this.name}_sum` });
      values.push({ labels: { ...series.labels }, value: series.count, metricName: `${this.name}_count` });
    }
    return { name: this.name, help: this.help, type: this.type, aggregator: this.aggregator, values };
  }

  /** Zeroes every series in place: callers may hold a series from seriesFor. */
  reset(): void {
    for (const series of this.series.values()) {
      series.counts.fill(0);
      series.sum = 0;
      series.count = 0;
    }
  }

  private createSeries(labels: Record<string, string>): Series {
    const bounds = this.bounds;
    const series: Series = {
      labels,
      counts: new Float64Array(bounds.length + 1),
      sum: 0,
      count: 0,
      observe(value: number) {
        let index = 0;
        while (index < bounds.length && value > bounds[index]!) index++;
        series.counts[index]!++;
        series.sum += value;
        series.count++;
      },
    };
    return series;
  }
}
