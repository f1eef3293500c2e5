// The server's connections at the close: every connection nobody is waiting on is ended, so the
// process never waits on a client's silence.
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

async function connectionsPlugin(app: FastifyInstance) {
  const connections = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });

  // The close ends the connections idle at its start; one whose request was still running becomes
  // idle once answered and is ended then (checked every 50 ms, off the request path). Left open, a
  // keep-alive connection would sit idle until its timeout and hold the server's close (and the
  // process's exit) until the grace period ran out. A request pipelined behind an answer keeps its
  // connection busy: it is answered first. A connection that has not sent a byte (one a browser or
  // an HTTP client opened ahead of a request, a load balancer's probe) is not idle to Node, which
  // ends it only at its headers timeout (60 s, checked every 30 s): it is ended too.
  const endIdle = () => {
    app.server.closeIdleConnections();
    for (const socket of connections) if (socket.bytesRead === 0) socket.destroy();
  };
  let endingIdle: NodeJS.Timeout | undefined;
  app.addHook('preClose', (done) => {
    endIdle();
    endingIdle = setInterval(endIdle, 50).unref();
    done();
  });
  app.addHook('onClose', (_instance, done) => {
    clearInterval(endingIdle);
    done();
  });
}

export default fp(connectionsPlugin, { name: 'connections' });
