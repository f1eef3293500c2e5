// GET /templates/:id/model, registered inside the template routes so the public and the /v1
// surfaces answer from this one module, with the cache rule of the dieline routes beside it.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { NotModified } from '../schemas/assets.js';
import { errorResponses, IdParams } from '../schemas/common.js';
import { ModelResponse, TemplateModelQuery } from '../schemas/models.js';
import { sendModel } from './model-reply.js';

const templateModelRoutes: FastifyPluginAsyncTypebox<{ cacheControl: string }> = async (app, { cacheControl }) => {
  app.get(
    '/:id/model',
    {
      schema: {
        tags: ['templates'],
        summary: 'The template as a 3D model (binary glTF): boxes folded from their dieline, containers parametric',
        description:
          "Dimensions default to the template's defaultDimensions, material and finish to the template's first. " +
          'Round containers take widthMm as the diameter; only the pouch uses depthMm (its gusset). A size the ' +
          'template cannot be built at is a 400 naming the parameter.',
        params: IdParams,
        querystring: TemplateModelQuery,
        response: { 200: ModelResponse, 304: NotModified, ...errorResponses(400, 404) },
      },
    },
    async function templateModel(request, reply) {
      const model = await app.services.models.forTemplate(request.params.id, request.query);
      return sendModel(request, reply, model, cacheControl);
    },
  );
};

export default templateModelRoutes;
