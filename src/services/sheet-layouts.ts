// Sheet layouts (n-up) of a project's blank: how many copies a press sheet holds and where, as
// JSON or as the press sheet PDF with every copy's die on the spot plates. A small blank on a large
// sheet is hundreds of copies to place and draw, so both run in a render child, within its
// deadline, admitted as print work is (one account's one at a time). Layouts are a pure function
// of the blank and the sheet: recent answers are kept in a small LRU.
import { DEFAULT_BLEED_MM, DielineOptionError, DielineSizeError, generateDieline, type Dieline } from '../dielines/index.js';
import { BlankTooLargeError, DEFAULT_MARGIN_MM, type SheetSpec } from '../dielines/layout.js';
import type { StructureOptions } from '../dielines/types.js';
import { structureOptionsOf } from '../schemas/structure.js';
import { badRequest, HttpError, MESSAGES } from '../errors.js';
import type { Renderer } from '../render/index.js';
import type { PrintAdmission } from './print-admission.js';
import type { Project } from '../repositories/projects.js';
import type { LayoutQuery, LayoutReplyBody } from '../schemas/sheet-layouts.js';
import { strongEtag } from '../lib/entity-tags.js';
import { createReplyCache, projectThicknessMm, requireDielineTemplate, type RenderedDielineReply } from './dielines.js';

export const DEFAULT_SHEET: Required<SheetSpec> = {
  widthMm: 787,
  heightMm: 1092,
  gripperMm: 10,
  gapMm: 3,
  marginMm: DEFAULT_MARGIN_MM,
  grain: 'any',
};

const FILE_TYPES = { pdf: 'application/pdf', dxf: 'application/dxf', cf2: 'application/vnd.cf2' } as const;

const CACHE_ENTRIES = 128;
const CACHE_BYTES = 16 * 1024 * 1024;

function projectDieline(project: Project, structure: StructureOptions): Dieline {
  const template = requireDielineTemplate(project.templateId);
  // A container's print layout is a label or a film, not a folding blank to lay out on a sheet.
  if (template.kind !== 'box') throw badRequest(MESSAGES.layoutNeedsBox(template.id));
  try {
    return generateDieline(
      template.id,
      { widthMm: project.widthMm, heightMm: project.heightMm, depthMm: project.depthMm },
      { thicknessMm: projectThicknessMm(template, project.artworkJson), bleedMm: DEFAULT_BLEED_MM, structure },
    );
  } catch (error) {
    if (error instanceof DielineSizeError || error instanceof DielineOptionError) throw badRequest(error.message);
    throw error;
  }
}

export function createSheetLayoutService(renderer: Renderer, admission: PrintAdmission) {
  const cache = createReplyCache(CACHE_ENTRIES, CACHE_BYTES);

  return {
    /** GET /projects/:id/layout (ownership checked by the caller); signal stops the render. */
    async forProject(project: Project, query: LayoutQuery, signal?: AbortSignal): Promise<RenderedDielineReply> {
      const sheet: SheetSpec = {
        widthMm: query.sheetWidthMm ?? DEFAULT_SHEET.widthMm,
        heightMm: query.sheetHeightMm ?? DEFAULT_SHEET.heightMm,
        gripperMm: query.gripperMm ?? DEFAULT_SHEET.gripperMm,
        gapMm: query.gapMm ?? DEFAULT_SHEET.gapMm,
        marginMm: query.marginMm ?? DEFAULT_SHEET.marginMm,
        grain: query.grain ?? DEFAULT_SHEET.grain,
      };
      const format = query.format ?? 'json';
      const structure = structureOptionsOf(query);
      const dieline = projectDieline(project, structure);
      const key = JSON.stringify([dieline.templateId, dieline.dimensions.inside, dieline.thicknessMm, sheet, format, structure]);
      const cached = cache.get(key);
      if (cached) return cached;
      const input = { dieline, sheet, file: format === 'json' ? null : format };
      const { layout, file } = await admission
        .admit(project.userId, () => renderer.run('layout', 'sheet.layout', input, project.userId, signal))
        .catch((error: unknown) => {
          throw error instanceof BlankTooLargeError ? new HttpError(422, error.message) : error;
        });
      const { widthMm, depthMm, heightMm } = dieline.dimensions.inside;
      const stem = `${dieline.templateId}-${widthMm}x${depthMm}x${heightMm}-sheet-${sheet.widthMm}x${sheet.heightMm}`;
      let reply: RenderedDielineReply;
      if (file !== null && format !== 'json') {
        reply = { format, contentType: FILE_TYPES[format], fileName: `${stem}.${format}`, body: file, etag: strongEtag(file) };
      } else {
        const body = JSON.stringify({ layout } satisfies LayoutReplyBody);
        reply = { format, contentType: 'application/json; charset=utf-8', fileName: `${stem}.json`, body, etag: strongEtag(body) };
      }
      cache.set(key, reply);
      return reply;
    },
  };
}
