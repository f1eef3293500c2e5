// GET /viewer: the 3D viewer page (static HTML) and GET /viewer/viewer.js, its bundle of three.js
// built by `npm run build` (scripts/build-viewer.mjs) into dist/viewer and read by
// src/services/viewer-files.ts. The page loads only same-origin models; the CSP allows nothing but
// this origin's script, models and the model's embedded textures (blob: URLs), and the page's one
// inline style by its hash.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { notModified } from './dieline-reply.js';
import { NotModified } from '../schemas/assets.js';
import { MOCKUP_ANGLES } from '../schemas/mockups.js';
import { LIGHTING_IDS } from '../schemas/projects.js';
import { errorResponses, EmptyQuery, StrictObject, StringEnum } from '../schemas/common.js';
import { viewerCsp, type ViewerFileName } from '../services/viewer-files.js';

const ViewerQuery = StrictObject({
  model: Type.Optional(
    Type.String({ maxLength: 2048, description: 'URL of a binary glTF on this origin (e.g. /templates/mailer-box/model).' }),
  ),
  share: Type.Optional(
    Type.String({
      maxLength: 100,
      description: "A share link's token: shows the model behind it, read-only, with no login (POST /projects/:id/shares).",
    }),
  ),
  lighting: Type.Optional(StringEnum(LIGHTING_IDS, { default: 'studio' })),
  controls: Type.Optional(
    StringEnum(['full', 'none'] as const, {
      default: 'full',
      description: 'none: the model alone, without toolbar or dimensions (mockups, clean embeds).',
    }),
  ),
  background: Type.Optional(
    Type.String({ pattern: '^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$', description: "Hex colour; default: the lighting preset's." }),
  ),
  angle: Type.Optional(
    StringEnum(MOCKUP_ANGLES, {
      default: 'three-quarter',
      description: 'Where the camera first looks from (as the mockup route): front, three-quarter, top, bottom or back.',
    }),
  ),
});

const viewerRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const load = (name: ViewerFileName) => app.services.viewerFiles.load(name);

  app.get(
    '/viewer',
    {
      schema: {
        tags: ['viewer'],
        summary: 'The 3D viewer page: ?model=<same-origin GLB URL> or ?share=<token>, &lighting=<preset>&background=<#hex>',
        description:
          'Static HTML with a bundled three.js: loads the model (same-origin URLs only), lights it with one of the ' +
          'four presets (studio, softbox, dramatic, outdoor), sets the background, orbit controls. The page ' +
          'reports its state on <body data-state> (loading, ready, error).',
        querystring: ViewerQuery,
        response: {
          200: { description: 'The viewer page.', content: { 'text/html': { schema: Type.String() } } },
          ...errorResponses(400, 503),
        },
      },
    },
    async (_request, reply) => {
      const page = await load('index.html');
      const html = page.body.toString('utf8');
      return reply
        .headers({
          'content-security-policy': viewerCsp(html),
          'cache-control': 'public, max-age=300',
          'x-content-type-options': 'nosniff',
          'referrer-policy': 'same-origin',
        })
        .type('text/html; charset=utf-8')
        .send(page.body as never);
    },
  );

  app.get(
    '/viewer/viewer.js',
    {
      schema: {
        tags: ['viewer'],
        summary: "The viewer's script (three.js bundled at build time)",
        querystring: EmptyQuery,
        response: {
          200: { description: 'JavaScript.', content: { 'text/javascript': { schema: Type.String() } } },
          304: NotModified,
          ...errorResponses(400, 503),
        },
      },
    },
    async (request, reply) => {
      const script = await load('viewer.js');
      if (notModified(request, reply, script.etag, 'public, max-age=3600')) return reply;
      return reply.type('text/javascript; charset=utf-8').send(script.body as never);
    },
  );
};

export default viewerRoutes;
