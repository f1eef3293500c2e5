// Project rules: name normalisation, template check, dimension resolution, the default
// EditorState, the plan's project cap and partial-update semantics. Knows nothing of HTTP beyond
// the status-bearing errors it throws.
import { createId } from '@paralleldrive/cuid2';
import { getTemplate, type Dimensions, type Template } from '../catalog/index.js';
import { badRequest, forbidden, MESSAGES, notFound, unauthorized } from '../errors.js';
import type { Project, ProjectChanges, ProjectRepository } from '../repositories/projects.js';
import { PROJECT_NAME_MAX_LENGTH, type EditorState } from '../schemas/projects.js';
import { projectLimitFor } from './plans.js';
import { isStorableText } from '../lib/text.js';

export interface CreateProjectInput extends Partial<Dimensions> {
  name: string;
  templateId: string;
  artworkJson?: EditorState;
}

export type UpdateProjectInput = Partial<CreateProjectInput>;

const DIMENSION_KEYS = ['widthMm', 'heightMm', 'depthMm'] as const;
export const DEFAULT_THICKNESS_MM = 3;

// Ids are cuid2 (lower-case letters and digits); anything else cannot name a project, and is
// answered like a missing one without a query.
const PROJECT_ID = /^[a-z0-9]{1,64}$/;

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
function changedFields(current: Project, wanted: ProjectChanges): ProjectChanges {
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
  if (!PROJECT_ID.test(id)) throw notFound(MESSAGES.projectNotFound);
}

export function createProjectService(projects: ProjectRepository) {
  return {
    list(userId: string): Promise<Project[]> {
      return projects.listOwned(userId);
    },

    async create(userId: string, input: CreateProjectInput): Promise<Project> {
      const name = normalizeName(input.name);
      const template = requireTemplate(input.templateId);
      const dimensions = resolveDimensions(input, input.artworkJson?.dimensions, template);
      const artworkJson = input.artworkJson ?? defaultEditorState(template, dimensions);
      const outcome = await projects.createWithinLimit(
        { id: createId(), userId, name, templateId: template.id, ...dimensions, artworkJson },
        projectLimitFor,
      );
      switch (outcome.kind) {
        case 'created':
          return outcome.project;
        case 'limit-reached':
          throw forbidden(MESSAGES.projectCap);
        case 'owner-missing':
          // The account was deleted after its token was checked.
          throw unauthorized(MESSAGES.invalidToken);
      }
    },

    async get(userId: string, id: string): Promise<Project> {
      assertProjectId(id);
      const project = await projects.findOwned(userId, id);
      if (!project) throw notFound(MESSAGES.projectNotFound);
      return project;
    },

    /** Sets exactly the fields sent; nothing is re-resolved. No actual change leaves updatedAt alone. */
    async update(userId: string, id: string, input: UpdateProjectInput): Promise<Project> {
      const wanted: ProjectChanges = {};
      if (input.name !== undefined) wanted.name = normalizeName(input.name);
      if (input.templateId !== undefined) wanted.templateId = requireTemplate(input.templateId).id;
      for (const key of DIMENSION_KEYS) {
        if (input[key] !== undefined) wanted[key] = input[key];
      }
      if (input.artworkJson !== undefined) wanted.artworkJson = input.artworkJson;
      assertProjectId(id);
      const project = await projects.updateOwned(userId, id, (current) => changedFields(current, wanted));
      if (!project) throw notFound(MESSAGES.projectNotFound);
      return project;
    },

    async remove(userId: string, id: string): Promise<void> {
      assertProjectId(id);
      if (!(await projects.deleteOwned(userId, id))) throw notFound(MESSAGES.projectNotFound);
    },
  };
}

export type ProjectService = ReturnType<typeof createProjectService>;
