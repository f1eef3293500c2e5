// GET /templates at the default log level, in interleaved rounds against bare servers answering the
// same bytes (bench/reference-server.ts): Fastify 5 writing the service's access line through its
// request logger (the target's reference), node:http writing one line through pino, both without a
// log; and the service's 304 on If-None-Match beside its 200.
import { CONNECTIONS, interleave, medianOf, medianRatio, roundRatios, type Contender } from '../load.js';
import type { Reference } from '../references.js';
import { SERVICE_LOG_LEVEL, type RunningService } from '../support.js';
import type { Workload } from '../workload.js';

/** The service's share of what the bare Fastify route logging the same line reaches. */
export const CATALOG_TARGET_RATIO = 0.9;

const listing = (server: Reference | RunningService, headers?: Record<string, string>): Contender => ({
  options: { url: `${server.url}/templates`, connections: CONNECTIONS, ...(headers ? { headers } : {}) },
  pid: server.pid,
});

export const catalog: Workload = {
  name: 'catalog',
  usesService: true,
  async run(bench) {
    const service = await bench.service();
    const logging = await bench.reference('logging');
    const node = await bench.reference('node');
    const fastify = await bench.reference('fastify');
    const fastifyLogging = await bench.reference('fastify-logging');
    const etag = (await fetch(`${service.url}/templates`)).headers.get('etag') ?? '';
    const [logged, bareNode, bare, bareLogging, svc, notModified] = await interleave([
      listing(logging),
      listing(node),
      listing(fastify),
      listing(fastifyLogging),
      listing(service),
      listing(service, { 'if-none-match': etag }),
    ]);
    const ratio = medianRatio(svc, bareLogging);
    const ratio304 = medianRatio(notModified, svc);
    bench.record({
      name: 'catalog',
      workload: `GET /templates (LOG_LEVEL ${SERVICE_LOG_LEVEL}) vs bare Fastify 5 writing the same line through its request logger`,
      figures: {
        'req/s': medianOf(svc, 'reqPerSec'),
        'p99 ms': medianOf(svc, 'p99Ms'),
        'bare Fastify logging the same line req/s': medianOf(bareLogging, 'reqPerSec'),
        'ratio vs bare Fastify logging the same line': ratio,
        '304 req/s': medianOf(notModified, 'reqPerSec'),
        '304 / 200': ratio304,
        'logging node:http req/s': medianOf(logged, 'reqPerSec'),
        'ratio vs logging node:http': medianRatio(svc, logged),
        'node:http without a log req/s': medianOf(bareNode, 'reqPerSec'),
        'ratio vs node:http without a log': medianRatio(svc, bareNode),
        'bare Fastify (no log) ratio vs logging node:http': medianRatio(bare, logged),
        'bare Fastify logging the same line, ratio vs logging node:http': medianRatio(bareLogging, logged),
        'server CPU µs/request': medianOf(svc, 'cpuMicrosPerRequest'),
        '304 server CPU µs/request': medianOf(notModified, 'cpuMicrosPerRequest'),
        'logging node:http CPU µs/request': medianOf(logged, 'cpuMicrosPerRequest'),
        'bare Fastify CPU µs/request': medianOf(bare, 'cpuMicrosPerRequest'),
        'bare Fastify logging CPU µs/request': medianOf(bareLogging, 'cpuMicrosPerRequest'),
      },
      target: `ratio vs bare Fastify logging the same line >= ${CATALOG_TARGET_RATIO}, 304 / 200 >= 1`,
      met: ratio >= CATALOG_TARGET_RATIO && ratio304 >= 1,
    });
    console.log(`  ratio per round vs bare Fastify logging the same line: ${roundRatios(svc, bareLogging)}`);
    console.log(`  ratio per round vs logging node:http: ${roundRatios(svc, logged)}`);
    console.log(`  bare Fastify logging the same line vs logging node:http, per round: ${roundRatios(bareLogging, logged)}`);
    console.log(`  304 / 200 per round: ${roundRatios(notModified, svc)}`);
  },
};
