// Project rules: name normalisation, template check, dimension resolution, the default
// EditorState, the plan's project cap, partial-update semantics, version history and duplicates.
// Knows nothing of HTTP beyond the status-bearing errors it throws (If-Match arrives as a
// precondition on the project's version).
import { createId, isRecordId } from '../lib/ids.js';
import { getTemplate, type Dimensions, type Template } from '../catalog/index.js';
import { badRequest, forbidden, MESSAGES, notFound, preconditionFailed, unauthorized } from '../errors.js';
import type {
  Caller,
  CreateOutcome,
  DeleteOutcome,
  Project,
  ProjectChanges,
  ProjectRepository,
  ProjectState,
  ProjectVersion,
  ProjectVersionSummary,
  ReadOutcome,
  RestoreOutcome,
  Unauthorized,
  VersionPrecondition,
  WriteOutcome,
} from '../repositories/projects.js';
import { PROJECT_NAME_MAX_LENGTH, type EditorState } from '../schemas/projects.js';
import { projectLimitFor } from './plans.js';
import { isStorableText } from '../lib/text.js';
import type { FileJanitor } from './file-janitor.js';

export interface CreateProjectInput extends Partial<Dimensions> {
  name: string;
  templateId: string;
  artworkJson?: EditorState;
}

export type UpdateProjectInput = Partial<CreateProjectInput>;

export interface DuplicateProjectInput {
  name?: string;
}

const COPY_SUFFIX = ' (copy)';

const DIMENSION_KEYS = ['widthMm', 'heightMm', 'depthMm'] as const;
export const DEFAULT_THICKNESS_MM = 3;

// Ids are cuid2 (lower-case letters and digits); anything else cannot name a project, and is
// answered like a missing one without a query.

/** "<name> (copy)", cut to the longest name a project may have (in code points), trimmed. */
export function copyName(name: string): string {
  return [...`${name}${COPY_SUFFIX}`].slice(0, PROJECT_NAME_MAX_LENGTH).join('').trimEnd();
}

