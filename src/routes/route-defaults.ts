// What every route of a route module states unless it says otherwise.
import type { FastifyInstance } from 'fastify';
import { EmptyQuery } from '../schemas/common.js';

/** The context's routes get its OpenAPI tag, and take no query parameters (any is a 400) unless they declare some. */
export function routeDefaults(app: FastifyInstance, tag: string): void {
  app.addHook('onRoute', ({ schema }) => {
    if (!schema) return;
    schema.tags ??= [tag];
    schema.querystring ??= EmptyQuery;
  });
}
