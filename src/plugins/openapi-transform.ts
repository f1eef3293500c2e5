// The pure half of the OpenAPI document (no framework): the transforms that turn what
// @fastify/swagger collects from the TypeBox route schemas into the published document: each
// route's operation (documentRoute), then the whole document (completeDocument): what routes add
// to their own operations, status descriptions, HEAD operations, optional bodies, the shared
// error answers and headers, the documented rules, and literal unions as enums.
import { STATUS_CODES } from 'node:http';
import type { ApiError } from '../errors.js';
import {
  capital,
  describeAccess,
  deriveOperationId,
  editorOperationId,
  RATE_LIMIT_HEADERS,
  REQUEST_ID_HEADER,
  RETRY_AFTER_HEADER,
  type SecurityRequirement,
} from './openapi-conventions.js';

/** Set on a route's 409 by the Idempotency-Key plugin: the shared IdempotencyConflict answer. */
export const IDEMPOTENCY_CONFLICT_MARK = 'x-idempotency-conflict';

type JsonNode = { [key: string]: unknown };
const isNode = (value: unknown): value is JsonNode => typeof value === 'object' && value !== null;

export interface ResponseObject {
  description?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema?: unknown; example?: unknown; examples?: unknown }>;
  [IDEMPOTENCY_CONFLICT_MARK]?: boolean;
}
export interface OperationObject {
  operationId?: string;
  security?: unknown;
  requestBody?: unknown;
  responses: Record<string, ResponseObject>;
}
export type PathsObject = Record<string, Record<string, OperationObject>>;

/** What a route adds to its operation beyond its schemas (a multipart body, a binary reply, an optional body). */
export interface OperationPatch {
  requestBody?: { required?: boolean; content?: Record<string, unknown> };
  responses?: Record<string, ResponseObject>;
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
 * One route's operation: its path without a trailing slash (a route registered as '/' under a
 * prefix is served without the slash too), an operationId from method and path unless it names
 * one, the security of its guard (a route may restate it, never claim another), and a description
 * that ends with who may call it. A hidden route keeps its schema.
 */
