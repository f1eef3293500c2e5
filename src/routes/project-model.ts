// GET /projects/:id/model: the caller's project in 3D with its print as the texture. Registered
// under /projects beside the project routes; requires a JWT, another account's project is a 404.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { signalOnClientGone } from '../render/index.js';
import { NotModified } from '../schemas/assets.js';
import { errorResponses, IdParams } from '../schemas/common.js';
import { ProjectModelQuery, ProjectModelResponse } from '../schemas/models.js';
import { PROJECT_DIELINE_CACHE } from './dieline-reply.js';
import { sendModel } from './model-reply.js';

const projectModelRoutes: FastifyPluginAsyncTypebox = async (app) => {

  app.get(
    '/:id/model',
    {
      schema: {
        tags: ['projects'],
        summary: "The project as a 3D model (binary glTF, or USDZ for AR) wearing its print, in its material and finish",
        description:
          "The project's size, material, finish and caliper; its printed blank (boxes) or label (containers) as the " +
          'base-colour texture, textureSize pixels on the longest side. format=usdz: the closed model as a USDZ package ' +
          'for AR (Apple Quick Look).',
        params: IdParams,
        querystring: ProjectModelQuery,
        response: { 200: ProjectModelResponse, 304: NotModified, ...errorResponses(400, 401, 404, 503) },
      },
    },
    async function projectModel(request, reply) {
      const project = await app.services.projects.get(request.userId, request.params.id);
      const model = await app.services.models.forProject(project, request.query, signalOnClientGone(reply.raw));
      return sendModel(request, reply, model, PROJECT_DIELINE_CACHE);
    },
  );
};

export default projectModelRoutes;
