// The pure half of the OpenAPI document (no framework): the transforms that turn what
// @fastify/swagger collects from the TypeBox route schemas into the published document: each
// route's operation (documentRoute), then the whole document (completeDocument): what routes add
// to their own operations, status descriptions, HEAD operations, optional bodies, the shared
// error answers and headers, the documented rules, and literal unions as enums.
import { STATUS_CODES } from 'node:http';
import {
  describeAccess,
  deriveOperationId,
  RATE_LIMIT_HEADERS,
  REQUEST_ID_HEADER,
  RETRY_AFTER_HEADER,
  type SecurityRequirement,
} from './openapi-conventions.js';

export interface ResponseObject {
  description?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema?: unknown; example?: unknown; examples?: unknown } | undefined>;
  /** See IDEMPOTENCY_CONFLICT_MARK. */
  'x-idempotency-conflict'?: boolean;
}
export interface OperationObject {
  operationId?: string;
  requestBody?: unknown;
  responses?: Record<string, ResponseObject | undefined>;
}
/**
 * Headers that are always sent where they are documented: Location on a redirect, and the caching
 * validators of a 200 that has them, which a 304 of the same operation carries too (RFC 9110 §15.4.5).
 */
function requireStandardHeaders(responses: Record<string, ResponseObject | undefined>): void {
  const headerOf = (response: ResponseObject | undefined, name: string) => response?.headers?.[name] as JsonNode | undefined;
  for (const [status, response] of Object.entries(responses)) {
    const location = headerOf(response, 'location');
    if (/^30[1278]$/.test(status) && location) location.required = true;
  }
  const ok = responses['200'];
  const notModified = responses['304'];
  for (const name of ['etag', 'cache-control']) {
    const header = headerOf(ok, name);
    if (!header) continue;
    header.required = true;
    if (notModified) notModified.headers = { ...notModified.headers, [name]: { ...header } };
  }
}

/** A JSON body schema that admits null (the shared NoBody) means the body may be left out. */
function documentOptionalBody(operation: OperationObject): void {
  const body = operation.requestBody as { required?: boolean; content?: Record<string, { schema?: JsonNode }> } | undefined;
  const media = body?.content?.['application/json'];
  const members = media?.schema?.anyOf;
  if (!body || !media?.schema || !Array.isArray(members)) return;
  const rest = members.filter((member) => !(isNode(member) && member.type === 'null'));
  if (rest.length === members.length) return;
  body.required = false;
  const { anyOf: _anyOf, ...schema } = media.schema;
  media.schema = rest.length === 1 ? { ...schema, ...(rest[0] as JsonNode) } : { ...schema, anyOf: rest };
}

export type PathsObject = Record<string, Record<string, OperationObject | undefined> | undefined>;

/** A route registered as '/' under a prefix is served without the slash too: document that form. */
export const documentedPath = (url: string) => (url.length > 1 ? url.replace(/\/+$/, '') : url);

/** Replaces the generator's "Default Response" with the status text ("Bad Request", ...). */
export function describeResponses(paths: PathsObject): void {
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item ?? {})) {
      for (const [status, response] of Object.entries(operation?.responses ?? {})) {
        if (response && response.description === 'Default Response') {
          response.description = STATUS_CODES[status] ?? 'Response';
        }
      }
    }
  }
}

export type JsonNode = { [key: string]: unknown };
const isNode = (value: unknown): value is JsonNode => typeof value === 'object' && value !== null;

/**
 * TypeBox writes a union of string literals as anyOf [{ enum: [a] }, { enum: [b] }, ...]; the
 * document says the same thing as one { type: 'string', enum: [a, b, ...] }, which viewers render
 * as a list of allowed values.
 */
export function collapseLiteralUnions(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) collapseLiteralUnions(item);
    return;
  }
  if (!isNode(node)) return;
  for (const value of Object.values(node)) collapseLiteralUnions(value);
  const members = node.anyOf;
  if (!Array.isArray(members) || members.length === 0) return;
  const literals = members.every(
    (member) =>
      isNode(member) &&
      Object.keys(member).length === 2 &&
      member.type === 'string' &&
      Array.isArray(member.enum) &&
      member.enum.length === 1,
  );
  if (!literals) return;
  delete node.anyOf;
  node.type = 'string';
  node.enum = members.map((member) => (member as { enum: unknown[] }).enum[0]);
}

