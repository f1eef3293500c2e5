// The OpenAPI 3.1 document, generated from the very TypeBox schemas that validate requests and
// serialize replies (GET /openapi.json), and Swagger UI over it (GET /docs). Registered before the
// routes: @fastify/swagger collects routes with an onRoute hook.
import { readFileSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { EmptyQuery, errorResponses } from '../schemas/common.js';
import {
  describeAccess,
  deriveOperationId,
  errorExample,
  RATE_LIMIT_HEADERS,
  REQUEST_ID_HEADER,
  RETRY_AFTER_HEADER,
  routeContexts,
  type SecurityRequirement,
} from './openapi-conventions.js';

export const OPENAPI_PATH = '/openapi.json';
export const DOCS_PREFIX = '/docs';

export const TAGS = [
  { name: 'docs', description: 'Where a person lands: GET / leads to the API documentation.' },
  { name: 'health', description: 'Liveness and readiness probes for orchestrators and load balancers.' },
  {
    name: 'auth',
    description: 'Accounts: register, log in, read the account behind a JWT, change the password, sign out everywhere, delete it.',
  },
  {
    name: 'templates',
    description: 'The catalog of parametric packaging templates: public at /templates, key-gated at /v1/templates.',
  },
  { name: 'projects', description: "Editor documents owned by the caller's account (free plan: up to 3)." },
  { name: 'assets', description: "Image uploads owned by the caller's account (25 MB, image/* only)." },
  { name: 'fonts', description: "The caller's fonts (TrueType, OpenType, WOFF2; 20 MB), which outline SVG text; the bytes are never served." },
  { name: 'files', description: 'Stored uploads, served publicly under their unguessable name.' },
  { name: 'api-keys', description: 'Developer keys that unlock the public /v1 surface.' },
  { name: 'admin', description: "Account management for administrators (a JWT whose account's role is admin)." },
  { name: 'viewer', description: 'The 3D viewer page (three.js bundled at build time) for the model routes.' },
  { name: 'exports', description: 'Print files, previews, models and dielines rendered as jobs: request, poll, download (24 h).' },
  { name: 'webhooks', description: 'Signed (Standard Webhooks) notifications when an export succeeds or fails.' },
  { name: 'shares', description: "Read-only links to a project's 3D model for people without an account." },
];

const DESCRIPTION = `JSON HTTP API behind a packaging-design editor.

* **Base address.** Behind the reverse proxy every path below is reached under the \`/api\` prefix
  (see \`servers\`); a directly run server has no prefix.
* **Account surface** (\`bearerAuth\`): \`Authorization: Bearer <token>\`, the token coming from
  \`POST /auth/register\` or \`POST /auth/login\` (valid 7 days).
* **Admin surface** (\`bearerAuth\`, role \`admin\`): \`/admin/*\`; any other account gets 403.
* **Public v1 surface** (\`apiKey\`): \`x-api-key: pf_…\`, a key issued by \`POST /api-keys\`.
* **Errors**: every failure is an \`ApiError\` \`{ statusCode, error, message }\`. Request bodies and
  query strings reject unknown fields (400); JSON bodies are limited to 1 MiB (413).`;

const SECURITY_SCHEMES = {
  bearerAuth: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'The token returned by POST /auth/register or POST /auth/login.',
  },
  metricsToken: {
    type: 'http',
    scheme: 'bearer',
    description: 'The METRICS_TOKEN the service was started with (GET /metrics only).',
  },
  apiKey: {
    type: 'apiKey',
    in: 'header',
    name: 'x-api-key',
    description: 'A developer key (pf_ followed by 48 hexadecimal characters) issued by POST /api-keys.',
  },
} as const;

// Swagger UI's own default CSP minus upgrade-insecure-requests, which would break the page on a
// plain-HTTP deployment by rewriting its asset and "Try it out" requests to https.
const DOCS_CSP =
  "default-src 'self'; base-uri 'self'; font-src 'self' https: data:; frame-ancestors 'self'; " +
  "img-src 'self' data:; object-src 'none'; script-src 'self'; script-src-attr 'none'; " +
  "style-src 'self' https:; connect-src 'self'";

const BINARY = { type: 'string', format: 'binary' } as const;

