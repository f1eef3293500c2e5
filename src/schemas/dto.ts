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

/** The version is not part of the body: it travels as the ETag. */
export const toProjectDto = ({ version: _version, ...project }: Project) => ({
  ...project,
  createdAt: project.createdAt.toISOString(),
  updatedAt: project.updatedAt.toISOString(),
});

/** A recorded project version, listed (without artworkJson) or read whole. */
export const toProjectVersionDto = <T extends ProjectVersionSummary>(version: T) => ({
  ...version,
  createdAt: version.createdAt.toISOString(),
});
