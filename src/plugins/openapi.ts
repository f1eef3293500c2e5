// The OpenAPI 3.1 document, generated from the very TypeBox schemas that validate requests and
// serialize replies (GET /openapi.json), and Swagger UI over it (GET /docs). Registered before the
// routes: @fastify/swagger collects routes with an onRoute hook.
import { readFileSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { EmptyQuery } from '../schemas/common.js';

export const OPENAPI_PATH = '/openapi.json';
export const DOCS_PREFIX = '/docs';

export const TAGS = [
  { name: 'health', description: 'Liveness and readiness probes for orchestrators and load balancers.' },
  { name: 'auth', description: 'Accounts: register, log in, and read the account behind a JWT.' },
  {
    name: 'templates',
    description: 'The catalog of parametric packaging templates: public at /templates, key-gated at /v1/templates.',
  },
  { name: 'projects', description: "Editor documents owned by the caller's account (free plan: up to 3)." },
  { name: 'assets', description: "Image uploads owned by the caller's account (25 MB, image/* only)." },
  { name: 'files', description: 'Stored uploads, served publicly under their unguessable name.' },
  { name: 'api-keys', description: 'Developer keys that unlock the public /v1 surface.' },
];

const DESCRIPTION = `JSON HTTP API behind a packaging-design editor.

* **Base address.** Behind the reverse proxy every path below is reached under the \`/api\` prefix
  (see \`servers\`); a directly run server has no prefix.
* **Account surface** (\`bearerAuth\`): \`Authorization: Bearer <token>\`, the token coming from
  \`POST /auth/register\` or \`POST /auth/login\` (valid 7 days).
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

interface OperationObject {
  requestBody?: unknown;
  responses?: Record<string, { description?: string; content?: Record<string, unknown> } | undefined>;
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
    item.head = { ...head, responses };
  }
}

/**
 * The two operations whose payload is not JSON: the multipart upload (no body schema: the route
 * reads the parts itself) and the raw file download (its string reply schema would otherwise be
 * documented as application/json). Left alone when a route already documents them.
 */
export function documentBinaryPayloads(paths: PathsObject): void {
  const upload = paths['/assets']?.post;
  if (upload && upload.requestBody === undefined) {
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
  }
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
      components: { securitySchemes: SECURITY_SCHEMES },
    },
    // Routes are registered without the proxy's prefix; never strip anything from them.
    stripBasePath: false,
    // Shared schemas appear under components/schemas with their $id as name.
    refResolver: { buildLocalReference: (json, _baseUri, _fragment, i) => (json.$id as string | undefined) ?? `def-${i}` },
    transform: ({ schema, url }) => ({ schema, url: documentedPath(url) }),
    transformObject: (documentObject) => {
      if (!('openapiObject' in documentObject)) return documentObject.swaggerObject;
      const { openapiObject } = documentObject;
      const paths = (openapiObject.paths ?? {}) as PathsObject;
      documentBinaryPayloads(paths);
      describeResponses(paths);
      documentHeadOperations(paths);
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

  app.get(
    OPENAPI_PATH,
    { schema: { hide: true, querystring: EmptyQuery } },
    async () => app.swagger(),
  );
}

export default fp(openapiPlugin, { name: 'openapi' });
