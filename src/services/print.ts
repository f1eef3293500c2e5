// Print, preview and preflight of a project: resolves the owner's assets (never anything else),
// builds the dieline and the placement, and hands them to the pure src/print renderers, which run
// in a render child (src/render/) within their deadline and stop when the client goes away, once
// the print admission (print-admission.ts) lets them.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { getTemplate, type Template } from '../catalog/index.js';
import type { ContainerOptions } from '../dielines/containers/index.js';
import { DEFAULT_BLEED_MM, DielineSizeError, type Bounds } from '../dielines/index.js';
import { badRequest, HttpError, MESSAGES } from '../errors.js';
import {
  conditionForMaterial,
  DEFAULT_GLUE_AREAS,
  dielineSizeFinding,
  noDielineFinding,
  placeDesign,
  preflightPlacement,
  printCondition,
  PREVIEW_DEFAULT_WIDTH,
  referencedAssetNames,
  report,
  type AssetLookup,
  type DesignState,
  type ImageCacheSettings,
  type Finding,
  type PreflightReport,
  type PrintOptions,
  type ResolvedAsset,
  type StructureOptions,
  type TextureLook,
  type TextureMaps,
} from '../print/index.js';
import { unwrapPlacement, zoneFindings } from '../print/containers.js';
import { effectDetailFindings } from '../print/effect-findings.js';
import { resolveWhite, substrateColor } from '../print/effects.js';
import { barcodeFindings } from '../print/barcode-checks.js';
import { svgIntrinsicSize } from '../print/svg-size.js';
import { noBleedFindings } from '../print/bleed-findings.js';
import { inkCoverageFindings, inkMeasuredAssets } from '../print/ink-coverage.js';
import { profileMismatchFindings } from '../print/profile-match.js';
import type { PrintCondition } from '../print/conditions.js';
import type { TextureAtlas } from '../print/atlas.js';
import { LRUCache } from 'lru-cache';
import { readWhole } from '../lib/read-whole.js';
import type { FontFace } from '../print/fonts.js';
import { minimumFindings } from '../print/minimums.js';
import { svgFacts as readSvgFacts, svgFindings, type SvgFacts } from '../print/svg-findings.js';
import { SVG_MIME } from '../print/pdf.js';
import type { Renderer } from '../render/index.js';
import type { AssetRepository, PlacedFile, StoredFile } from '../repositories/assets.js';
import type { Project } from '../repositories/projects.js';
import type { PartQuery } from '../schemas/parts.js';
import type { PreflightQuery } from '../schemas/preflight.js';
import type { PreviewQuery, PrintQuery } from '../schemas/print.js';
import type { FileStorage } from '../storage/index.js';
import { strongEtag } from '../lib/entity-tags.js';
import { projectThicknessMm } from './dielines.js';
import { resolvePart, type ResolvedPart } from './parts.js';
import type { PrintAdmission } from './print-admission.js';
import type { createFontService } from './fonts.js';
import {
  containerOptionsKey,
  containerOptionsOf,
  hasPrintGeometry,
  printGeometry,
  requireContainerOptions,
  type PrintGeometry,
} from './print-geometry.js';

/** Ink totals remembered (a number each, keyed by image digest and condition). */
const INK_CACHE_ENTRIES = 10_000;

/** Bump when the renderers change their output for the same inputs (the ETags change with it). */
const RENDERER_VERSION = 3;

/**
 * A print file as the render child wrote it: a stream of a file that is already unlinked (its
 * descriptor closes when the stream ends or is destroyed), so a file of large photos is neither
 * held in memory nor left on disk. Whoever takes it sends or stores the stream, or destroys it.
 */
export interface RenderedFile {
  body: Readable;
  /** Bytes in body. */
  size: number;
  contentType: string;
  fileName: string;
}