export function documentRoute<S extends RouteSchema>({ url, methods, schema, guardedBy }: RouteInput<S>): DocumentedRoute<S> {
  const path = url.length > 1 ? url.replace(/\/+$/, '') : url;
  if (schema.hide) return { url: path, schema, patches: [] };
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

/** Every operation of the document, with its path and method. */
function* operationsOf(paths: PathsObject): Generator<[string, string, OperationObject]> {
  for (const [path, item] of Object.entries(paths)) for (const [method, operation] of Object.entries(item)) yield [path, method, operation];
}

/**
 * Each operation as its route describes it: the route's patch merged in (its content replaces, its
 * other fields merge), and the status text ("Bad Request", ...) for the generator's "Default Response".
 */
export function describeOperations(paths: PathsObject, patches: ReadonlyMap<string, OperationPatch>): void {
  for (const [path, method, operation] of operationsOf(paths)) {
    const patch = patches.get(`${method} ${path}`) ?? {};
    if (patch.requestBody) operation.requestBody = { ...(operation.requestBody as object | undefined), ...patch.requestBody };
    for (const [status, response] of Object.entries(patch.responses ?? {})) {
      const current = operation.responses[status] ?? {};
      operation.responses[status] = { ...current, ...response, headers: { ...current.headers, ...response.headers } };
    }
    for (const [status, response] of Object.entries(operation.responses)) {
      if (response.description === 'Default Response') response.description = STATUS_CODES[status] ?? 'Response';
    }
  }
}

/**
 * A HEAD answer never has a body. @fastify/swagger hands a GET+HEAD route the same operation
 * object for both methods, so HEAD gets a copy without response content.
 */
export function documentHeadOperations(paths: PathsObject): void {
  for (const item of Object.values(paths)) {
    const head = item.head;
    if (!head) continue;
    const responses = Object.fromEntries(
      Object.entries(head.responses).map(([status, response]) => {
        if (!/^2\d\d$/.test(status)) return [status, response];
        const { content: _body, ...withoutBody } = response;
        return [status, { ...withoutBody, description: `${response.description} Headers only, no body.` }];
      }),
    );
    item.head = { ...head, responses, operationId: head.operationId?.replace(/^(get|list)/, 'head') };
  }
}

/** One answer every route gives alike: one entry under components/responses, its examples under components/examples. */
export interface SharedErrorResponse {
  status: string;
  description: string;
  /** Named examples, each under components/examples as exampleName gives it. */
  examples: Readonly<Record<string, ApiError>>;
}

export interface ErrorExamples {
  /** operationId → status → the exact answer that route gives. */
  byOperation: Readonly<Record<string, Readonly<Record<string, ApiError>>>>;
  /** The shared answers by their components/responses name; a 401 is chosen by the operation's security. */
  shared: Readonly<Record<string, SharedErrorResponse>>;
  /** The components/examples name of a shared answer's example. */
  exampleName: (response: string, example: string) => string;
}

const API_ERROR_REF = { $ref: '#/components/schemas/ApiError' };

/** The standard headers, declared once under components/headers. */
export const HEADER_COMPONENTS = { ...REQUEST_ID_HEADER, ...RATE_LIMIT_HEADERS, ...RETRY_AFTER_HEADER };
export const headerComponentName = (name: string) => name.split('-').map(capital).join('');

/**
 * A response's headers in the order the document lists them: x-request-id, the rate-limit headers
 * where a 429 is documented, Retry-After on a 429 or 503 (these as references), then its own.
 */
function withStandardHeaders(status: string, limited: boolean, own?: Record<string, unknown>) {
  const retry = status === '429' || status === '503';
  const standard = { ...REQUEST_ID_HEADER, ...(limited ? RATE_LIMIT_HEADERS : {}), ...(retry ? RETRY_AFTER_HEADER : {}) };
  const refs = Object.keys(standard).map((name) => [name, { $ref: `#/components/headers/${headerComponentName(name)}` }]);
  return { ...Object.fromEntries(refs), ...own };
}

/** References to a shared answer's examples under components/examples, by example name. */
const exampleRefs = ({ shared, exampleName }: ErrorExamples, response: string) =>
  Object.fromEntries(
    Object.keys(shared[response].examples).map((name) => [name, { $ref: `#/components/examples/${exampleName(response, name)}` }]),
  );

/** components/responses and components/examples for the shared answers. */
export function sharedErrorComponents(examples: ErrorExamples) {
  const responses: Record<string, ResponseObject> = {};
  const components: Record<string, { summary: string; value: ApiError }> = {};
  for (const [response, shared] of Object.entries(examples.shared)) {
    for (const [name, value] of Object.entries(shared.examples)) {
      components[examples.exampleName(response, name)] = { summary: value.message, value };
    }
    responses[response] = {
      description: shared.description,
      headers: withStandardHeaders(shared.status, true),
      content: { 'application/json': { schema: API_ERROR_REF, examples: exampleRefs(examples, response) } },
    };
  }
  return { responses, examples: components };
}

/**
 * The name of the shared answer an operation's status refers to: the Idempotency-Key conflict where the
 * route marked its 409 (any other 409 is the route's own), a 401 by the operation's credential, else by status.
 */
function sharedAnswer({ shared }: ErrorExamples, operation: OperationObject, status: string) {
  const known = (name: string) => (name in shared ? name : undefined);
  if (operation.responses[status][IDEMPOTENCY_CONFLICT_MARK]) return known('IdempotencyConflict');
  if (status === '409') return undefined;
  if (status !== '401') return Object.keys(shared).find((name) => shared[name].status === status);
  const scheme = JSON.stringify(operation.security ?? []);
  if (scheme.includes('"apiKey"')) return known('ApiKeyUnauthorized');
  return scheme.includes('"bearerAuth"') ? known('Unauthorized') : undefined;
}

/**
 * An operation's error answer: the route's own example (src/schemas/error-examples.ts; a route 400
 * beside the shared schema 400), else a reference to the shared response. A status with neither
 * is refused, so the table cannot silently miss one.
 */
function errorResponse(examples: ErrorExamples, operation: OperationObject, status: string, limited: boolean, where: string) {
  const { operationId = '', responses } = operation;
  const response = responses[status];
  const own = (examples.byOperation[operationId] ?? examples.byOperation[editorOperationId(operationId)])?.[status];
  const shared = sharedAnswer(examples, operation, status);
  if (!own) {
    if (shared) return { $ref: `#/components/responses/${shared}` };
    const id = `${operation.operationId} ${status}`;
    throw new Error(`OpenAPI: ${where} documents ${status}, but src/schemas/error-examples.ts has no answer for ${id}.`);
  }
  if (own.statusCode !== (Number(status) || 500)) {
    throw new Error(`OpenAPI: the ${status} example of ${where} has status ${own.statusCode}.`);
  }
  const json =
    status === '400' && shared
      ? { schema: API_ERROR_REF, examples: { ...exampleRefs(examples, shared), route: { summary: own.message, value: own } } }
      : { schema: API_ERROR_REF, example: own };
  return {
    description: response.description,
    headers: withStandardHeaders(status, limited, response.headers),
    content: { 'application/json': json },
  };
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

/**
 * Headers that are always sent where they are documented: Location on a redirect, and the caching
 * headers of a 200 that has them, which a 304 of the same operation carries too (RFC 9110 §15.4.5).
 */
function requireStandardHeaders(responses: Record<string, ResponseObject>): void {
  for (const [status, response] of Object.entries(responses)) {
    const location = response.headers?.location as JsonNode | undefined;
    if (/^30[1278]$/.test(status) && location) location.required = true;
  }
  const notModified = responses['304'];
  for (const name of ['etag', 'cache-control', 'vary']) {
    const header = responses['200']?.headers?.[name] as JsonNode | undefined;
    if (!header) continue;
    header.required = true;
    if (notModified) notModified.headers = { ...notModified.headers, [name]: { ...header } };
  }
}

const BODY_METHODS = new Set(['post', 'put', 'patch', 'delete', 'options']);

/**
 * The conventions every operation follows (openapi-conventions.ts): a `default` ApiError answer
 * for unexpected failures, x-request-id on every answer, the rate-limit headers wherever a 429 is
 * documented, and the error answers: each route's own, or the shared one. Also checks that
 * operationIds are unique.
 */
export function applyConventions(paths: PathsObject, examples: ErrorExamples): void {
  const operationIds = new Map<string, string>();
  for (const [path, method, operation] of operationsOf(paths)) {
    const where = `${method.toUpperCase()} ${path}`;
    if (operation.operationId) {
      const other = operationIds.get(operation.operationId);
      if (other) throw new Error(`OpenAPI: operationId ${operation.operationId} of ${where} is also ${other}'s.`);
      operationIds.set(operation.operationId, where);
    }
    documentOptionalBody(operation);
    const { responses } = operation;
    // Fastify parses a body on these methods whatever the route: an unsupported media type is a
    // 415 and more than the body limit a 413, even on a route that takes no body.
    if (BODY_METHODS.has(method)) for (const status of ['413', '415']) responses[status] ??= { description: STATUS_CODES[status] };
    requireStandardHeaders(responses);
    responses.default ??= {};
    const limited = '429' in responses;
    for (const [status, response] of Object.entries(responses)) {
      if (/^[45]\d\d$|^default$/.test(status)) responses[status] = errorResponse(examples, operation, status, limited, where);
      else response.headers = withStandardHeaders(status, limited, response.headers);
    }
  }
}

/**
 * The schemas' final form, in one walk over the document (each object after its children):
 * - A request schema may carry `x-document`: the rule the service enforces (after trimming, in
 *   bytes, with its own message) where the validator only caps the input. The document states the
 *   rule, so a client that follows the document is never refused.
 * - TypeBox writes a union of string literals as anyOf [{ enum: [a] }, { enum: [b] }, ...]; the
 *   document says the same thing as one { type: 'string', enum: [a, b, ...] }, which viewers render
 *   as a list of allowed values.
 */
export function finishSchemas(node: unknown): void {
  if (!isNode(node)) return;
  for (const value of Object.values(node)) finishSchemas(value);
  if (Array.isArray(node)) return;
  applyDocumentedRule(node);
  collapseLiteralUnion(node);
}

function applyDocumentedRule(node: JsonNode): void {
  const rule = node['x-document'];
  if (!isNode(rule)) return;
  delete node['x-document'];
  // A $ref stands for the whole schema: only the description stays beside it.
  if ('$ref' in rule) for (const key of Object.keys(node)) if (key !== 'description') delete node[key];
  Object.assign(node, rule);
}

const isStringLiteral = (member: unknown) =>
  isNode(member) && Object.keys(member).length === 2 && member.type === 'string' && Array.isArray(member.enum) && member.enum.length === 1;

function collapseLiteralUnion(node: JsonNode): void {
  const members = node.anyOf;
  if (!Array.isArray(members) || members.length === 0 || !members.every(isStringLiteral)) return;
  delete node.anyOf;
  node.type = 'string';
  node.enum = members.map((member) => (member as { enum: unknown[] }).enum[0]);
}

/** The document @fastify/swagger generated, completed: every pass above, in order, and the webhooks' payloads. */
export function completeDocument<T extends { paths?: unknown; components?: object }>(
  generated: T,
  patches: ReadonlyMap<string, OperationPatch>,
  webhooks: Record<string, unknown>,
  errorExamples: ErrorExamples,
): T & { webhooks: Record<string, unknown> } {
  const paths = generated.paths as PathsObject;
  describeOperations(paths, patches);
  documentHeadOperations(paths);
  applyConventions(paths, errorExamples);
  const shared = sharedErrorComponents(errorExamples);
  const components = { ...generated.components, responses: shared.responses, examples: shared.examples };
  const document = { ...generated, components, webhooks };
  finishSchemas(document);
  return document;
}
