// The physical limit for GET /templates on this machine: bare node:http answering the same
// precomputed bytes, with no routing, validation, hooks or logging.
import { createServer } from 'node:http';
import { FULL_LISTING_JSON } from '../src/catalog/index.js';

const body = Buffer.from(FULL_LISTING_JSON);
const headers = { 'content-type': 'application/json; charset=utf-8', 'content-length': String(body.length) };

const server = createServer((_request, response) => {
  response.writeHead(200, headers);
  response.end(body);
});
server.keepAliveTimeout = 72_000;
server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  const address = server.address();
  process.stdout.write(`${typeof address === 'object' && address ? address.port : ''}\n`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