/** `<project name>-v<version>-<rgb|cmyk>.pdf`, the name in ASCII letters, digits and dashes. */
export function printFileName(project: Pick<Project, 'name' | 'version'>, colorSpace: string): string {
  const name =
    project.name
      .normalize('NFKD')
      .replace(/[\u0300-\u036f]/g, '')
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, 80)
      .replace(/-+$/, '') || 'project';
  return `${name}-v${project.version}-${colorSpace}.pdf`;
}

/** A 304 needs only the ETag: the body is rendered only when the client does not have it. */
export interface Conditional<T> {
  etag: string;
  /** signal: aborts when the client goes away, and the render stops. */
  render(signal?: AbortSignal): Promise<T>;
}

/**
 * A placed image as print reads it: its size as shown (EXIF orientation applied) from its row, as
 * measured when it was stored, and its bytes. An SVG keeps its exact proportions (viewBox or
 * physical size), not the rounded ones of its rasterised size. Null when the row has no size (an
 * image that could not be read) or storage no longer has the file.
 */
export async function describeAsset(storage: FileStorage, file: PlacedFile): Promise<ResolvedAsset | null> {
  const { name, mimeType, widthPx, heightPx, sizeBytes, barcode } = file;
  if (!widthPx || !heightPx) return null;
  const localFile = mimeType !== SVG_MIME && storage.localPath ? storage.localPath(name) : null;
  if (localFile) {
    // A raster on this machine's disk: its bytes are read only where needed (a render child reads the file itself).
    if (!(await storage.stat(name))) return null;
    let bytes: Promise<Buffer> | undefined;
    return { name, mimeType, widthPx, heightPx, sizeBytes, barcode, localFile, load: () => (bytes ??= readFile(localFile)) };
  }
  const opened = await storage.open(name);
  if (!opened) return null;
  const data = await readWhole(opened.stream, opened.size);
  const intrinsic = mimeType === SVG_MIME ? svgIntrinsicSize(data.toString('utf8')) : null;
  const shownHeight = intrinsic ? (widthPx * intrinsic.height) / intrinsic.width : heightPx;
  return { name, mimeType, widthPx, heightPx: shownHeight, sizeBytes, barcode, load: async () => data };
}

interface Prepared {
  template: Template;
  /** The owner's fonts, as files. */
  fonts: FontFace[];
  /** What each SVG asset holds (fonts, images), by stored name. */
  svgFacts: Map<string, SvgFacts>;
  /** Set when the design can be placed. */
  dieline: PrintGeometry['dieline'] | null;
  textureWindow?: Bounds;
  findings: PreflightReport['findings'];
  assets: AssetLookup;
  state: DesignState;
}

/** The 409 of a print refused for preflight errors; it carries them (a failed export shows them). */
export class PreflightRefusal extends HttpError {
  constructor(readonly findings: Finding[]) {
    super(409, MESSAGES.printPreflightErrors);
  }
}