/**
 * A HEAD answer never has a body. @fastify/swagger hands a GET+HEAD route the same operation
 * object for both methods, so HEAD gets a copy without response content.
 */
export function documentHeadOperations(paths: PathsObject): void {
  for (const item of Object.values(paths)) {
    const head = item?.head;
    if (!item || !head) continue;
    const responses = Object.fromEntries(
      Object.entries(head.responses ?? {}).map(([status, response]) => {
        if (!response || !/^2\d\d$/.test(status)) return [status, response];
        const { content: _body, ...withoutBody } = response;
        return [status, { ...withoutBody, description: `${response.description ?? ''} Headers only, no body.`.trim() }];
      }),
    );
    const operationId = head.operationId?.replace(/^(get|list)/, 'head');
    item.head = { ...head, responses, ...(operationId ? { operationId } : {}) };
  }
}

/** What a route adds to its operation beyond its schemas (a multipart body, a binary reply, an optional body). */
export interface OperationPatch {
  requestBody?: { required?: boolean; content?: Record<string, unknown> };
  responses?: Record<string, ResponseObject>;
}

/** Merges each route's own patch into its operation: a patch's content replaces, its other fields merge. */
export function applyOperationPatches(paths: PathsObject, patches: ReadonlyMap<string, OperationPatch>): void {
  for (const [key, patch] of patches) {
    const [method = '', path = ''] = key.split(' ', 2);
    const operation = paths[path]?.[method];
    if (!operation) continue;
    if (patch.requestBody) {
      const current = (operation.requestBody ?? {}) as Record<string, unknown>;
      operation.requestBody = { ...current, ...patch.requestBody };
    }
    for (const [status, response] of Object.entries(patch.responses ?? {})) {
      const responses = (operation.responses ??= {});
      const current = responses[status] ?? {};
      responses[status] = { ...current, ...response, headers: { ...current.headers, ...response.headers } };
    }
  }
}

const BODY_METHODS = new Set(['post', 'put', 'patch', 'delete', 'options']);

/** The standard headers, declared once under components/headers. */
export const HEADER_COMPONENTS = { ...REQUEST_ID_HEADER, ...RATE_LIMIT_HEADERS, ...RETRY_AFTER_HEADER };
export const headerComponentName = (name: string) => name.split('-').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
const headerRefs = (headers: Record<string, unknown>) =>
  Object.fromEntries(Object.keys(headers).map((name) => [name, { $ref: `#/components/headers/${headerComponentName(name)}` }]));

/** An error answer as the examples table gives it (src/schemas/error-examples.ts). */
export interface ErrorAnswer {
  statusCode: number;
  error: string;
  message: string;
}

/** One answer every route gives alike: one entry under components/responses, its examples under components/examples. */
export interface SharedErrorResponse {
  status: string;
  name: string;
  description: string;
  examples: Readonly<Record<string, ErrorAnswer>>;
}

export interface ErrorExamples {
  /** operationId → status → the exact answer that route gives. */
  byOperation: Readonly<Record<string, Readonly<Record<string, ErrorAnswer>>>>;
  /** The shared answers; a 401 is chosen by the operation's security. */
  shared: Readonly<Record<string, SharedErrorResponse>>;
  exampleName: (response: SharedErrorResponse, example: string) => string;
}

const API_ERROR_REF = { $ref: '#/components/schemas/ApiError' };
/** Set on a route's 409 by the Idempotency-Key plugin: the shared IdempotencyConflict answer. */
export const IDEMPOTENCY_CONFLICT_MARK = 'x-idempotency-conflict';
const errorStatus = (status: string) => /^[45]\d\d$|^default$/.test(status);

/** The shared response an operation's status refers to: a 401 by the operation's credential. */
function sharedFor(examples: ErrorExamples, status: string, security: unknown): SharedErrorResponse | undefined {
  const all = Object.values(examples.shared);
  // A 409 is the route's own answer; the shared Idempotency-Key conflict only where the route is marked for it.
  if (status === '409') return undefined;
  if (status !== '401') return all.find((shared) => shared.status === status);
  const scheme = JSON.stringify(security ?? []);
  const wanted = scheme.includes('"apiKey"') ? 'ApiKeyUnauthorized' : scheme.includes('"bearerAuth"') ? 'Unauthorized' : undefined;
  return all.find((shared) => shared.status === '401' && shared.name === wanted);
}

