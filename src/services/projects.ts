// Project rules: name normalisation, template check, dimension resolution, the default
// EditorState, the plan's project cap, partial-update semantics, version history and duplicates.
// Knows nothing of HTTP beyond the status-bearing errors it throws (If-Match arrives as a
// precondition on the project's version).
import { EventEmitter } from 'node:events';
import { createId, foundOr404, isRecordId } from '../lib/ids.js';
import { getTemplate, type Dimensions, type Template } from '../catalog/index.js';
import { badRequest, forbidden, HttpError, MESSAGES, notFound, preconditionFailed } from '../errors.js';
import type {
  Project,
  ProjectChanges,
  ProjectRepository,
  ProjectState,
  ProjectVersion,
  ProjectVersionSummary,
  Refused,
  VersionPrecondition,
  Written,
} from '../repositories/projects.js';
import { PROJECT_NAME_MAX_LENGTH, type EditorState } from '../schemas/projects.js';
import { projectLimitFor } from './plans.js';
import { normalizeName } from '../lib/text.js';
import type { FileJanitor } from './file-janitor.js';

export interface CreateProjectInput extends Partial<Dimensions> {
  name: string;
  templateId: string;
  artworkJson?: EditorState;
}

export type UpdateProjectInput = Partial<CreateProjectInput>;

const COPY_SUFFIX = ' (copy)';

const DIMENSION_KEYS = ['widthMm', 'heightMm', 'depthMm'] as const;
export const DEFAULT_THICKNESS_MM = 3;

/** "<name> (copy)", cut to the longest name a project may have (in code points), trimmed. */
export function copyName(name: string): string {
  return [...`${name}${COPY_SUFFIX}`].slice(0, PROJECT_NAME_MAX_LENGTH).join('').trimEnd();
}

function requireTemplate(templateId: string): Template {
  const template = getTemplate(templateId);
  if (!template) throw badRequest(MESSAGES.unknownTemplateId(templateId));
  return template;
}

/** Per dimension: the explicit value, then artworkJson.dimensions, then the template default. */
export function resolveDimensions(
  explicit: Partial<Dimensions>,
  fromState: Partial<Dimensions> | undefined,
  template: Template,
): Dimensions {
  const pick = (key: keyof Dimensions) => explicit[key] ?? fromState?.[key] ?? template.defaultDimensions[key];
  return { widthMm: pick('widthMm'), heightMm: pick('heightMm'), depthMm: pick('depthMm') };
}

/** The EditorState a project starts with when the client sends none. */
export function defaultEditorState(template: Template, dimensions: Dimensions): EditorState {
  return {
    templateId: template.id,
    dimensions: { ...dimensions },
    material: template.materials[0],
    thicknessMm: DEFAULT_THICKNESS_MM,
    finish: template.finishes[0],
    background: { kind: 'color', value: '#ffffff' },
    lighting: 'studio',
    artworks: [],
  };
}

/** The sent values that differ from the stored ones; artworkJson differs when its JSON text does. */
function changedFields(current: ProjectState, wanted: ProjectChanges): ProjectChanges {
  const changes: ProjectChanges = {};
  if (wanted.name !== undefined && wanted.name !== current.name) changes.name = wanted.name;
  if (wanted.templateId !== undefined && wanted.templateId !== current.templateId) {
    changes.templateId = wanted.templateId;
  }
  for (const key of DIMENSION_KEYS) {
    const value = wanted[key];
    if (value !== undefined && value !== current[key]) changes[key] = value;
  }
  if (wanted.artworkJson !== undefined && JSON.stringify(wanted.artworkJson) !== JSON.stringify(current.artworkJson)) {
    changes.artworkJson = wanted.artworkJson;
  }
  return changes;
}

/** Ids are cuid2 (lower-case letters and digits); anything else is answered like a missing project, without a query. */
function assertProjectId(id: string): void {
  if (!isRecordId(id)) throw notFound(MESSAGES.projectNotFound);
}

const REFUSALS = {
  'not-found': () => notFound(MESSAGES.projectNotFound),
  'precondition-failed': () => preconditionFailed(MESSAGES.projectChanged),
  'version-not-found': () => notFound(MESSAGES.versionNotFound),
  'limit-reached': () => forbidden(MESSAGES.projectCap),
} satisfies Record<string, () => HttpError>;

/** What the repository did, or the answer to why it did not. */
function accepted<T extends object>(outcome: T | Refused<keyof typeof REFUSALS>): T {
  if ('refused' in outcome) throw REFUSALS[outcome.refused]();
  return outcome;
}