export function createPrintService(
  assetRows: AssetRepository,
  storage: FileStorage,
  publicBaseUrl: string | null,
  renderer: Renderer,
  admission: PrintAdmission,
  fonts: Pick<ReturnType<typeof createFontService>, 'identity' | 'ownerFonts'>,
  imageCache: ImageCacheSettings | null,
) {
  const baseUrl = publicBaseUrl ?? undefined;

  /** The owner's rows for every asset the design names: cheap, no file is read. */
  async function ownedFiles(project: Project): Promise<Map<string, PlacedFile | null>> {
    const names = referencedAssetNames((project.artworkJson ?? {}) as DesignState, baseUrl);
    const rows = names.length === 0 ? [] : await assetRows.findOwnedByNames(project.userId, names);
    const files = new Map<string, PlacedFile | null>(names.map((name) => [name, null]));
    for (const row of rows) files.set(row.name, row);
    return files;
  }

  async function prepare(
    project: Project,
    files: Map<string, PlacedFile | null>,
    bleedMm: number,
    part: ResolvedPart,
    containers: ContainerOptions = {},
  ): Promise<Prepared> {
    const template = getTemplate(project.templateId)!;
    const state = (project.artworkJson ?? {}) as DesignState;
    const unplaceable = (finding: Finding): Prepared => ({
      template,
      dieline: null,
      findings: [finding],
      assets: new Map(),
      state,
      fonts: [],
      svgFacts: new Map(),
    });
    if (!hasPrintGeometry(template)) return unplaceable(noDielineFinding(template.id));
    let geometry: PrintGeometry;
    try {
      geometry = printGeometry(
        template,
        { widthMm: project.widthMm, heightMm: project.heightMm, depthMm: project.depthMm },
        {
          containers,
          bleedMm,
          part,
          ...(template.kind === 'box' ? { thicknessMm: projectThicknessMm(template, project.artworkJson) } : {}),
        },
      );
    } catch (error) {
      if (error instanceof DielineSizeError) return unplaceable(dielineSizeFinding(error.message));
      throw error;
    }
    const assets = new Map<string, ResolvedAsset | null>();
    for (const [name, file] of files) assets.set(name, file ? await describeAsset(storage, file) : null);
    const { faces } = await fonts.ownerFonts(project.userId);
    const svgFacts = new Map<string, SvgFacts>();
    for (const asset of assets.values()) {
      if (asset?.mimeType === SVG_MIME) svgFacts.set(asset.name, readSvgFacts(await asset.load(), faces));
    }
    return { template, ...geometry, findings: [], assets, state, fonts: faces, svgFacts };
  }

  const isPlaceable = (prepared: Prepared): prepared is Prepared & { dieline: PrintGeometry['dieline'] } => prepared.dieline !== null;

  /** The design on the geometry; a wrapping layout's images repeated across its ends. */
  function place(prepared: Prepared & { dieline: PrintGeometry['dieline'] }) {
    const placement = unwrapPlacement(
      placeDesign({ dieline: prepared.dieline, state: prepared.state, assets: prepared.assets, publicBaseUrl: baseUrl }),
    );
    return { ...placement, fonts: prepared.fonts };
  }

  function preflightOf(prepared: Prepared, options: StructureOptions = {}): PreflightReport {
    if (!isPlaceable(prepared)) return report(prepared.findings);
    const placement = place(prepared);
    const checked = preflightPlacement(placement, prepared.state.material, prepared.template.materials, options);
    // A container's label is not folded: it has no fold to cross.
    const structure =
      prepared.template.kind === 'box' ? checked.findings : checked.findings.filter((finding) => finding.code !== 'CROSSES_FOLD');
    return report([
      ...structure,
      ...zoneFindings(placement),
      ...svgFindings(placement, prepared.svgFacts),
      ...barcodeFindings(placement, prepared.state),
    ]);
  }

  /** Highest total ink by asset digest and condition: an image is decoded once per condition. */
  const inkTotals = new LRUCache<string, number>({ max: INK_CACHE_ENTRIES });

  /**
   * Each asset's highest total ink in condition: from the cache, else measured in a render child
   * for account (the preflight's own deadline), all the uncached images in one task.
   */
  async function measuredInk(
    assets: ResolvedAsset[],
    condition: PrintCondition,
    account: string,
    signal?: AbortSignal,
  ): Promise<Map<string, number>> {
    const totals = new Map<string, number>();
    const missing: Array<{ asset: ResolvedAsset; key: string }> = [];
    for (const asset of assets) {
      const key = `${createHash('sha256')
        .update(await asset.load())
        .digest('hex')}:${condition.key}`;
      const total = inkTotals.get(key);
      if (total === undefined) missing.push({ asset, key });
      else totals.set(asset.name, total);
    }
    if (missing.length === 0) return totals;
    const measured = await renderer.run(
      'preflight',
      'print.inkCoverage',
      { assets: missing.map(({ asset }) => asset), condition },
      account,
      signal,
    );
    missing.forEach(({ asset, key }, index) => {
      inkTotals.set(key, measured[index]!);
      totals.set(asset.name, measured[index]!);
    });
    return totals;
  }

  /** The request's container options, checked against the template (400 when one does not apply). */
  function optionsFor(project: Project, query: ContainerOptions): ContainerOptions {
    const options = containerOptionsOf(query);
    requireContainerOptions(getTemplate(project.templateId)!, options);
    return options;
  }

  /** Each named image: its name, and its stored size, or null when the owner has no such image. */
  const filesIdentity = (files: Map<string, StoredFile | null>) => [...files].map(([name, file]) => [name, file ? file.sizeBytes : null]);

  /** Everything the output depends on: the project as stored, the query and each asset's identity. */
  function inputEtag(kind: string, project: Project, query: unknown, files: Map<string, StoredFile | null>, fontSet: string): string {
    const key = JSON.stringify([
      fontSet,
      RENDERER_VERSION,
      kind,
      project.id,
      project.templateId,
      project.widthMm,
      project.heightMm,
      project.depthMm,
      project.artworkJson,
      query,
      filesIdentity(files),
    ]);
    return strongEtag(createHash('sha256').update(key).digest());
  }

  /** What goes to press: the wrap of a template with parts unless the board is asked for. */
  function printedPart(project: Project, query: PartQuery): ResolvedPart {
    return resolvePart(project.templateId, query, 'wrap');
  }

  function requireDieline(project: Project): void {
    const template = getTemplate(project.templateId);
    if (!template || !hasPrintGeometry(template)) throw badRequest(MESSAGES.templateHasNoDieline(project.templateId));
  }

  const optionsKey = (project: Project, options: ContainerOptions) => containerOptionsKey(getTemplate(project.templateId)!, options);

  return {
    /**
     * GET /projects/:id/preflight: the placement's findings at the bleed asked for, plus each
     * image's ink coverage and profile in the condition. The body is small, its hash is the ETag.
     */
    async preflight(project: Project, query: PreflightQuery = {}, signal?: AbortSignal): Promise<{ body: string; etag: string }> {
      const containers = optionsFor(project, query);
      const files = await ownedFiles(project);
      const part = printedPart(project, query);
      const bleedMm = query.bleedMm ?? DEFAULT_BLEED_MM;
      const result = await admission.admit(project.userId, async () => {
        const prepared = await prepare(project, files, bleedMm, part, containers);
        const base = preflightOf(prepared, { glueAreas: query.glueAreas ?? DEFAULT_GLUE_AREAS });
        if (!isPlaceable(prepared)) return base;
        const placement = place(prepared);
        const printing = printCondition(query.condition ?? conditionForMaterial(prepared.state.material));
        const totals = await measuredInk(inkMeasuredAssets(placement), printing, project.userId, signal);
        const profiles = await profileMismatchFindings(placement, printing);
        const minimums = await minimumFindings(placement, prepared.svgFacts, printing);
        return report([
          ...base.findings,
          ...noBleedFindings(prepared.dieline, bleedMm),
          ...inkCoverageFindings(placement, printing, totals),
          ...profiles,
          ...(await effectDetailFindings(placement)),
          ...minimums,
        ]);
      });
      const body = JSON.stringify({ preflight: result });
      return { body, etag: strongEtag(JSON.stringify([body, await fonts.identity(project.userId)])) };
    },

    /** GET /projects/:id/print. Preflight runs at the requested bleed; any error finding → 409. */
    async print(project: Project, query: PrintQuery): Promise<Conditional<RenderedFile>> {
      requireDieline(project);
      const part = printedPart(project, query);
      const containers = optionsFor(project, query);
      // `mirror` is for film printed on its reverse: a sleeve, the pouch's web, the tube's laminate.
      const film = project.templateId === 'stand-up-pouch' || project.templateId === 'squeeze-tube' || containers.labelStyle === 'sleeve';
      if (query.mirror && !film) throw badRequest(MESSAGES.mirrorNotFilm);
      const design = (project.artworkJson ?? {}) as DesignState;
      const options: PrintOptions = {
        bleedMm: query.bleedMm ?? DEFAULT_BLEED_MM,
        marks: query.marks ?? true,
        dieline: query.dieline ?? true,
        colorSpace: query.colorSpace ?? 'rgb',
        condition: query.condition ?? conditionForMaterial(design.material),
        glueAreas: query.glueAreas ?? 'knockout',
        white: resolveWhite(query.white, design.material, design.finish),
        mirror: query.mirror ?? false,
        richBlack: query.richBlack ?? false,
        documentDate: project.updatedAt.toISOString(),
        slug: { projectName: project.name, version: project.version },
      };
      const files = await ownedFiles(project);
      return {
        // The options carry the project's name, version and date: the slug and the file's dates.
        etag: inputEtag('print', project, [options, part, optionsKey(project, containers)], files, await fonts.identity(project.userId)),
        render: (signal) =>
          admission.admit(project.userId, async () => {
            const prepared = await prepare(project, files, options.bleedMm, part, containers);
            const checked = preflightOf(prepared, { glueAreas: options.glueAreas });
            if (!checked.ready || !isPlaceable(prepared)) {
              throw new PreflightRefusal(checked.findings.filter((finding) => finding.severity === 'error'));
            }
            const input = { placement: place(prepared), options, imageCache };
            const file = await renderer.runToFile('print', 'print.pdf', input, project.userId, signal);
            const fileName = printFileName(project, options.colorSpace);
            return { body: file.stream, size: file.size, contentType: 'application/pdf', fileName };
          }),
      };
    },

    /**
     * The print as a 3D model's texture: a box's printed blank (no dieline lines) drawn into the
     * model's `atlas`, or a container's print layout over its texture window (the part the model
     * shows), `sizePx` on its longer side. Unreadable or foreign images are left out; null for a
     * size the style or layout cannot build, or a design with nothing to print.
     */
    async texture(
      project: Project,
      container: ContainerOptions | null,
      sizePx: number,
      look: TextureLook,
      signal?: AbortSignal,
      atlas?: TextureAtlas,
    ): Promise<TextureMaps | null> {
      const files = await ownedFiles(project);
      const part = container ? { part: 'board' as const } : printedPart(project, {});
      return admission.admit(project.userId, async () => {
        const prepared = await prepare(project, files, DEFAULT_BLEED_MM, part, container ?? {});
        if (!isPlaceable(prepared)) return null;
        const placement = place(prepared);
        if (placement.pieces.every((piece) => piece.background === null && piece.images.length === 0)) return null;
        const input = { placement, sizePx, window: prepared.textureWindow, look, ...(atlas && !container ? { atlas } : {}) };
        return renderer.run('texture', 'print.texture', input, project.userId, signal);
      });
    },

    /** The identity of each image the design names: one query, no file read. */
    async imagesIdentity(project: Project): Promise<string> {
      return JSON.stringify([filesIdentity(await ownedFiles(project)), await fonts.identity(project.userId)]);
    },

    /** GET /projects/:id/preview. Anything that cannot be placed is left out; a size error is a 400. */
    async preview(project: Project, query: PreviewQuery): Promise<Conditional<Buffer>> {
      requireDieline(project);
      const containers = optionsFor(project, query);
      const width = query.width ?? PREVIEW_DEFAULT_WIDTH;
      const part = printedPart(project, query);
      const files = await ownedFiles(project);
      return {
        etag: inputEtag(
          'preview',
          project,
          [{ width, white: query.white ?? 'auto', ...part }, optionsKey(project, containers)],
          files,
          await fonts.identity(project.userId),
        ),
        render: (signal) =>
          admission.admit(project.userId, async () => {
            const prepared = await prepare(project, files, DEFAULT_BLEED_MM, part, containers);
            if (!isPlaceable(prepared)) throw badRequest(prepared.findings[0]!.message);
            const substrate = substrateColor(prepared.state.material);
            const white = resolveWhite(query.white, prepared.state.material, prepared.state.finish);
            const look = { substrate, effects: 'preview' as const, translucentInk: substrate === null && white === 'none' };
            return renderer.run('preview', 'print.preview', { placement: place(prepared), widthPx: width, look }, project.userId, signal);
          }),
      };
    },
  };
}

export type PrintService = ReturnType<typeof createPrintService>;
