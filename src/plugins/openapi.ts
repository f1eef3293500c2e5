// The OpenAPI 3.1 document, generated from the very TypeBox schemas that validate requests and
// serialize replies (GET /openapi.json), and Swagger UI over it (GET /docs). Registered before the
// routes: @fastify/swagger collects routes with an onRoute hook.
import { readFileSync } from 'node:fs';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { EmptyQuery, errorResponses } from '../schemas/common.js';
import { describeAccess, deriveOperationId, routeContexts, type SecurityRequirement } from './openapi-conventions.js';
import {
  applyConventions,
  applyDocumentedRules,
  applyOperationPatches,
  collapseLiteralUnions,
  describeResponses,
  documentedPath,
  documentHeadOperations,
  HEADER_COMPONENTS,
  headerComponentName,
  type OperationPatch,
  type PathsObject,
} from './openapi-transform.js';
import { DESCRIPTION, SECURITY_SCHEMES, TAGS } from './openapi-info.js';
import { WEBHOOK_PAYLOADS } from '../schemas/webhook-payloads.js';

export const OPENAPI_PATH = '/openapi.json';
export const DOCS_PREFIX = '/docs';

export { TAGS } from './openapi-info.js';

// Swagger UI's own default CSP minus upgrade-insecure-requests, which would break the page on a
// plain-HTTP deployment by rewriting its asset and "Try it out" requests to https.
const DOCS_CSP =
  "default-src 'self'; base-uri 'self'; font-src 'self' https: data:; frame-ancestors 'self'; " +
  "img-src 'self' data:; object-src 'none'; script-src 'self'; script-src-attr 'none'; " +
  "style-src 'self' https:; connect-src 'self'";

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
  // What routes add to their operations (schema['x-openapi']), by "method path".
  const patches = new Map<string, OperationPatch>();
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
      const { 'x-openapi': patch, ...documented } = schema as typeof schema & { 'x-openapi'?: OperationPatch };
      const openapiPath = path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      if (patch) for (const method of methods) patches.set(`${method.toLowerCase()} ${openapiPath}`, patch);
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
          ...documented,
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
      applyOperationPatches(paths, patches);
      describeResponses(paths);
      documentHeadOperations(paths);
      applyConventions(paths);
      // The payloads are plain JSON Schema objects, which the OpenAPI types do not model exactly.
      const document = { ...openapiObject, webhooks: WEBHOOK_PAYLOADS as unknown as Record<string, never> };
      applyDocumentedRules(document);
      collapseLiteralUnions(document);
      return document;
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
