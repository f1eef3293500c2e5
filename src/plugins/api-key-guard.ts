// The /v1 surface's guard: the x-api-key header, verified by the api-keys service on every
// request (a revoked key fails on every process from the next request). The key's owner is the caller.
import type { FastifyInstance, FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import fp from 'fastify-plugin';
import type { Logger } from 'pino';
import { MESSAGES, unauthorized } from '../errors.js';
import type { ApiKeyOwner, VerifiedApiKey } from '../repositories/api-keys.js';
import { API_KEY, documentSecurity } from './openapi-conventions.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** onRequest hook for the /v1 context: sets request.apiKey, request.userId and request.account (the key's owner), or answers 401. */
    requireApiKey(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction): void;
  }
  interface FastifyRequest {
    /** The developer key behind a /v1 request and its owner, set by app.requireApiKey. */
    apiKey: ApiKeyOwner | null;
  }
}

const OPTIONAL_WHITESPACE = /^[ \t]+|[ \t]+$/g;
const isOptionalWhitespace = (code: number) => code === 0x20 || code === 0x09;

/**
 * The presented key, or null when the header is absent or empty. Surrounding spaces and tabs are
 * not part of an HTTP field value (RFC 9110 §5.5), so whitespace-only counts as empty. A repeated
 * header reaches us joined with ", " (or as an array) and so never matches the key format.
 */
export function readApiKeyHeader(value: string | string[] | undefined): string | null {
  if (value === undefined) return null;
  if (Array.isArray(value)) return value.length === 0 ? null : value.join(', ');
  if (value === '') return null;
  // Node's HTTP parser has already stripped it from wire requests: skip the regex when there is none.
  if (!isOptionalWhitespace(value.charCodeAt(0)) && !isOptionalWhitespace(value.charCodeAt(value.length - 1))) return value;
  const trimmed = value.replace(OPTIONAL_WHITESPACE, '');
  return trimmed === '' ? null : trimmed;
}

async function apiKeyGuardPlugin(app: FastifyInstance) {
  app.decorateRequest('apiKey', null);

  function admit(request: FastifyRequest, verified: VerifiedApiKey | null, done: HookHandlerDoneFunction) {
    if (!verified) return done(unauthorized(MESSAGES.invalidApiKey));
    request.apiKey = verified.apiKey;
    request.userId = verified.account.id;
    request.account = verified.account;
    // The key's ids join every later line of this request's pino child, its access line included.
    // With logging off, Fastify's stand-in has no bindings to set.
    (request.log as Partial<Pick<Logger, 'setBindings'>>).setBindings?.({ apiKeyId: verified.apiKey.id, userId: verified.account.id });
    done();
  }

  // Tagged: every route behind it is documented with the apiKey scheme.
  app.decorate('requireApiKey', documentSecurity((request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) => {
    const presented = readApiKeyHeader(request.headers['x-api-key']);
    if (presented === null) return done(unauthorized(MESSAGES.missingApiKey));
    app.services.apiKeys.verify(presented).then((verified) => admit(request, verified, done), done);
  }, API_KEY));
}

export default fp(apiKeyGuardPlugin, { name: 'api-key-guard', dependencies: ['services'] });
