// Switches the HTTP server's fast path (src/lib/fast-path.ts) on once the app is ready and off as
// soon as it starts closing (its preClose hook runs first), so Fastify answers 503 while it closes,
// as for every route. Its answers are counted in the request metrics under the route's own labels.
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { FastAnswer, FastPathContext } from '../lib/fast-path.js';
import type { HistogramSeries } from '../lib/labelled-histogram.js';
import { generateRequestId } from './request-id.js';

/** A pino logger; without a logger (tests) Fastify's stand-in has no isLevelEnabled. */
type AppLogger = FastifyBaseLogger & { isLevelEnabled?: (level: string) => boolean };

/** Request logging writes two lines per request: only Fastify's pipeline writes them. */
const logsRequests = (log: AppLogger | undefined) => log?.isLevelEnabled?.('info') === true;

/** The context the server's fast path asks, and the plugin that drives it from the app's lifecycle. */
export function createFastPathControl() {
  let open = false;
  let log: AppLogger | undefined;
  let observe: FastPathContext['observe'] = () => undefined;

  const context: FastPathContext = {
    requestId: generateRequestId,
    active: () => open && !logsRequests(log),
    observe: (answer, seconds) => observe(answer, seconds),
  };

  const plugin = fp(
    async (app: FastifyInstance) => {
      const series = new Map<string, HistogramSeries>();
      observe = (answer: FastAnswer, seconds: number) => {
        let observer = series.get(answer.path);
        if (!observer) {
          observer = app.metrics.requestDuration.seriesFor({ method: 'GET', route: answer.path, status_code: '200' });
          series.set(answer.path, observer);
        }
        observer.observe(seconds);
      };
      app.addHook('onReady', async () => {
        log = app.log;
        open = true;
      });
    },
    { name: 'fast-path', dependencies: ['metrics'] },
  );

  /** A preClose hook, added before any other so that nothing runs between Fastify's closing and this. */
  const closing = (done: () => void) => {
    open = false;
    done();
  };

  return { context, plugin, closing };
}