interface ResponseObject {
  description?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema?: unknown; example?: unknown } | undefined>;
}
interface OperationObject {
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

/** A JSON body schema that admits null (POST /api-keys) means the body may be left out. */
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

type PathsObject = Record<string, Record<string, OperationObject | undefined> | undefined>;

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

type JsonNode = { [key: string]: unknown };
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

/**
 * The two operations whose payload is not JSON: the multipart upload (no body schema: the route
 * reads the parts itself) and the raw file download (its string reply schema would otherwise be
 * documented as application/json). Left alone when a route already documents them.
 */
export function documentBinaryPayloads(paths: PathsObject): void {
  for (const upload of [paths['/assets']?.post, paths['/v1/assets']?.post]) {
    if (!upload || upload.requestBody !== undefined) continue;
    upload.requestBody = {
      required: true,
      content: {
        'multipart/form-data': {
          schema: {
            type: 'object',
            required: ['file'],
            additionalProperties: false,
            properties: {
              file: { ...BINARY, description: 'The image, at most 25 MB (26,214,400 bytes), of an image/* type.' },
            },
          },
          encoding: { file: { contentType: 'image/*' } },
        },
      },
    };
  }
  const download = paths['/files/{name}']?.get;
  if (download) {
    const responses = (download.responses ??= {});
    const ok = responses['200'];
    if (!ok?.content || 'application/json' in ok.content) {
      responses['200'] = {
        description: 'The stored bytes, with the stored Content-Type, an ETag and immutable caching.',
        content: { 'image/*': { schema: BINARY } },
      };
    }
    for (const status of ['200', '304']) {
      const response = responses[status];
      if (response) response.headers = { ...FILE_HEADERS, ...response.headers };
    }
  }
}

/** Operations whose body may be left out (every field optional; no body means {}). */
const OPTIONAL_BODIES: ReadonlyArray<readonly [path: string, method: string]> = [['/projects/{id}/duplicate', 'post']];

/** @fastify/swagger marks every request body required; these are not. */
export function documentOptionalBodies(paths: PathsObject): void {
  for (const [path, method] of OPTIONAL_BODIES) {
    const body = paths[path]?.[method]?.requestBody;
    if (typeof body === 'object' && body !== null) (body as { required?: boolean }).required = false;
  }
}

const FILE_HEADERS = {
  etag: { required: true, description: 'Strong validator "<name>-<size>"; send it in If-None-Match for a 304.', schema: { type: 'string' } },
  'cache-control': { required: true, description: 'public, max-age=31536000, immutable: a stored file never changes.', schema: { type: 'string' } },
  'content-security-policy': {
    required: true,
    description: "default-src 'none'; style-src 'unsafe-inline'; sandbox — nothing in a served file can run.",
    schema: { type: 'string' },
  },
  'x-content-type-options': { required: true, description: 'nosniff', schema: { type: 'string' } },
};

const BODY_METHODS = new Set(['post', 'put', 'patch', 'delete', 'options']);

/** The standard headers, declared once under components/headers. */
export const HEADER_COMPONENTS = { ...REQUEST_ID_HEADER, ...RATE_LIMIT_HEADERS, ...RETRY_AFTER_HEADER };
const headerComponentName = (name: string) => name.split('-').map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
const headerRefs = (headers: Record<string, unknown>) =>
  Object.fromEntries(Object.keys(headers).map((name) => [name, { $ref: `#/components/headers/${headerComponentName(name)}` }]));

const errorContent = (status: string) => ({
  'application/json': { schema: { $ref: '#/components/schemas/ApiError' }, example: errorExample(status) },
});

/**
 * The conventions every operation follows (openapi-conventions.ts): a `default` ApiError answer
 * for unexpected failures, x-request-id on every answer, the rate-limit headers wherever a 429 is
 * documented, and an example on every error. Also checks that operationIds are unique.
 */
export function applyConventions(paths: PathsObject): void {
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
      responses.default ??= { description: 'Unexpected failure (500), or 503 while the server shuts down.' };
      const limited = '429' in responses;
      for (const [status, response] of Object.entries(responses)) {
        if (!response) continue;
        if (/^[45]\d\d$|^default$/.test(status)) {
          const json = response.content?.['application/json'];
          if (!json) response.content = errorContent(status);
          else json.example ??= errorExample(status);
        }
        response.headers = {
          ...headerRefs(REQUEST_ID_HEADER),
          ...(limited ? headerRefs(RATE_LIMIT_HEADERS) : {}),
          ...(status === '429' ? headerRefs(RETRY_AFTER_HEADER) : {}),
          ...response.headers,
        };
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

function packageVersion(): string {
  const file = new URL('../../package.json', import.meta.url);
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

/** The path part of PUBLIC_BASE_URL (e.g. "/api"): the prefix the proxy strips, "" when none. */
function externalPrefix(publicBaseUrl: string | null): string {
  return publicBaseUrl ? new URL(publicBaseUrl).pathname.replace(/\/+$/, '') : '';
}

async function openapiPlugin(app: FastifyInstance) {
  const { publicBaseUrl } = app.config;
  const contexts = routeContexts();
  // Before @fastify/swagger's own onRoute hook sees any route.
  app.addHook('onRoute', function rememberContext(route) {
    contexts.remember(this, route);
  });

  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Packaging Template and Project Service', version: packageVersion(), description: DESCRIPTION },
      servers: [
        publicBaseUrl
          ? { url: publicBaseUrl, description: 'Public base address (PUBLIC_BASE_URL).' }
          : { url: '/', description: 'The server that serves this document.' },
      ],
      tags: TAGS,
      components: {
        securitySchemes: SECURITY_SCHEMES,
        headers: Object.fromEntries(Object.entries(HEADER_COMPONENTS).map(([name, header]) => [headerComponentName(name), header])),
      },
    },
    // Routes are registered without the proxy's prefix; never strip anything from them.
    stripBasePath: false,
    // Shared schemas appear under components/schemas with their $id as name.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (json.$id as string | undefined) ?? `def-${i}` },
    transform: ({ schema, url, route }) => {
      const path = documentedPath(url);
      if (!schema || schema.hide) return { schema, url: path };
      const methods = [route.method].flat().filter((method) => method !== 'HEAD');
      const guarded = contexts.securityOf(route);
      const security = (schema.security as SecurityRequirement[] | undefined) ?? guarded;
      if (guarded.length > 0 && JSON.stringify(security) !== JSON.stringify(guarded)) {
        throw new Error(`OpenAPI: ${path} declares a security its guard does not enforce.`);
      }
      const summary = typeof schema.summary === 'string' ? schema.summary : '';
      const description = typeof schema.description === 'string' ? schema.description : `${summary}.`;
      return {
        url: path,
        schema: {
          ...schema,
          operationId: schema.operationId ?? deriveOperationId(methods[0] ?? 'GET', path),
          security,
          description: `${description}\n\n${describeAccess(security)}`,
        },
      };
    },
    transformObject: (documentObject) => {
      if (!('openapiObject' in documentObject)) return documentObject.swaggerObject;
      const { openapiObject } = documentObject;
      const paths = (openapiObject.paths ?? {}) as PathsObject;
      documentBinaryPayloads(paths);
      documentOptionalBodies(paths);
      describeResponses(paths);
      documentHeadOperations(paths);
      applyConventions(paths);
      applyDocumentedRules(openapiObject);
      collapseLiteralUnions(openapiObject);
      return openapiObject;
    },
  });

  await app.register(fastifySwaggerUi, {
    routePrefix: DOCS_PREFIX,
    // /docs (no trailing slash) links its assets absolutely; behind the proxy they need its prefix.
    indexPrefix: externalPrefix(publicBaseUrl),
    staticCSP: DOCS_CSP,
  });

  // A person who opens the server's address lands on the documentation; the API stays JSON.
  const docsLocation = `${externalPrefix(publicBaseUrl)}${DOCS_PREFIX}`;
  app.get(
    '/',
    {
      schema: {
        tags: ['docs'],
        operationId: 'openDocs',
        summary: 'Redirect to the API documentation (Swagger UI at /docs)',
        querystring: EmptyQuery,
        response: {
          302: {
            type: 'null',
            description: 'Found: the documentation is at Location. No body.',
            headers: { location: { type: 'string', description: `${docsLocation} (under the proxy prefix, if any).` } },
          },
          ...errorResponses(400),
        },
      },
    },
    async (_request, reply) => reply.redirect(docsLocation, 302),
  );

  app.get(
    OPENAPI_PATH,
    { schema: { hide: true, querystring: EmptyQuery } },
    async () => app.swagger(),
  );
}

export default fp(openapiPlugin, { name: 'openapi' });
