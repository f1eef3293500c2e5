// /projects: the caller's editor documents, their version history and copies. Every route in this
// plugin requires a JWT; another account's project answers exactly like a missing one. Every
// { project } answer carries ETag "<version>"; writes honour If-Match (see project-etag.ts).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ListPageQuery } from '../schemas/paging.js';
import { pageWhenAsked } from './list-paging.js';
import { Type } from '@sinclair/typebox';
import { NotModified } from '../schemas/assets.js';
import { errorResponses, IdParams, NoBody } from '../schemas/common.js';
import { DielineResponse, ProjectDielineQuery } from '../schemas/dielines.js';
import { toProjectDto, toProjectVersionDto } from '../schemas/dto.js';
import {
  CreateProjectBody,
  DuplicateProjectBody,
  IfMatchHeaders,
  IfNoneMatchHeaders,
  ProjectListReply,
  ProjectNotModified,
  ProjectReply,
  UpdateProjectBody,
  VersionListReply,
  VersionParams,
  VersionReply,
} from '../schemas/projects.js';
import type { FastifyRequest } from 'fastify';
import { badRequest, MESSAGES } from '../errors.js';
import { replyIfNotModified } from '../lib/entity-tags.js';
import { PROJECT_DIELINE_CACHE, sendDieline } from './dieline-reply.js';
import { ifMatchPrecondition, projectCaching, sendProject } from './project-etag.js';
import { routeDefaults } from './route-defaults.js';

const projectRoutes: FastifyPluginAsyncTypebox = async (app) => {
  routeDefaults(app, 'projects');

  app.get(
    '/',
    {
      schema: {
        summary: "List the caller's projects, most recently updated first",
        querystring: ListPageQuery,
        response: { 200: ProjectListReply, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const projects = await app.services.projects.list(request.userId);
      const cursors = () => app.services.listCursors('projects', request.userId);
      const { items, ...next } = pageWhenAsked(projects, request.query, cursors, (project) => ({
        createdAt: project.updatedAt,
        id: project.id,
      }));
      return { projects: items.map(toProjectDto), total: projects.length, ...next };
    },
  );

  app.post(
    '/',
    {
      config: { idempotent: 'body' },
      schema: {
        summary: 'Create a project',
        body: CreateProjectBody,
        response: { 201: ProjectReply, ...errorResponses(400, 401, 403, 413, 415) },
      },
    },
    async (request, reply) => {
      const project = await app.services.projects.create(request.userId, request.body);
      return sendProject(reply, project, 201);
    },
  );

  app.get(
    '/:id',
    {
      schema: {
        summary: 'Read one project',
        params: IdParams,
        headers: IfNoneMatchHeaders,
        response: { 200: ProjectReply, 304: ProjectNotModified, ...errorResponses(400, 401, 404) },
      },
    },
    async (request, reply) => {
      const project = await app.services.projects.get(request.userId, request.params.id);
      if (replyIfNotModified(request, reply, projectCaching(project))) return reply;
      return sendProject(reply, project);
    },
  );

  app.put(
    '/:id',
    {
      schema: {
        summary: 'Change the fields sent, leave the others',
        description: 'A change records the replaced state as a version first. Sending only stored values changes nothing.',
        params: IdParams,
        headers: IfMatchHeaders,
        body: UpdateProjectBody,
        response: { 200: ProjectReply, ...errorResponses(400, 401, 404, 412, 413, 415) },
      },
    },
    async (request, reply) => {
      const precondition = ifMatchPrecondition(request.headers['if-match']);
      const project = await app.services.projects.update(request.userId, request.params.id, request.body, precondition);
      return sendProject(reply, project);
    },
  );

  app.delete(
    '/:id',
    {
      schema: {
        summary: 'Delete a project permanently, with its versions',
        params: IdParams,
        headers: IfMatchHeaders,
        response: { 204: Type.Null({ description: 'Deleted; the body is empty.' }), ...errorResponses(400, 401, 404, 412) },
      },
    },
    async (request, reply) => {
      const precondition = ifMatchPrecondition(request.headers['if-match']);
      await app.services.projects.remove(request.userId, request.params.id, precondition);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/:id/duplicate',
    {
      config: { idempotent: 'body' },
      schema: {
        summary: "Create a project from another's current state",
        params: IdParams,
        body: DuplicateProjectBody,
        response: { 201: ProjectReply, ...errorResponses(400, 401, 403, 404, 413, 415) },
        // Every field is optional: the body may be left out.
        'x-openapi': { requestBody: { required: false } },
      },
      // Every field is optional, so no body at all means the same as {}.
      preValidation: async (request) => {
        request.body ??= {};
      },
    },
    async (request, reply) => {
      const project = await app.services.projects.duplicate(request.userId, request.params.id, request.body);
      return sendProject(reply, project, 201);
    },
  );

  app.get(
    '/:id/versions',
    {
      schema: {
        summary: "List a project's recorded versions, newest first",
        description: 'Each entry is a state a change replaced; the latest 50 are kept. Documents are read one at a time.',
        params: IdParams,
        response: { 200: VersionListReply, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const versions = await app.services.projects.listVersions(request.userId, request.params.id);
      return { versions: versions.map(toProjectVersionDto), total: versions.length };
    },
  );

  app.get(
    '/:id/versions/:version',
    {
      preValidation: canonicalVersion,
      schema: {
        summary: 'Read one recorded version with its artworkJson',
        params: VersionParams,
        response: { 200: VersionReply, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const version = await app.services.projects.getVersion(request.userId, request.params.id, request.params.version);
      return { version: toProjectVersionDto(version) };
    },
  );

  app.post(
    '/:id/versions/:version/restore',
    {
      preValidation: canonicalVersion,
      schema: {
        summary: 'Bring a recorded version back as the current state',
        description:
          'Sets name, templateId, dimensions and artworkJson to the recorded ones. When that changes something, the ' +
          'replaced state is recorded as a version first; restoring the current state changes nothing.',
        params: VersionParams,
        headers: IfMatchHeaders,
        body: NoBody,
        response: { 200: ProjectReply, ...errorResponses(400, 401, 404, 412) },
      },
    },
    async (request, reply) => {
      const precondition = ifMatchPrecondition(request.headers['if-match']);
      const { id, version } = request.params;
      const project = await app.services.projects.restore(request.userId, id, version, precondition);
      return sendProject(reply, project);
    },
  );

  app.get(
    '/:id/dieline',
    {
      schema: {
        summary: "Generate the flat dieline of a project's box, or its container's print layout, as JSON, SVG, PDF, DXF or CF2",
        description:
          "Built from the project's widthMm, heightMm and depthMm. thicknessMm is the EditorState's when the " +
          "box style accepts it, otherwise a typical board for the EditorState's material. bleedMm defaults to 3. " +
          'Containers take labelStyle, overlapMm, fitMm and seamMm where they apply (elsewhere a 400).',
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

// 1 to 2147483647 as plain decimal digits: "01", "+1", " 1", "1.0", "1e1" and "0x1" would each
// coerce to a number, and name the same version by another spelling.
const CANONICAL_VERSION = /^[1-9][0-9]{0,9}$/;
const VERSION_MAX = 2_147_483_647;

/** preValidation: the version path parameter as it was written, before coercion reads it. */
async function canonicalVersion(request: FastifyRequest): Promise<void> {
  const { version } = request.params as { version?: unknown };
  if (typeof version === 'string' && CANONICAL_VERSION.test(version) && Number(version) <= VERSION_MAX) return;
  throw badRequest(MESSAGES.versionParam);
}

export default projectRoutes;
