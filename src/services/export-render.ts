// What each export format renders, through the same service functions the synchronous routes call
// (so an export inherits their limits, deadlines and render pool), and which options it takes:
// the synchronous route's query schema, checked as JSON (no coercion).
import type { TSchema } from '@sinclair/typebox';
import type { Readable } from 'node:stream';
import { DIELINE_FORMATS, type DielineFormat } from '../dielines/index.js';
import { badRequest } from '../errors.js';
import { createValidators, formatValidationError } from '../lib/validation.js';
import type { Project } from '../repositories/projects.js';
import { StrictObject } from '../schemas/common.js';
import { ProjectDielineQuery } from '../schemas/dielines.js';
import { ProjectModelQuery } from '../schemas/models.js';
import { PreviewQuery, PrintQuery } from '../schemas/print.js';
import type { DielineService } from './dielines.js';
import type { ModelService } from './models.js';
import type { PrintService } from './print.js';

export const EXPORT_FORMATS = [
  'print-pdf',
  'preview-png',
  'model-glb',
  'dieline-svg',
  'dieline-pdf',
  'dieline-dxf',
  'dieline-cf2',
] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

// The project dieline route's query; the format comes from the export's own format.
const DielineExportOptions = StrictObject({ bleedMm: ProjectDielineQuery.properties.bleedMm });

export const EXPORT_OPTION_SCHEMAS = {
  'print-pdf': PrintQuery,
  'preview-png': PreviewQuery,
  'model-glb': ProjectModelQuery,
  'dieline-svg': DielineExportOptions,
  'dieline-pdf': DielineExportOptions,
  'dieline-dxf': DielineExportOptions,
  'dieline-cf2': DielineExportOptions,
} satisfies Record<ExportFormat, TSchema>;

/** Every format's name ends in its file's extension. */
export const extensionOf = (format: ExportFormat) => format.slice(format.indexOf('-') + 1);

const dielineFormatOf = (format: ExportFormat): string | null => (format.startsWith('dieline-') ? format.slice('dieline-'.length) : null);

export interface ExportFile {
  /** A print PDF comes as the stream of its render's file (see RenderedFile). */
  body: Buffer | Readable;
  contentType: string;
  downloadName: string;
}

export interface ExportRenderers {
  print: PrintService;
  models: ModelService;
  dielines: DielineService;
}

export function createExportOptionsCheck() {
  const validators = createValidators();
  const compiled = new Map(EXPORT_FORMATS.map((format) => [format, validators.compile(EXPORT_OPTION_SCHEMAS[format], 'body')]));
  /** The options as the format's synchronous route would take them; a 400 naming the field otherwise. */
  return (format: ExportFormat, options: Record<string, unknown>): void => {
    const dielineFormat = dielineFormatOf(format);
    if (dielineFormat !== null && !(DIELINE_FORMATS as readonly string[]).includes(dielineFormat)) {
      throw badRequest(`Export format '${format}' is not supported by this server.`);
    }
    const validate = compiled.get(format)!;
    if (!validate(options)) throw badRequest(formatValidationError(validate.errors ?? [], 'body/options'));
  };
}

export async function renderExport(
  renderers: ExportRenderers,
  project: Project,
  format: ExportFormat,
  options: Record<string, unknown>,
): Promise<ExportFile> {
  switch (format) {
    case 'print-pdf': {
      const file = await (await renderers.print.print(project, options as PrintQuery)).render();
      return { body: file.body, contentType: file.contentType, downloadName: file.fileName };
    }
    case 'preview-png': {
      const body = await (await renderers.print.preview(project, options as PreviewQuery)).render();
      return {
        body,
        contentType: 'image/png',
        downloadName: `${project.templateId}-${project.widthMm}x${project.depthMm}x${project.heightMm}-preview.png`,
      };
    }
    case 'model-glb': {
      const model = await renderers.models.forProject(project, options as ProjectModelQuery);
      return { body: model.body, contentType: model.contentType, downloadName: model.fileName };
    }
    default: {
      // The dieline formats: the service's own format names follow the prefix.
      const reply = await renderers.dielines.forProject(project, { ...options, format: dielineFormatOf(format) as DielineFormat });
      return {
        body: typeof reply.body === 'string' ? Buffer.from(reply.body, 'utf8') : reply.body,
        contentType: reply.contentType,
        downloadName: reply.fileName,
      };
    }
  }
}