/** The headers of a response (the standard ones as references), in the order the document lists them. */
function standardHeaders(status: string, limited: boolean, own: Record<string, unknown> | undefined) {
  return {
    ...headerRefs(REQUEST_ID_HEADER),
    ...(limited ? headerRefs(RATE_LIMIT_HEADERS) : {}),
    ...(status === '429' || status === '503' ? headerRefs(RETRY_AFTER_HEADER) : {}),
    ...own,
  };
}

/**
 * components/responses and components/examples for the shared answers. Their headers: x-request-id,
 * the rate-limit headers (sent on an operation that documents a 429), Retry-After on a 429 or 503.
 */
export function sharedErrorComponents(examples: ErrorExamples) {
  const responses: Record<string, ResponseObject> = {};
  const components: Record<string, { summary: string; value: ErrorAnswer }> = {};
  for (const shared of Object.values(examples.shared)) {
    const refs: Record<string, { $ref: string }> = {};
    for (const [name, value] of Object.entries(shared.examples)) {
      const component = examples.exampleName(shared, name);
      components[component] = { summary: value.message, value };
      refs[name] = { $ref: `#/components/examples/${component}` };
    }
    responses[shared.name] = {
      description: shared.description,
      headers: standardHeaders(shared.status, true, undefined),
      content: { 'application/json': { schema: API_ERROR_REF, examples: refs } },
    };
  }
  return { responses, examples: components };
}

/**
 * An operation's error answer: the route's own example (src/schemas/error-examples.ts; a route 400
 * beside the shared schema 400), else a reference to the shared response. A status with neither
 * is refused, so the table cannot silently miss one.
 */
function errorResponse(
  examples: ErrorExamples,
  operation: OperationObject,
  status: string,
  response: ResponseObject,
  limited: boolean,
  where: string,
): ResponseObject | { $ref: string; description?: string } {
  const own = operation.operationId ? examples.byOperation[operation.operationId]?.[status] : undefined;
  const shared =
    response[IDEMPOTENCY_CONFLICT_MARK] === true
      ? Object.values(examples.shared).find((candidate) => candidate.name === 'IdempotencyConflict')
      : sharedFor(examples, status, (operation as { security?: unknown }).security);
  if (!own) {
    if (!shared) {
      const id = `${operation.operationId} ${status}`;
      throw new Error(`OpenAPI: ${where} documents ${status}, but src/schemas/error-examples.ts has no answer for ${id}.`);
    }
    return { $ref: `#/components/responses/${shared.name}` };
  }
  if (own.statusCode !== (Number(status) || 500)) {
    throw new Error(`OpenAPI: the ${status} example of ${where} has status ${own.statusCode}.`);
  }
  const json =
    status === '400' && shared
      ? {
          schema: API_ERROR_REF,
          examples: {
            ...Object.fromEntries(
              Object.keys(shared.examples).map((name) => [name, { $ref: `#/components/examples/${examples.exampleName(shared, name)}` }]),
            ),
            route: { summary: own.message, value: own },
          },
        }
      : { schema: API_ERROR_REF, example: own };
  return {
    description: response.description ?? STATUS_CODES[status] ?? 'Error',
    headers: standardHeaders(status, limited, response.headers),
    content: { 'application/json': json },
  };
}

/**
 * The conventions every operation follows (openapi-conventions.ts): a `default` ApiError answer
 * for unexpected failures, x-request-id on every answer, the rate-limit headers wherever a 429 is
 * documented, and the error answers: each route's own, or the shared one. Also checks that
 * operationIds are unique.
 */
export function applyConventions(paths: PathsObject, examples: ErrorExamples): void {
  const operationIds = new Map<string, string>();
  for (const [path, item] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(item ?? {})) {
      if (!operation) continue;
      const where = `${method.toUpperCase()} ${path}`;
      if (operation.operationId) {
        const other = operationIds.get(operation.operationId);
        if (other) throw new Error(`OpenAPI: operationId ${operation.operationId} of ${where} is also ${other}'s.`);
        operationIds.set(operation.operationId, where);
      }
      documentOptionalBody(operation);
      const responses = (operation.responses ??= {});
      // Fastify parses a body on these methods whatever the route: an unsupported media type is a
      // 415 and more than the body limit a 413, even on a route that takes no body.
      if (BODY_METHODS.has(method)) for (const status of ['413', '415']) responses[status] ??= { description: STATUS_CODES[status] };
      requireStandardHeaders(responses);
      responses.default ??= {};
      const limited = '429' in responses;
      for (const [status, response] of Object.entries(responses)) {
        if (!response) continue;
        if (errorStatus(status)) {
          responses[status] = errorResponse(examples, operation, status, response, limited, where) as ResponseObject;
          continue;
        }
        response.headers = standardHeaders(status, limited, response.headers);
      }
    }
  }
}

