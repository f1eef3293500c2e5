// /projects: the caller's editor documents. Every route in this plugin requires a JWT; another
// account's project answers exactly like a missing one.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { NotModified } from '../schemas/assets.js';
import { EmptyQuery, errorResponses, IdParams } from '../schemas/common.js';
import { DielineResponse, ProjectDielineQuery } from '../schemas/dielines.js';
import { toProjectDto } from '../schemas/dto.js';
import { CreateProjectBody, ProjectListReply, ProjectReply, UpdateProjectBody } from '../schemas/projects.js';
import { PROJECT_DIELINE_CACHE, sendDieline } from './dieline-reply.js';

const security = [{ bearerAuth: [] }];

const projectRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/',
    {
      schema: {
        tags: ['projects'],
        summary: "List the caller's projects, most recently updated first",
        security,
        querystring: EmptyQuery,
        response: { 200: ProjectListReply, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const projects = await app.services.projects.list(request.userId);
      return { projects: projects.map(toProjectDto), total: projects.length };
    },
  );

  app.post(
    '/',
    {
      schema: {
        tags: ['projects'],
        summary: 'Create a project',
        security,
        querystring: EmptyQuery,
        body: CreateProjectBody,
        response: { 201: ProjectReply, ...errorResponses(400, 401, 403, 413, 415) },
      },
    },
    async (request, reply) => {
      const project = await app.services.projects.create(request.userId, request.body);
      return reply.code(201).send({ project: toProjectDto(project) });
    },
  );

  app.get(
    '/:id',
    {
      schema: {
        tags: ['projects'],
        summary: 'Read one project',
        security,
        params: IdParams,
        querystring: EmptyQuery,
        response: { 200: ProjectReply, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const project = await app.services.projects.get(request.userId, request.params.id);
      return { project: toProjectDto(project) };
    },
  );

  app.put(
    '/:id',
    {
      schema: {
        tags: ['projects'],
        summary: 'Change the fields sent, leave the others',
        security,
        params: IdParams,
        querystring: EmptyQuery,
        body: UpdateProjectBody,
        response: { 200: ProjectReply, ...errorResponses(400, 401, 404, 413, 415) },
      },
    },
    async (request) => {
      const project = await app.services.projects.update(request.userId, request.params.id, request.body);
      return { project: toProjectDto(project) };
    },
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags: ['projects'],
        summary: 'Delete a project permanently',
        security,
        params: IdParams,
        querystring: EmptyQuery,
        response: { 204: Type.Null({ description: 'Deleted; the body is empty.' }), ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      await app.services.projects.remove(request.userId, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/:id/dieline',
    {
      schema: {
        tags: ['projects'],
        summary: "Generate the flat dieline of a project's box as JSON, SVG or PDF",
        description:
          "Built from the project's widthMm, heightMm and depthMm. thicknessMm is the EditorState's when the " +
          "box style accepts it, otherwise a typical board for the EditorState's material. bleedMm defaults to 3.",
        security,
        params: IdParams,
        querystring: ProjectDielineQuery,
        response: { 200: DielineResponse, 304: NotModified, ...errorResponses(400, 401, 404) },
      },
    },
    async function projectDieline(request, reply) {
      const project = await app.services.projects.get(request.userId, request.params.id);
      const dieline = await app.services.dielines.forProject(project, request.query);
      return sendDieline(request, reply, dieline, PROJECT_DIELINE_CACHE);
    },
  );
};

export default projectRoutes;
