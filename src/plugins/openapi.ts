// The OpenAPI 3.1 document, generated from the very TypeBox schemas that validate requests and
// serialize replies (GET /openapi.json), and Swagger UI over it (GET /docs). Registered before the
// routes: @fastify/swagger collects routes with an onRoute hook. This module registers; what the
// document says is decided by the pure transforms of openapi-transform.ts.
import { readFileSync } from 'node:fs';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { EmptyQuery, errorResponses } from '../schemas/common.js';
import { routeContexts } from './openapi-conventions.js';
import { completeDocument, documentRoute, HEADER_COMPONENTS, headerComponentName, type OperationPatch } from './openapi-transform.js';
import { DESCRIPTION, SECURITY_SCHEMES, TAGS } from './openapi-info.js';
import { WEBHOOK_PAYLOADS } from '../schemas/webhook-payloads.js';
import { ERROR_EXAMPLES, exampleComponentName, SHARED_RESPONSES } from '../schemas/error-examples.js';

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
      const methods = [route.method].flat();
      const documented = documentRoute({ url, methods, schema, guardedBy: () => contexts.securityOf(route) });
      for (const [key, patch] of documented.patches) patches.set(key, patch);
      return { url: documented.url, schema: documented.schema };
    },
    transformObject: (documentObject) => {
      if (!('openapiObject' in documentObject)) return documentObject.swaggerObject;
      // The payloads are plain JSON Schema objects, which the OpenAPI types do not model exactly.
      return completeDocument(documentObject.openapiObject, patches, WEBHOOK_PAYLOADS as unknown as Record<string, never>, {
        byOperation: ERROR_EXAMPLES,
        shared: SHARED_RESPONSES,
        exampleName: exampleComponentName,
      });
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
