// GET /shared/:token/model: the model a share link opens, with no login. The token reaches this
// one model and nothing else of the project or its account.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NotModified } from '../schemas/assets.js';
import { errorResponses } from '../schemas/common.js';
import { ProjectModelQuery, ProjectModelResponse } from '../schemas/models.js';
import { SharedModelParams } from '../schemas/shares.js';
import { sendModel } from './model-reply.js';

// Revalidated on every view, so a revoked link stops showing the model (a 304 costs no render).
const SHARED_MODEL_CACHE = 'private, no-cache';

const sharedModelRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/:token/model',
    {
      schema: {
        tags: ['shares'],
        summary: 'The 3D model behind a share link (binary glTF, or USDZ for AR); no login',
        description: "The project's model as GET /projects/:id/model gives it to the owner. Unknown, revoked or expired token: 404.",
        operationId: 'getSharedModel',
        params: SharedModelParams,
        querystring: ProjectModelQuery,
        response: { 200: ProjectModelResponse, 304: NotModified, ...errorResponses(400, 404, 503) },
      },
    },
    async function sharedModel(request, reply) {
      const project = await app.services.shares.open(request.params.token);
      const model = await app.services.models.forProject(project, request.query);
      void reply.header('referrer-policy', 'no-referrer');
      return sendModel(request, reply, model, SHARED_MODEL_CACHE);
    },
  );
};

export default sharedModelRoutes;
