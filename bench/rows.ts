// A row of `npm run bench`'s table: what was measured, its figures, and its target when it has one.

export interface Row {
  /** What the row measures, in a word or two (e.g. catalog, project-cycle); several rows may share one. */
  name: string;
  workload: string;
  figures: Record<string, number>;
  target?: string;
  met?: boolean;
}

/** Whole numbers from 100 up, two decimals below. */
export const round = (value: number) => (Math.abs(value) >= 100 ? Math.round(value) : Math.round(value * 100) / 100);

const verdict = (row: Row, missed: string) => (row.target ? `${row.target}: ${row.met ? 'met' : missed}` : '');

/** The one line printed as the row is recorded. */
export function rowLine(row: Row): string {
  const figures = Object.entries(row.figures)
    .map(([key, value]) => `${key}=${round(value)}`)
    .join(' ');
  return `[${row.name}] ${row.workload}: ${figures}${row.target ? ` (target ${verdict(row, 'MISSED')})` : ''}`;
}

/** The summary table, in Markdown. */
export function rowTable(rows: readonly Row[]): string {
  const lines = ['| Row | Workload | Figures | Target |', '|---|---|---|---|'];
  for (const row of rows) {
    const figures = Object.entries(row.figures)
      .map(([key, value]) => `${key} ${round(value)}`)
      .join(', ');
    lines.push(`| ${row.name} | ${row.workload} | ${figures} | ${verdict(row, 'missed')} |`);
  }
  return lines.join('\n');
}
