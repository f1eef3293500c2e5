// Fastify's frameworkErrors: a URL the router cannot take (a malformed percent-encoding, an
// over-long path parameter) is refused before any route or hook runs. Under a prefix whose every
// route sits behind a credential, the credential is checked first, as it is for every other path
// there: a bad key or token is 401 whatever is wrong with the URL.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { forbidden, MESSAGES } from '../errors.js';
import { apiError, toApiError, type ApiError } from './error-handler.js';

const ROUTING_ERRORS: Record<string, ApiError> = {
  // A malformed percent-encoding or an over-long path parameter cannot name a resource that exists.
  FST_ERR_BAD_URL: apiError(404, 'The URL is malformed.'),
  FST_ERR_MAX_PARAM_LENGTH: apiError(404, 'A path parameter is too long.'),
};

type Guard = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

const apiKey: Guard = (request, reply) =>
  new Promise((resolve, reject) => request.server.requireApiKey(request, reply, (error?: Error) => (error ? reject(error) : resolve())));
const account: Guard = (request) => request.server.authenticate(request);
const administrator: Guard = async (request) => {
  await request.server.authenticate(request);
  if (request.account?.role !== 'admin') throw forbidden(MESSAGES.adminRequired);
};

/** The credential every route under the prefix requires. */
const GUARDED_PREFIXES: ReadonlyArray<readonly [string, Guard]> = [
  ['/v1', apiKey],
  ['/admin', administrator],
  ['/projects', account],
  ['/assets', account],
  ['/api-keys', account],
];

function guardOf(url: string): Guard | undefined {
  for (const [prefix, guard] of GUARDED_PREFIXES) {
    const next = url[prefix.length];
    if (url.startsWith(prefix) && (next === undefined || next === '/' || next === '?')) return guard;
  }
  return undefined;
}

async function refusal(error: FastifyError, request: FastifyRequest, reply: FastifyReply): Promise<ApiError> {
  const guard = guardOf(request.url);
  if (guard) {
    try {
      await guard(request, reply);
    } catch (failure) {
      return toApiError(failure as Error);
    }
  }
  return ROUTING_ERRORS[error.code] ?? apiError(400, 'The request could not be routed.');
}

export function answerRoutingError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  void refusal(error, request, reply).then((body) => {
    if (body.statusCode === 503) void reply.header('retry-after', '5');
    void reply.code(body.statusCode).header('x-request-id', request.id).send(body);
  });
}