/** Told after a project changed or was deleted (the webhooks); its failure is reported, not thrown. */
export type ProjectEventListener = (
  userId: string,
  event: 'project.updated' | 'project.deleted',
  project: { id: string; name?: string; templateId?: string; version?: number; updatedAt?: string },
) => Promise<void>;

export function createProjectService(projects: ProjectRepository, janitor: FileJanitor, announce: ProjectEventListener) {
  /** eventError: announcing a change failed (the change itself stands). */
  const events = new EventEmitter<{ eventError: [error: unknown] }>();

  async function tell(...args: Parameters<ProjectEventListener>) {
    try {
      await announce(...args);
    } catch (error) {
      events.emit('eventError', error);
    }
  }

  /** A written project, announced when something changed. */
  async function announced(userId: string, outcome: Written | Refused<keyof typeof REFUSALS>): Promise<Project> {
    const { project, changed } = accepted(outcome);
    if (changed) {
      const { id, name, templateId, version, updatedAt } = project;
      await tell(userId, 'project.updated', { id, name, templateId, version, updatedAt: updatedAt.toISOString() });
    }
    return project;
  }

  return {
    events,

    list(userId: string): Promise<Project[]> {
      return projects.listOwned(userId);
    },

    async create(userId: string, input: CreateProjectInput): Promise<Project> {
      const name = normalizeName(input.name, PROJECT_NAME_MAX_LENGTH);
      const template = requireTemplate(input.templateId);
      const dimensions = resolveDimensions(input, input.artworkJson?.dimensions, template);
      const artworkJson = input.artworkJson ?? defaultEditorState(template, dimensions);
      const project = { id: createId(), userId, name, templateId: template.id, ...dimensions, artworkJson };
      return accepted(await projects.createWithinLimit(project, projectLimitFor)).project;
    },

    /** A new project with the source's current state (not its history), under the plan's cap. */
    async duplicate(userId: string, id: string, input: { name?: string }): Promise<Project> {
      const name = input.name === undefined ? undefined : normalizeName(input.name, PROJECT_NAME_MAX_LENGTH);
      assertProjectId(id);
      const nameFor = (source: Project) => name ?? copyName(source.name);
      return accepted(await projects.duplicateWithinLimit(userId, id, createId(), nameFor, projectLimitFor)).project;
    },

    async get(userId: string, id: string): Promise<Project> {
      return foundOr404(id, MESSAGES.projectNotFound, () => projects.findOwned(userId, id));
    },

    /**
     * Sets exactly the fields sent; nothing is re-resolved. No actual change leaves updatedAt and
     * the version alone; a change records the replaced state as a version first.
     */
    async update(userId: string, id: string, input: UpdateProjectInput, precondition?: VersionPrecondition): Promise<Project> {
      const wanted: ProjectChanges = {};
      if (input.name !== undefined) wanted.name = normalizeName(input.name, PROJECT_NAME_MAX_LENGTH);
      if (input.templateId !== undefined) wanted.templateId = requireTemplate(input.templateId).id;
      for (const key of DIMENSION_KEYS) if (input[key] !== undefined) wanted[key] = input[key];
      if (input.artworkJson !== undefined) wanted.artworkJson = input.artworkJson;
      assertProjectId(id);
      return announced(userId, await projects.updateOwned(userId, id, (current) => changedFields(current, wanted), precondition));
    },

    /** Deletes the project, its versions and its exports (their files too). */
    async remove(userId: string, id: string, precondition?: VersionPrecondition): Promise<void> {
      assertProjectId(id);
      const { exportFiles } = accepted(await projects.deleteOwned(userId, id, precondition));
      if (exportFiles.length > 0) await janitor.removeRecorded(exportFiles);
      await tell(userId, 'project.deleted', { id });
    },

    /** The kept versions, newest first. */
    async listVersions(userId: string, id: string): Promise<ProjectVersionSummary[]> {
      return foundOr404(id, MESSAGES.projectNotFound, () => projects.listVersions(userId, id));
    },

    async getVersion(userId: string, id: string, version: number): Promise<ProjectVersion> {
      assertProjectId(id);
      const found = await projects.findVersion(userId, id, version);
      if (found === undefined) throw notFound(MESSAGES.projectNotFound);
      if (found === null) throw notFound(MESSAGES.versionNotFound);
      return found;
    },

    /**
     * Brings back every field of a recorded version. Like an update, only what differs is written,
     * and the replaced state is recorded as a version; restoring the current state changes nothing.
     */
    async restore(userId: string, id: string, version: number, precondition?: VersionPrecondition): Promise<Project> {
      assertProjectId(id);
      return announced(userId, await projects.restoreOwned(userId, id, version, changedFields, precondition));
    },
  };
}

export type ProjectService = ReturnType<typeof createProjectService>;
