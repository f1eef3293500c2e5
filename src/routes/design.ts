// The design routes both surfaces serve from the same modules: the editor's behind its JWT
// (editor.ts) and /v1's behind a developer key (v1.ts), whose guard makes the caller.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import assetRoutes from './assets.js';
import barcodeRoutes from './barcodes.js';
import { exportRoutes, projectExportRoutes, type ExportRoutesOptions } from './exports.js';
import fontRoutes from './fonts.js';
import { projectPreflightRoutes } from './project-print.js';
import projectRoutes from './projects.js';
import webhookRoutes from './webhooks.js';

const designRoutes: FastifyPluginAsyncTypebox<ExportRoutesOptions> = async (app, { basePath }) => {
  await app.register(projectRoutes, { prefix: '/projects' });
  await app.register(projectPreflightRoutes, { prefix: '/projects' });
  await app.register(projectExportRoutes, { prefix: '/projects', basePath });
  await app.register(exportRoutes, { prefix: '/exports' });
  await app.register(assetRoutes, { prefix: '/assets' });
  await app.register(barcodeRoutes, { prefix: '/barcodes' });
  await app.register(fontRoutes, { prefix: '/fonts' });
  await app.register(webhookRoutes, { prefix: '/webhooks' });
};

export default designRoutes;
