// Raw HTTP/1.1 over a TCP socket, for what app.inject cannot do: send a body in pieces, stop half
// way, or send a request target exactly as written (no URL normalisation).
import type { AddressInfo } from 'node:net';
import net from 'node:net';
import type { App } from '../../src/app.js';

export interface RawResponse {
  statusCode: number;
  /** Lower-cased names. */
  headers: Record<string, string>;
  body: Buffer;
}

export interface RawConnection {
  socket: net.Socket;
  /** Everything the server sends until it closes, parsed as one response. */
  response: Promise<RawResponse>;
}

/** Listens on an ephemeral port of 127.0.0.1 (once per app) and returns it. */
export async function listenLocally(app: App): Promise<number> {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' });
  return (app.server.address() as AddressInfo).port;
}

export async function connect(port: number): Promise<RawConnection> {
  const socket = net.connect(port, '127.0.0.1');
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  const response = new Promise<RawResponse>((resolve, reject) => {
    // A reset after the answer arrived is how a server may drop an unread body: keep the answer.
    socket.on('error', (error) => (chunks.length > 0 ? undefined : reject(error)));
    socket.on('close', () => {
      try {
        resolve(parseResponse(Buffer.concat(chunks)));
      } catch (error) {
        reject(error);
      }
    });
  });
  response.catch(() => undefined);
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return { socket, response };
}

/** The request line and headers; `Connection: close` is added so the response ends the socket. */
export function requestHead(method: string, target: string, headers: Record<string, string | number> = {}): Buffer {
  const lines = [`${method} ${target} HTTP/1.1`, 'Host: 127.0.0.1', 'Connection: close'];
  for (const [name, value] of Object.entries(headers)) lines.push(`${name}: ${value}`);
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1');
}

/** Sends one request without a body and waits for the whole response. */
export async function rawRequest(port: number, method: string, target: string, headers: Record<string, string | number> = {}) {
  const { socket, response } = await connect(port);
  socket.write(requestHead(method, target, headers));
  return response;
}

export function parseResponse(raw: Buffer): RawResponse {
  const end = raw.indexOf('\r\n\r\n');
  if (end < 0) throw new Error(`Incomplete HTTP response: ${JSON.stringify(raw.toString('latin1').slice(0, 200))}`);
  const [statusLine = '', ...headerLines] = raw.subarray(0, end).toString('latin1').split('\r\n');
  const statusCode = Number(statusLine.split(' ')[1]);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { statusCode, headers, body: raw.subarray(end + 4) };
}
