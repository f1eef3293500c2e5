// GET /projects/:id/mockup: the caller's project photographed in 3D (PNG). Registered only when
// MOCKUP_ENABLED is set; otherwise the path is unknown (404) and absent from the OpenAPI document.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NotModified } from '../schemas/assets.js';
import { errorResponses, IdParams } from '../schemas/common.js';
import { MockupQuery, MockupResponse } from '../schemas/mockups.js';
import { notModified, PROJECT_DIELINE_CACHE } from './dieline-reply.js';

const projectMockupRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const mockups = app.services.mockups;
  if (!mockups) return;

  app.get(
    '/:id/mockup',
    {
      schema: {
        tags: ['projects'],
        summary: 'A PNG mockup of the project in 3D, rendered by the viewer in a headless browser',
        description:
          'The project model (its print at 2048 px) in the viewer page, photographed by headless chromium at width × height ' +
          'with the lighting preset. A bounded pool of browser pages renders; when every page is busy and the queue is ' +
          'full, or a render overruns its budget, the answer is 503 with Retry-After. Only served when the deployment sets ' +
          'MOCKUP_ENABLED=true (otherwise 404).',
        params: IdParams,
        querystring: MockupQuery,
        response: { 200: MockupResponse, 304: NotModified, ...errorResponses(400, 401, 404, 503) },
      },
    },
    async function projectMockup(request, reply) {
      const project = await app.services.projects.get(request.userId, request.params.id);
      const mockup = await mockups.forProject(project, request.query);
      if (notModified(request, reply, mockup.etag, PROJECT_DIELINE_CACHE)) return reply;
      return reply.type('image/png').send((await mockup.render()) as never);
    },
  );
};

export default projectMockupRoutes;