/**
 * A request schema may carry `x-document`: the rule the service enforces (after trimming, in
 * bytes, with its own message) where the validator only caps the input. The document states the
 * rule, so a client that follows the document is never refused.
 */
export function applyDocumentedRules(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) applyDocumentedRules(item);
    return;
  }
  if (!isNode(node)) return;
  const rule = node['x-document'];
  if (isNode(rule)) {
    delete node['x-document'];
    // A $ref stands for the whole schema: only the description stays beside it.
    if ('$ref' in rule) for (const key of Object.keys(node)) if (key !== 'description') delete node[key];
    Object.assign(node, rule);
  }
  for (const value of Object.values(node)) applyDocumentedRules(value);
}


/** What documentRoute reads of a route schema as @fastify/swagger hands it over. */
export interface RouteSchema {
  hide?: boolean;
  summary?: unknown;
  description?: unknown;
  operationId?: string;
  security?: ReadonlyArray<Readonly<SecurityRequirement>>;
  'x-openapi'?: OperationPatch;
}

export interface RouteInput<S extends RouteSchema> {
  url: string;
  /** The route's methods; HEAD is documented from GET's operation (documentHeadOperations). */
  methods: readonly string[];
  /** As @fastify/swagger types it; a route without one (none is) would pass through unchanged. */
  schema: S;
  /** The security of the guards the route sits behind ([] when public); asked only for documented routes. */
  guardedBy: () => SecurityRequirement[];
}

export interface DocumentedRoute<S extends RouteSchema> {
  url: string;
  schema: Omit<S, 'x-openapi'>;
  /** What the route adds to its operations (its x-openapi), by "method path", for completeDocument. */
  patches: Array<[string, OperationPatch]>;
}

/**
 * One route's operation: its path without a trailing slash, an operationId from method and path
 * unless it names one, the security of its guard (a route may restate it, never claim another),
 * and a description that ends with who may call it. A hidden route keeps its schema.
 */
export function documentRoute<S extends RouteSchema>({ url, methods, schema, guardedBy }: RouteInput<S>): DocumentedRoute<S> {
  const path = documentedPath(url);
  if (!schema || schema.hide) return { url: path, schema, patches: [] };
  const documentedMethods = methods.filter((method) => method !== 'HEAD');
  const { 'x-openapi': patch, ...documented } = schema;
  const openapiPath = path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
  const patches = documentedMethods.flatMap((method): Array<[string, OperationPatch]> =>
    patch ? [[`${method.toLowerCase()} ${openapiPath}`, patch]] : [],
  );
  const guarded = guardedBy();
  const security = schema.security ?? guarded;
  if (guarded.length > 0 && JSON.stringify(security) !== JSON.stringify(guarded)) {
    throw new Error(`OpenAPI: ${path} declares a security its guard does not enforce.`);
  }
  const summary = typeof schema.summary === 'string' ? schema.summary : '';
  const description = typeof schema.description === 'string' ? schema.description : `${summary}.`;
  return {
    url: path,
    schema: {
      ...documented,
      operationId: schema.operationId ?? deriveOperationId(documentedMethods[0] ?? 'GET', path),
      security,
      description: `${description}\n\n${describeAccess(security)}`,
    },
    patches,
  };
}

/** The document @fastify/swagger generated, completed: every pass above, in order, and the webhooks' payloads. */
export function completeDocument<T extends { paths?: unknown; components?: object }>(
  generated: T,
  patches: ReadonlyMap<string, OperationPatch>,
  webhooks: Record<string, unknown>,
  errorExamples: ErrorExamples,
): T & { webhooks: Record<string, unknown> } {
  const paths = (generated.paths ?? {}) as PathsObject;
  applyOperationPatches(paths, patches);
  describeResponses(paths);
  documentHeadOperations(paths);
  applyConventions(paths, errorExamples);
  const shared = sharedErrorComponents(errorExamples);
  const components = { ...generated.components, responses: shared.responses, examples: shared.examples };
  const document = { ...generated, components, webhooks };
  applyDocumentedRules(document);
  collapseLiteralUnions(document);
  return document;
}
