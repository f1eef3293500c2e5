// Each request's logger makes its pino child only when the request logs more than its access line;
// the lines are the same either way.
import { pino, type DestinationStream } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app.js';
import { LOG_REDACTION } from '../../src/lib/log-output.js';
import { RequestLogger } from '../../src/plugins/request-logger.js';
import { engineName, testConfig } from '../helpers/app.js';
import { captureLogLines } from '../helpers/log-capture.js';

/** The service's logger settings, without the clock, writing raw lines to `written`. */
function serviceLikeLogger(written: string[]) {
  const stream: DestinationStream = { write: (line: string) => void written.push(line) };
  return pino({ level: 'info', timestamp: false, redact: LOG_REDACTION }, stream);
}

const FIELDS = { method: 'GET', route: '/v1/templates', statusCode: 200, responseTime: 1.25, remoteAddress: '127.0.0.1' };

describe('RequestLogger', () => {
  it("writes a line without a child byte for byte as the request's pino child writes it", () => {
    const written: string[] = [];
    const parent = serviceLikeLogger(written);
    const deferred = new RequestLogger(parent, { reqId: 'req-1' }, {});
    deferred.setBindings({ apiKeyId: 'key-1', userId: 'user-1' });
    deferred.infoFields(FIELDS, 'request completed');

    const child = parent.child({ reqId: 'req-1' });
    child.setBindings({ apiKeyId: 'key-1', userId: 'user-1' });
    child.info(FIELDS, 'request completed');

    expect(written).toHaveLength(2);
    expect(written[0]).toBe(written[1]);
    expect(JSON.parse(written[0]!)).toMatchObject({ reqId: 'req-1', apiKeyId: 'key-1', userId: 'user-1', statusCode: 200 });
  });

  it('makes its child on the first other line; later lines carry the bindings set before and after', () => {
    const written: string[] = [];
    const deferred = new RequestLogger(serviceLikeLogger(written), { reqId: 'req-2' }, {});
    deferred.setBindings({ apiKeyId: 'key-2' });
    deferred.warn({ statusCode: 429, reason: 'slow down' }, 'request refused');
    deferred.setBindings({ userId: 'user-2' });
    deferred.infoFields(FIELDS, 'request completed');
    deferred.error(new Error('boom'));
    const lines = written.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines[0]).toMatchObject({ reqId: 'req-2', apiKeyId: 'key-2', msg: 'request refused', level: 40 });
    expect(lines[0]).not.toHaveProperty('userId');
    expect(lines[1]).toMatchObject({ reqId: 'req-2', apiKeyId: 'key-2', userId: 'user-2', msg: 'request completed' });
    expect(lines[2]).toMatchObject({ reqId: 'req-2', level: 50, msg: 'boom', err: { type: 'Error', message: 'boom' } });
  });

  it("keeps pino's semantics for levels, message-only lines and grandchildren", () => {
    const written: string[] = [];
    const parent = serviceLikeLogger(written);
    const deferred = new RequestLogger(parent, { reqId: 'req-3' }, {});
    expect(deferred.level).toBe('info');
    deferred.debug('not written at info');
    deferred.info('plain %s', 'message');
    deferred.child({ step: 'render' }).info('from a grandchild');
    deferred.level = 'debug';
    deferred.debug('written at debug');
    const lines = written.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(lines.map((line) => line.msg)).toEqual(['plain message', 'from a grandchild', 'written at debug']);
    expect(lines[1]).toMatchObject({ reqId: 'req-3', step: 'render' });
    expect(parent.level).toBe('info');
    // A route's own log level applies to its requests' lines.
    const quiet = new RequestLogger(parent, { reqId: 'req-4' }, { level: 'warn' });
    quiet.infoFields(FIELDS, 'request completed');
    expect(quiet.level).toBe('warn');
    expect(written).toHaveLength(3);
    // And its serializers.
    const serialized = new RequestLogger(parent, { reqId: 'req-5' }, { serializers: { route: () => 'a route' } });
    serialized.infoFields(FIELDS, 'request completed');
    expect(JSON.parse(written[3]!)).toMatchObject({ reqId: 'req-5', route: 'a route' });
  });
});

describe(`request loggers in the app (${engineName()})`, () => {
  let app: App;
  const { lines, stream } = captureLogLines();
  beforeAll(async () => {
    app = await buildApp({ ...testConfig(), logLevel: 'info' }, { logStream: stream });
    await app.ready();
  });
  afterAll(() => app.close());

  it("labels a refusal and the access line after it with the request's id", async () => {
    const response = await app.inject({ method: 'GET', url: '/templates?category=nope', headers: { 'x-request-id': 'request-logger-1' } });
    expect(response.statusCode).toBe(400);
    const mine = lines.filter((line) => line.reqId === 'request-logger-1');
    expect(mine.map((line) => line.msg)).toEqual(['request rejected', 'request completed']);
    expect(mine[1]).toMatchObject({ route: '/templates', statusCode: 400 });
  });
});