function normalizeName(raw: string): string {
  const name = raw.trim();
  const length = [...name].length; // code points, as PostgreSQL counts varchar(200)
  if (length < 1 || length > PROJECT_NAME_MAX_LENGTH) {
    throw badRequest(`name must be 1 to ${PROJECT_NAME_MAX_LENGTH} characters long after trimming.`);
  }
  if (!isStorableText(name)) throw badRequest('name must not contain NUL or unpaired surrogate characters.');
  return name;
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

function assertProjectId(id: string): void {
  if (!isRecordId(id)) throw notFound(MESSAGES.projectNotFound);
}

function createdProject(outcome: CreateOutcome | { kind: 'not-found' }): Project {
  switch (outcome.kind) {
    case 'created':
      return outcome.project;
    case 'limit-reached':
      throw forbidden(MESSAGES.projectCap);
    case 'unauthorized':
      throw unauthorized(MESSAGES.invalidToken);
    case 'not-found':
      throw notFound(MESSAGES.projectNotFound);
  }
}

function foundProject(outcome: ReadOutcome): Project {
  if (outcome.kind === 'found') return outcome.project;
  throw outcome.kind === 'unauthorized' ? unauthorized(MESSAGES.invalidToken) : notFound(MESSAGES.projectNotFound);
}

/** The caller's account is gone or its tokens were revoked: the same 401 as the guard's. */
const isUnauthorized = (outcome: object): outcome is Unauthorized => 'kind' in outcome && outcome.kind === 'unauthorized';

function writtenProject(outcome: WriteOutcome | { kind: 'version-not-found' }): Project {
  switch (outcome.kind) {
    case 'written':
      return outcome.project;
    case 'not-found':
      throw notFound(MESSAGES.projectNotFound);
    case 'precondition-failed':
      throw preconditionFailed(MESSAGES.projectChanged);
    case 'version-not-found':
      throw notFound(MESSAGES.versionNotFound);
    case 'unauthorized':
      throw unauthorized(MESSAGES.invalidToken);
  }
}

function deleted(outcome: DeleteOutcome): string[] {
  switch (outcome.kind) {
    case 'deleted':
      return outcome.exportFiles;
    case 'not-found':
      throw notFound(MESSAGES.projectNotFound);
    case 'precondition-failed':
      throw preconditionFailed(MESSAGES.projectChanged);
    case 'unauthorized':
      throw unauthorized(MESSAGES.invalidToken);
  }
}

/** Told after a project changed or was deleted (the webhooks); a listener's failure is reported, not thrown. */
export type ProjectEventListener = (
  userId: string,
  event: 'project.updated' | 'project.deleted',
  project: { id: string; name?: string; templateId?: string; version?: number; updatedAt?: string },
) => Promise<void>;

export function createProjectService(projects: ProjectRepository, janitor?: FileJanitor) {
  const listeners: ProjectEventListener[] = [];
  const errorReporters: Array<(error: unknown) => void> = [];
  const reportError = (error: unknown) => {
    for (const report of errorReporters) report(error);
  };

  async function tell(userId: string, event: 'project.updated' | 'project.deleted', project: Parameters<ProjectEventListener>[2]) {
    for (const listener of listeners) {
      try {
        await listener(userId, event, project);
      } catch (error) {
        reportError(error);
      }
    }
  }

  /** A written project, announced when something changed. */
  async function announced(userId: string, outcome: WriteOutcome | RestoreOutcome): Promise<Project> {
    const project = writtenProject(outcome);
    if (outcome.kind === 'written' && !outcome.unchanged) {
      const { id, name, templateId, version, updatedAt } = project;
      await tell(userId, 'project.updated', { id, name, templateId, version, updatedAt: updatedAt.toISOString() });
    }
    return project;
  }

  return {
    onEvent(listener: ProjectEventListener) {
      listeners.push(listener);
    },

    /** Where a listener's failure goes (the change itself stands). */
    onEventError(report: (error: unknown) => void) {
      errorReporters.push(report);
    },

    async list(caller: Caller): Promise<Project[]> {
      const listed = await projects.listOwned(caller);
      if (isUnauthorized(listed)) throw unauthorized(MESSAGES.invalidToken);
      return listed;
    },

    async create(caller: Caller, input: CreateProjectInput): Promise<Project> {
      const name = normalizeName(input.name);
      const template = requireTemplate(input.templateId);
      const dimensions = resolveDimensions(input, input.artworkJson?.dimensions, template);
      const artworkJson = input.artworkJson ?? defaultEditorState(template, dimensions);
      const outcome = await projects.createWithinLimit(
        caller,
        { id: createId(), userId: caller.userId, name, templateId: template.id, ...dimensions, artworkJson },
        projectLimitFor,
      );
      return createdProject(outcome);
    },

    /** A new project with the source's current state (not its history), under the plan's cap. */
    async duplicate(caller: Caller, id: string, input: DuplicateProjectInput): Promise<Project> {
      const name = input.name === undefined ? undefined : normalizeName(input.name);
      assertProjectId(id);
      const outcome = await projects.duplicateWithinLimit(
        caller,
        id,
        createId(),
        (source) => name ?? copyName(source.name),
        projectLimitFor,
      );
      return createdProject(outcome);
    },

    async get(caller: Caller, id: string): Promise<Project> {
      assertProjectId(id);
      return foundProject(await projects.findOwned(caller, id));
    },

    /**
     * Sets exactly the fields sent; nothing is re-resolved. No actual change leaves updatedAt and
     * the version alone; a change records the replaced state as a version first.
     */
    async update(caller: Caller, id: string, input: UpdateProjectInput, precondition?: VersionPrecondition): Promise<Project> {
      const wanted: ProjectChanges = {};
      if (input.name !== undefined) wanted.name = normalizeName(input.name);
      if (input.templateId !== undefined) wanted.templateId = requireTemplate(input.templateId).id;
      for (const key of DIMENSION_KEYS) {
        if (input[key] !== undefined) wanted[key] = input[key];
      }
      if (input.artworkJson !== undefined) wanted.artworkJson = input.artworkJson;
      assertProjectId(id);
      return announced(caller.userId, await projects.updateOwned(caller, id, (current) => changedFields(current, wanted), precondition));
    },

    /** Deletes the project, its versions and its exports (their files too). */
    async remove(caller: Caller, id: string, precondition?: VersionPrecondition): Promise<void> {
      assertProjectId(id);
      const exportFiles = deleted(await projects.deleteOwned(caller, id, precondition));
      if (exportFiles.length > 0) await janitor?.removeRecorded(exportFiles);
      await tell(caller.userId, 'project.deleted', { id });
    },

    /** The kept versions, newest first. */
    async listVersions(userId: string, id: string): Promise<ProjectVersionSummary[]> {
      assertProjectId(id);
      const versions = await projects.listVersions(userId, id);
      if (!versions) throw notFound(MESSAGES.projectNotFound);
      return versions;
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
    async restore(caller: Caller, id: string, version: number, precondition?: VersionPrecondition): Promise<Project> {
      assertProjectId(id);
      const outcome = await projects.restoreOwned(caller, id, version, changedFields, precondition);
      return announced(caller.userId, outcome);
    },
  };
}

export type ProjectService = ReturnType<typeof createProjectService>;
