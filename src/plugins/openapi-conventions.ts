// What every operation of the OpenAPI document gets without its route saying so: an operationId
// derived from method and path, the security of the guard the route sits behind, a description,
// the x-request-id header, rate-limit headers where a 429 is possible, a `default` ApiError
// response and the error answers (openapi-transform.ts). Routes may still set any of these themselves.
import type { FastifyInstance, RouteOptions } from 'fastify';

export type SecurityRequirement = Record<string, readonly string[]>;
export const PUBLIC: SecurityRequirement[] = [];
export const BEARER: SecurityRequirement[] = [{ bearerAuth: [] }];
export const API_KEY: SecurityRequirement[] = [{ apiKey: [] }];

const SECURITY = Symbol('openapi.security');
type Tagged = { [SECURITY]?: SecurityRequirement[] };

/**
 * Marks a guard hook (onRequest, preValidation or preHandler) with the security requirement it
 * enforces. Every route behind it, through a context hook or its own, is documented with it.
 */
export function documentSecurity<T extends object>(guard: T, security: SecurityRequirement[]): T {
  Object.defineProperty(guard, SECURITY, { value: security, enumerable: false });
  return guard;
}

const GUARD_HOOKS = ['onRequest', 'preParsing', 'preValidation', 'preHandler'] as const;

/**
 * Remembers, for every route, the context it was declared in: its hooks are only final once the
 * app is ready, which is when the document is built. Call from an onRoute hook.
 */
export function routeContexts() {
  const contexts = new WeakMap<object, FastifyInstance>();
  return {
    remember(instance: FastifyInstance, route: RouteOptions) {
      contexts.set(route, instance);
    },
    /** The security requirement of the guards before the handler; [] when none is tagged. */
    securityOf(route: RouteOptions): SecurityRequirement[] {
      const instance = contexts.get(route);
      if (!instance) throw new Error(`OpenAPI: route ${route.url} was registered before the openapi plugin.`);
      // Fastify keeps a context's hooks under a private symbol; found by its description.
      const symbol = Object.getOwnPropertySymbols(instance).find((s) => s.description === 'fastify.hooks');
      if (!symbol) throw new Error('OpenAPI: cannot read Fastify context hooks (has Fastify changed?).');
      const hooks = (instance as unknown as Record<symbol, Record<string, unknown[]>>)[symbol];
      const found = new Map<string, SecurityRequirement[]>();
      for (const name of GUARD_HOOKS) {
        // The context's hooks, then the route's own: one hook or an array of them.
        for (const hook of [...(hooks[name] ?? []), (route as unknown as Record<string, unknown>)[name]].flat()) {
          const security = (hook as Tagged | null)?.[SECURITY];
          if (security) found.set(JSON.stringify(security), security);
        }
      }
      if (found.size > 1) throw new Error(`OpenAPI: route ${route.url} sits behind guards of different kinds.`);
      return [...found.values()][0] ?? PUBLIC;
    },
  };
}

// ---- operationId ------------------------------------------------------------------------------

const camel = (word: string) => word.replace(/[-_.]+([a-z0-9])/gi, (_m, c: string) => c.toUpperCase());
export const capital = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);
const singular = (word: string) =>
  word.endsWith('ies') ? `${word.slice(0, -3)}y` : word.endsWith('ses') ? word.slice(0, -2) : word.replace(/s$/, '');

/**
 * A readable, stable name from method and path: GET /projects → listProjects, POST /projects →
 * createProject, GET /projects/:id → getProject, PUT → updateProject, DELETE → deleteProject,
 * GET /projects/:id/dieline → getProjectDieline, GET /v1/templates → listV1Templates. A static
 * segment followed by a parameter is singular. A route may name itself with schema.operationId.
 */
export function deriveOperationId(method: string, url: string): string {
  const segments = url.split('/').filter(Boolean);
  const words: string[] = [];
  segments.forEach((segment, i) => {
    if (segment.startsWith(':')) return;
    const word = camel(segment);
    words.push(segments[i + 1]?.startsWith(':') ? singular(word) : word);
  });
  const last = segments.at(-1) ?? '';
  const collection = !last.startsWith(':') && /s$/.test(last) && last !== 'status';
  const lower = method.toLowerCase();
  let verb = lower;
  if (lower === 'get' && collection) verb = 'list';
  else if (lower === 'post' && collection) {
    verb = 'create';
    words[words.length - 1] = singular(words.at(-1) ?? '');
  } else if (lower === 'put' || lower === 'patch') verb = 'update';
  return verb + (words.length ? words.map(capital).join('') : 'Root');
}

/** The /v1 twin of an editor's route named explicitly: v1ListFonts for listFonts. */
export const v1OperationId = (operationId: string) => `v1${capital(operationId)}`;

/** The editor's route a /v1 twin repeats, by operationId: v1ListFonts → listFonts, createV1Project → createProject. */
export const editorOperationId = (operationId: string) =>
  operationId.replace(/^v1([A-Z])/, (_m, c: string) => c.toLowerCase()).replace(/^([a-z]+)V1(?=[A-Z])/, '$1');

// ---- standard responses and headers ----------------------------------------------------------

const INTEGER = { type: 'integer', minimum: 0 } as const;

export const REQUEST_ID_HEADER = {
  'x-request-id': {
    required: true,
    description:
      "The request id: the client's x-request-id when it is a sane token (1–128 of A-Z a-z 0-9 . _ : -), else a UUID. " +
      'Quote it when reporting a problem.',
    schema: { type: 'string' } as const,
  },
};

/** Sent by @fastify/rate-limit on every answer of a rate-limited route (absent when the limit is off). */
export const RATE_LIMIT_HEADERS = {
  'x-ratelimit-limit': { description: 'Requests allowed per minute (per client IP, or per key on /v1).', schema: INTEGER },
  'x-ratelimit-remaining': { description: 'Requests left in the current minute.', schema: INTEGER },
  'x-ratelimit-reset': { description: 'Seconds until the budget is refilled.', schema: INTEGER },
};

export const RETRY_AFTER_HEADER = {
  'retry-after': { required: true, description: 'Seconds to wait before the next attempt.', schema: INTEGER },
};

const AUTH_SENTENCE: Record<string, string> = {
  '[]': 'Public: no credential needed.',
  [JSON.stringify(BEARER)]: 'Requires `Authorization: Bearer <token>` (bearerAuth).',
  [JSON.stringify(API_KEY)]: 'Requires `x-api-key: pf_…` (apiKey).',
};

export const describeAccess = (security: ReadonlyArray<Readonly<SecurityRequirement>>) =>
  AUTH_SENTENCE[JSON.stringify(security)] ?? `Security: ${security.map((s) => Object.keys(s).join(' + ')).join(' or ')}.`;
