// The account surface's guard. @fastify/jwt is pinned to HS256; every defect of a token, a token
// whose account no longer exists, and a token of an older generation are the same 401.
//
// Token generations: every token carries `gen`, the account's tokenGeneration when it was signed.
// The guard reads the account on every request anyway, so comparing the two costs nothing, and a
// password change or DELETE /auth/sessions (which move the generation) reaches every process from
// the next request. Tokens signed before generations existed carry no `gen`: they count as
// generation 0, so they keep working until the account's generation first moves.
//
// This guard is where a caller that is no longer valid (its account deleted, its tokens revoked)
// is answered: it runs before the body is read, so such a caller gets the 401 before any other
// refusal, and the code behind it takes the caller as valid.
import fastifyJwt from '@fastify/jwt';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { MESSAGES, unauthorized } from '../errors.js';
import type { User } from '../repositories/users.js';
import { BEARER as BEARER_AUTH, documentSecurity } from './openapi-conventions.js';

export const TOKEN_LIFETIME = '7d';
const VERIFIED_TOKENS_KEPT = 10_000;
/** Far above any token this service signs (about 200 characters): longer ones are refused unread. */
const MAX_TOKEN_LENGTH = 1024;
/** The scheme is case-insensitive (RFC 9110 §11.1): `bearer` and `BEARER` are `Bearer`. */
const BEARER = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*)$/i;

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest hook for every account route: sets request.userId or answers 401. */
    authenticate(request: FastifyRequest): Promise<void>;
    /** A token for the account at its current token generation. */
    signToken(user: Pick<User, 'id' | 'tokenGeneration'>): string;
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
    payload: { sub: string; gen: number };
  }
}

async function authenticationPlugin(app: FastifyInstance) {
  await app.register(fastifyJwt, {
    secret: app.config.jwtSecret,
    sign: { algorithm: 'HS256', expiresIn: TOKEN_LIFETIME },
    verify: {
      algorithms: ['HS256'],
      // Every token this service signs expires: one without an expiry was not made here.
      requiredClaims: ['exp'],
      // An editor sends the same token with every request: a verified token's claims are kept
      // (keyed by the token's SHA-256, until its expiry and at most 10 minutes) so its signature
      // and claims are checked once, not on every request. Revocation does not depend on this:
      // the account's token generation is still read on every request.
      cache: VERIFIED_TOKENS_KEPT,
    },
  });

  app.decorateRequest('userId', '');
  app.decorateRequest('account', null);

  app.decorate('signToken', (user: Pick<User, 'id' | 'tokenGeneration'>) =>
    app.jwt.sign({ sub: user.id, gen: user.tokenGeneration }),
  );

  // Tagged: every route behind it is documented with bearerAuth.
  app.decorate('authenticate', documentSecurity(async (request: FastifyRequest) => {
    const header = request.headers.authorization;
    if (header === undefined || header === '') throw unauthorized(MESSAGES.authRequired);
    const token = BEARER.exec(header)?.[1];
    if (!token || token.length > MAX_TOKEN_LENGTH) throw unauthorized(MESSAGES.invalidToken);
    let claims: { sub?: unknown; gen?: unknown };
    try {
      claims = app.jwt.verify<{ sub?: unknown; gen?: unknown }>(token);
    } catch {
      throw unauthorized(MESSAGES.invalidToken);
    }
    const { sub: subject, gen: generation = 0 } = claims;
    if (typeof subject !== 'string' || subject === '') throw unauthorized(MESSAGES.invalidToken);
    if (!Number.isSafeInteger(generation)) throw unauthorized(MESSAGES.invalidToken);
    const user = await app.services.auth.findUser(subject);
    if (!user || user.tokenGeneration !== generation) throw unauthorized(MESSAGES.invalidToken);
    request.userId = user.id;
    request.account = user;
  }, BEARER_AUTH));
}

export default fp(authenticationPlugin, { name: 'authentication', dependencies: ['services'] });
