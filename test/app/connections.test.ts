// The close ends every connection nobody is waiting on, so it never waits on a client's silence:
// one that has not sent a byte, one idle between requests.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createTestApp, engineName } from '../helpers/app.js';
import { connect, listenLocally } from '../helpers/raw-http.js';

const ended = (socket: Socket) => new Promise<void>((resolve) => socket.once('close', () => resolve()));

/** A connection that has made one request and is now idle between requests (keep-alive). */
async function idleAfterOneRequest(port: number) {
  const connection = await connect(port);
  connection.socket.write('GET /health HTTP/1.1\r\nHost: localhost\r\n\r\n');
  await new Promise((resolve) => connection.socket.once('data', resolve));
  return connection;
}

describe(`connections (${engineName()})`, () => {
  it('the close ends a connection that has not sent a byte and one idle between requests, and does not wait for them', async () => {
    const closing = await createTestApp();
    const closingPort = await listenLocally(closing);
    const silent = await connect(closingPort);
    const idle = await idleAfterOneRequest(closingPort);
    const bothEnded = Promise.all([ended(silent.socket), ended(idle.socket)]).then(() => 'ended' as const);
    const closed = closing.close().then(() => 'closed' as const);
    // Without that, the close waits for the silent one until Node's headers timeout (60 to 90 s).
    const hang = sleep(15_000).then(() => 'still waiting' as const);
    expect(await Promise.race([closed, hang])).toBe('closed');
    expect(await Promise.race([bothEnded, hang])).toBe('ended');
  }, 30_000);
});
