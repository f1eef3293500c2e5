// The account surface's guard. @fastify/jwt is pinned to HS256; every defect of a token, and a
// token whose account no longer exists, is the same 401.
import fastifyJwt from '@fastify/jwt';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { MESSAGES, unauthorized } from '../errors.js';
import type { User } from '../repositories/users.js';
import { BEARER as BEARER_AUTH, documentSecurity } from './openapi-conventions.js';

export const TOKEN_LIFETIME = '7d';
const BEARER = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*)$/;

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest hook for every account route: sets request.userId or answers 401. */
    authenticate(request: FastifyRequest): Promise<void>;
    signToken(userId: string): string;
  }
  interface FastifyRequest {
    /** The authenticated account's id, set by app.authenticate. */
    userId: string;
    /** The authenticated account, set by app.authenticate. */
    account: User | null;
  }
}

declare module '@fastify/jwt' {
  interface FastifyJWT {
    payload: { sub: string };
  }
}

async function authenticationPlugin(app: FastifyInstance) {
  await app.register(fastifyJwt, {
    secret: app.config.jwtSecret,
    sign: { algorithm: 'HS256', expiresIn: TOKEN_LIFETIME },
    verify: { algorithms: ['HS256'] },
  });

  app.decorateRequest('userId', '');
  app.decorateRequest('account', null);

  app.decorate('signToken', (userId: string) => app.jwt.sign({ sub: userId }));

  // Tagged: every route behind it is documented with bearerAuth.
  app.decorate('authenticate', documentSecurity(async (request: FastifyRequest) => {
    const header = request.headers.authorization;
    if (header === undefined || header === '') throw unauthorized(MESSAGES.authRequired);
    const token = BEARER.exec(header)?.[1];
    if (!token) throw unauthorized(MESSAGES.invalidToken);
    let subject: unknown;
    try {
      subject = app.jwt.verify<{ sub?: unknown }>(token).sub;
    } catch {
      throw unauthorized(MESSAGES.invalidToken);
    }
    if (typeof subject !== 'string' || subject === '') throw unauthorized(MESSAGES.invalidToken);
    const user = await app.services.auth.findUser(subject);
    if (!user) throw unauthorized(MESSAGES.invalidToken);
    request.userId = user.id;
    request.account = user;
  }, BEARER_AUTH));
}

export default fp(authenticationPlugin, { name: 'authentication', dependencies: ['services'] });
