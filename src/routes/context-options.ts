// The options a surrounding context passes to route modules it registers a second time (the /v1
// surface registers the editor's and the catalog's routes behind a developer key).
import type { FastifyRequest } from 'fastify';

/** For the design routes: how the context identifies the caller. */
export interface KeyedRouteOptions {
  /** The onRequest guard that sets request.caller; the JWT guard when absent. */
  guard?: (request: FastifyRequest) => Promise<void>;
}

/** For the catalog routes: what the context adds to each route's documentation. */
export interface TemplateRoutesOptions {
  /** Extra statuses the surrounding context can answer with (401 and 429 on /v1). */
  contextErrors?: number[];
  security?: Array<Record<string, string[]>>;
}
