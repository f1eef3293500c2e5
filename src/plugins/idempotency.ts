// Idempotency-Key on the creating POSTs (services/idempotency.ts has the rules). A route opts in
// with `config: { idempotent: 'body' }` (the request is its path parameters and parsed body,
// checked before the handler) or `'handler'` (a multipart upload: its handler calls
// replayIfRepeated once it knows the file's digest). This plugin documents the header, the 200
// replay and the 409 on such routes, and records each first answer as it is sent.
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { Type } from '@sinclair/typebox';
import { ApiErrorSchema, IdempotencyKeyHeaders } from '../schemas/common.js';
import {
  checkIdempotencyKey,
  requestDigest,
  type IdempotentStart,
  type StoredAnswer,
} from '../services/idempotency.js';
import { IDEMPOTENCY_CONFLICT_MARK, type OperationPatch } from './openapi-transform.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Accepts Idempotency-Key: 'body' checks it before the handler, 'handler' leaves that to it (replayIfRepeated). */
    idempotent?: 'body' | 'handler';
  }
}

/** The headers a replay repeats (the serializer sets the rest). */
const REPLAYED_HEADERS = ['location', 'etag'];

const SENTENCE =
  'With an Idempotency-Key the same request on this route within 24 h answers 200 with the first answer (nothing is created ' +
  'again, whatever the limits say now); the key with another request is a 409 "Idempotency-Key was used with another request.".';

interface Running {
  finish: Extract<IdempotentStart, { kind: 'run' }>['finish'];
  answer: StoredAnswer | null;
}

const running = new WeakMap<FastifyRequest, Running>();

/**
 * With an Idempotency-Key: true when this is the same request again, answered (200, the first
 * answer) here; false when the caller goes on (no key, or the key's first request, whose answer is
 * recorded as it is sent). `request` is what makes two requests the same one.
 */
export async function replayIfRepeated(request: FastifyRequest, reply: FastifyReply, material: unknown): Promise<boolean> {
  const key = request.headers['idempotency-key'];
  if (typeof key !== 'string') return false;
  checkIdempotencyKey(key);
  // Keys are per account: a route without its caller's account must never share them.
  if (!request.userId) throw new Error(`Idempotency-Key on ${request.routeOptions.url} without a caller`);
  const id = { userId: request.userId, route: `${request.method} ${request.routeOptions.url ?? request.url}`, key };
  const start = await request.server.services.idempotency.start(id, requestDigest(material));
  if (start.kind === 'run') {
    running.set(request, { finish: start.finish, answer: null });
    return false;
  }
  for (const [name, value] of Object.entries(start.answer.headers)) void reply.header(name, value);
  await reply.code(200).send(start.answer.body);
  return true;
}

async function checkBeforeHandler(request: FastifyRequest, reply: FastifyReply) {
  if (await replayIfRepeated(request, reply, { params: request.params ?? {}, body: request.body ?? null })) return reply;
}

async function recordAnswer(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  const state = running.get(request);
  if (state && reply.statusCode >= 200 && reply.statusCode < 300) {
    const headers: Record<string, string> = {};
    for (const name of REPLAYED_HEADERS) {
      const value = reply.getHeader(name);
      if (typeof value === 'string') headers[name] = value;
    }
    state.answer = { statusCode: reply.statusCode, headers, body: payload };
  }
  return payload;
}

/** Records the answer (or frees the key after an error answer) before the answer leaves. */
async function settle(request: FastifyRequest) {
  const state = running.get(request);
  if (!state) return;
  running.delete(request);
  try {
    await state.finish(state.answer);
  } catch (error) {
    // The request itself succeeded or failed as answered; the key's lease runs out instead.
    request.log.error({ err: error }, 'could not record the Idempotency-Key answer');
  }
}

const asArray = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);

/** Documents the header, the 200 replay and the 409, and attaches the hooks. */
function makeIdempotent(route: RouteOptions): void {
  const mode = route.config?.idempotent;
  if (!mode) return;
  const schema = (route.schema ??= {});
  if (schema.headers) throw new Error(`Idempotency-Key: ${route.url} declares headers of its own.`);
  schema.headers = IdempotencyKeyHeaders;
  const response = { ...(schema.response as Record<string, unknown>) };
  const created = response['201'] ?? response['202'];
  if (!created) throw new Error(`Idempotency-Key: ${route.url} documents no 201 or 202.`);
  const patch: OperationPatch = { ...schema['x-openapi'], responses: { ...schema['x-openapi']?.responses } };
  patch.responses!['200'] = { description: 'The same request again with its Idempotency-Key: the first answer.' };
  if (!response['409']) {
    response['409'] = Type.Ref(ApiErrorSchema);
    patch.responses!['409'] = { description: 'Conflict', [IDEMPOTENCY_CONFLICT_MARK]: true };
  }
  response['200'] = created;
  schema.response = response;
  schema['x-openapi'] = patch;
  const summary = typeof schema.summary === 'string' ? `${schema.summary}.` : '';
  schema.description = `${typeof schema.description === 'string' ? schema.description : summary} ${SENTENCE}`;

  if (mode === 'body') route.preHandler = [...asArray(route.preHandler), checkBeforeHandler];
  route.preSerialization = [...asArray(route.preSerialization), recordAnswer];
  route.onSend = [...asArray(route.onSend), async (request, _reply, payload) => (await settle(request), payload)];
  route.onResponse = [...asArray(route.onResponse), settle];
  route.onRequestAbort = [...asArray(route.onRequestAbort), settle];
}

async function idempotencyPlugin(app: FastifyInstance) {
  app.addHook('onRoute', makeIdempotent);
}

export default fp(idempotencyPlugin, { name: 'idempotency' });
