// /projects: the caller's editor documents. Every route in this plugin requires a JWT; another
// account's project answers exactly like a missing one.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from '@sinclair/typebox';
import { EmptyQuery, errorResponses, IdParams } from '../schemas/common.js';
import { toProjectDto } from '../schemas/dto.js';
import { CreateProjectBody, ProjectListReply, ProjectReply, UpdateProjectBody } from '../schemas/projects.js';

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
};

export default projectRoutes;
