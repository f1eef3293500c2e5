// The references for GET /templates, answering the same precomputed bytes:
//   logging  bare node:http writing one access-log line per request (method, url, status, time)
//            through pino to stdout, as the service does at its default level: the target's reference;
//   node     bare node:http without a log, the physical limit of this machine (and {"status":"ok"}
//            on /health);
//   fastify  a bare Fastify instance with one route and no plugins, hooks or logger, the
//            framework's own floor, so the service's overhead can be told from Fastify's;
//   fastify-logging  the same Fastify route writing the logging reference's one line per request
//            from an onResponse hook through its request logger (Fastify's own two request lines
//            off), the floor of any Fastify service that logs its requests: the target's
//            calibration on the machine at hand.
// Each announces that it listens on file descriptor 3 (stdout carries the log, like the service's).
import { writeSync } from 'node:fs';
import { createServer } from 'node:http';
import Fastify, { LogController, type FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import { FULL_LISTING_BYTES } from '../src/catalog/index.js';

const [, , kind = 'node', portArg = '0'] = process.argv;
const port = Number(portArg);
const contentType = 'application/json; charset=utf-8';

const announce = () => writeSync(3, 'listening\n');

if (kind === 'fastify' || kind === 'fastify-logging') {
  // pino's default destination, as the logging reference's.
  const logger: FastifyBaseLogger | undefined = kind === 'fastify-logging' ? pino({ level: 'info' }) : undefined;
  const app = Fastify({
    loggerInstance: logger,
    logController: new LogController({ disableRequestLogging: true }),
    keepAliveTimeout: 72_000,
  });
  if (logger) {
    app.addHook('onResponse', (request, reply, done) => {
      request.log.info(
        { method: request.method, url: request.url, statusCode: reply.statusCode, responseTime: reply.elapsedTime },
        'request completed',
      );
      done();
    });
  }
  app.get('/templates', (_request, reply) => {
    reply.type(contentType).send(FULL_LISTING_BYTES);
  });
  await app.listen({ port, host: '127.0.0.1' });
  announce();
  process.on('SIGTERM', () => void app.close().then(() => process.exit(0)));
} else {
  const headers = { 'content-type': contentType, 'content-length': String(FULL_LISTING_BYTES.length) };
  // The floor for the service's /health (bench #12): the same small answer.
  const health = Buffer.from('{"status":"ok"}');
  const healthHeaders = { 'content-type': contentType, 'content-length': String(health.length) };
  // pino's default destination: asynchronous writes to stdout, batched while one is in flight.
  const log = kind === 'logging' ? pino({ level: 'info' }) : undefined;
  const server = createServer((request, response) => {
    if (log) {
      const started = performance.now();
      response.once('finish', () => {
        log.info(
          { method: request.method, url: request.url, statusCode: response.statusCode, responseTime: performance.now() - started },
          'request completed',
        );
      });
    }
    if (request.url === '/health') {
      response.writeHead(200, healthHeaders);
      return void response.end(health);
    }
    response.writeHead(200, headers);
    response.end(FULL_LISTING_BYTES);
  });
  server.keepAliveTimeout = 72_000;
  server.listen(port, '127.0.0.1', announce);
  process.on('SIGTERM', () => server.close(() => process.exit(0)));
}
