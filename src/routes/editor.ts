// The editor's signed-in surface. Its first onRequest hook is the guard: a valid JWT makes its
// account the caller before any body parsing, validation or handler, so a request without one is a
// 401 whatever else is wrong with it. The design modules serve /v1 too, behind the key check there.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import apiKeyRoutes from './api-keys.js';
import designRoutes from './design.js';
import projectLayoutRoutes from './project-layout.js';
import projectMockupRoutes from './project-mockup.js';
import projectModelRoutes from './project-model.js';
import projectPrintRoutes from './project-print.js';
import projectShareRoutes from './project-shares.js';

const editorRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', app.authenticate);

  await app.register(apiKeyRoutes, { prefix: '/api-keys' });
  await app.register(designRoutes, { basePath: '' });
  await app.register(projectPrintRoutes, { prefix: '/projects' });
  await app.register(projectModelRoutes, { prefix: '/projects' });
  await app.register(projectMockupRoutes, { prefix: '/projects' });
  await app.register(projectLayoutRoutes, { prefix: '/projects' });
  await app.register(projectShareRoutes, { prefix: '/projects' });
};

export default editorRoutes;
