// The project's entity tag and the If-Match precondition built from it: the HTTP side of the
// version counter. The precondition itself is evaluated by the repository, under the row lock.
import type { FastifyReply } from 'fastify';
import { badRequest } from '../errors.js';
import { ifMatchAccepts, parseEntityTagCondition } from '../lib/entity-tags.js';
import type { Project, VersionPrecondition } from '../repositories/projects.js';
import { toProjectDto } from '../schemas/dto.js';

export const MALFORMED_IF_MATCH = 'If-Match must be "*" or a comma-separated list of quoted entity tags, e.g. "3".';

/** A strong ETag that changes exactly when the project does. */
export const projectEtag = (version: number) => `"${version}"`;

/** Undefined without If-Match (the last write wins); a malformed value is a 400 before anything is read. */
export function ifMatchPrecondition(header: string | undefined): VersionPrecondition | undefined {
  if (header === undefined) return undefined;
  const condition = parseEntityTagCondition(header);
  if (!condition) throw badRequest(MALFORMED_IF_MATCH);
  return (currentVersion) => ifMatchAccepts(condition, projectEtag(currentVersion));
}

/** The project's ETag; revalidated on every use by a private cache. */
export const projectCaching = (project: Project) => ({ etag: projectEtag(project.version), 'cache-control': 'private, no-cache' });

/** A { project } answer with its ETag. */
export function sendProject(reply: FastifyReply, project: Project, statusCode = 200): FastifyReply {
  return reply.code(statusCode).headers(projectCaching(project)).send({ project: toProjectDto(project) });
}
