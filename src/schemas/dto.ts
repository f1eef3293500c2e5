// Mappers from domain objects to the JSON shapes of the spec (dates as ISO 8601 strings).
import type { Project, ProjectVersionSummary } from '../repositories/projects.js';
import type { User } from '../repositories/users.js';

export const toUserDto = (user: User) => ({
  id: user.id,
  email: user.email,
  name: user.name,
  plan: user.plan,
  role: user.role,
  createdAt: user.createdAt.toISOString(),
});

/**
 * The version is not part of the body: it travels as the ETag. Field by field rather than by rest
 * and spread: this runs for every project of every answer, and V8 copies a spread object's
 * properties one by one on a generic path.
 */
export const toProjectDto = (project: Project) => ({
  id: project.id,
  userId: project.userId,
  name: project.name,
  templateId: project.templateId,
  widthMm: project.widthMm,
  heightMm: project.heightMm,
  depthMm: project.depthMm,
  artworkJson: project.artworkJson,
  createdAt: project.createdAt.toISOString(),
  updatedAt: project.updatedAt.toISOString(),
});

/** A recorded project version, listed (without artworkJson) or read whole. */
export const toProjectVersionDto = <T extends ProjectVersionSummary>(version: T) => ({
  ...version,
  createdAt: version.createdAt.toISOString(),
});
