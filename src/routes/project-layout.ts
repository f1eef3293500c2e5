// GET /projects/:id/layout (extensions §9): the project's blank laid out n-up on a press sheet, as
// JSON or as the press sheet PDF. JWT, the caller's project only; strong ETag, private, no-cache.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { signalOnClientGone } from '../render/index.js';
import { NotModified } from '../schemas/assets.js';
import { errorResponses, IdParams } from '../schemas/common.js';
import { LayoutQuery, LayoutResponse } from '../schemas/sheet-layouts.js';
import { PROJECT_DIELINE_CACHE, sendDieline } from './dieline-reply.js';

const projectLayoutRoutes: FastifyPluginAsyncTypebox = async (app) => {

  app.get(
    '/:id/layout',
    {
      schema: {
        tags: ['projects'],
        summary: "Lay a project's blank out n-up on a press sheet, as JSON, the press sheet PDF or the n-up die (DXF, CF2)",
        description:
          'Box templates only (a container answers 400). Copies go in rows at 0° or 90°, turned 180° row by row or copy by copy ' +
          'where that fits more, keeping gapMm between outlines (0: common-line cutting), clear of the gripper strip along the top edge ' +
          'and of marginMm along the others; grain fixes which way the blank runs. format=dxf or cf2 answers the n-up die. ' +
          'lock, lidHeightMm, nicks and nickWidthMm shape the blank as on the dieline routes. ' +
          'A blank larger than the sheet answers 422. The layout runs in a render child within RENDER_LAYOUT_TIMEOUT_MS; past it, ' +
          'or with every render child busy, the answer is 503 with Retry-After.',
        params: IdParams,
        querystring: LayoutQuery,
        response: { 200: LayoutResponse, 304: NotModified, ...errorResponses(400, 401, 404, 422, 503) },
      },
    },
    async function projectLayout(request, reply) {
      const project = await app.services.projects.get(request.userId, request.params.id);
      const layout = await app.services.sheetLayouts.forProject(project, request.query, signalOnClientGone(reply.raw));
      return sendDieline(request, reply, layout, PROJECT_DIELINE_CACHE);
    },
  );
};

export default projectLayoutRoutes;
