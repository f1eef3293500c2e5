// Print, preview and preflight of a project (extensions §3): query strings and replies, shared with
// OpenAPI. The PDF and PNG replies are raw bytes; the preflight reply is JSON.
import { Type, type Static } from '@sinclair/typebox';
import { CONDITION_KEYS, PREVIEW_DEFAULT_WIDTH, PREVIEW_MAX_WIDTH, PREVIEW_MIN_WIDTH } from '../print/index.js';
import { WHITE_MODES } from '../print/effects.js';
import { StrictObject, StringEnum } from './common.js';
import { WrapPartQuery } from './parts.js';
import { ContainerOptionsProperties } from './containers.js';
import { BleedMm } from './dielines.js';

const BooleanQuery = (description: string) => Type.Boolean({ default: true, description });

/** `condition=`: the printing condition (print and preflight). */
export const ConditionQuery = {
  condition: Type.Optional(
    StringEnum(CONDITION_KEYS, {
      description:
        'Printing condition: fogra39 (FOGRA39, ISO 12647-2 coated), fogra29 (FOGRA29, ISO 12647-2 uncoated) or gracol2006 (CGATS TR 006, ' +
        'GRACoL 2006 coated). Without it, kraft and corrugated designs print for fogra29 and every other material for fogra39. Names the ' +
        'OutputIntent, the slug and the profile; CMYK conversion, grey inks and the ink limit follow it.',
    }),
  ),
};

/** `glueAreas=`: knockout (default) leaves glue areas free of ink; print keeps the artwork on them. */
export const GlueAreasQuery = {
  glueAreas: Type.Optional(
    StringEnum(['knockout', 'print'] as const, {
      default: 'knockout',
      description: 'knockout: no ink on glue areas, so the carton glues; print: the artwork covers them as designed.',
    }),
  ),
};

/** `white=`: the White ink plate under the print (print, preview, model). */
export const WhiteQuery = {
  white: Type.Optional(
    StringEnum(WHITE_MODES, {
      default: 'auto',
      description:
        'White ink under every inked area, choked 0.1 mm: underlay, none, or auto (default): underlay on glass, plastic and aluminium ' +
        'and under a design whose finish is foil, otherwise none.',
    }),
  ),
};

/** `bleedMm=`: print, and preflight (which checks the placement at the same bleed). */
export const BleedQuery = { bleedMm: Type.Optional(BleedMm) };

export const PrintQuery = StrictObject({
  ...BleedQuery,
  marks: Type.Optional(BooleanQuery('Crop marks outside the bleed.')),
  dieline: Type.Optional(BooleanQuery('Cut and crease lines as the overprinting spot colours CutContour and Crease.')),
  colorSpace: Type.Optional(
    StringEnum(['rgb', 'cmyk'] as const, {
      default: 'rgb',
      description:
        "rgb: colours and images in ICC-based sRGB. cmyk: " +
        "converted once with the condition's profile; CMYK JPEGs are placed as uploaded in both.",
    }),
  ),
  richBlack: Type.Optional(
    Type.Boolean({
      default: false,
      description:
        'cmyk: a filled #000 area of at least 400 mm² (the background or an SVG path) ' +
        'prints as rich black 60/40/40/100; text, thin strokes and barcodes stay K only.',
    }),
  ),
  ...ConditionQuery,
  ...GlueAreasQuery,
  ...WhiteQuery,
  mirror: Type.Optional(
    Type.Boolean({
      default: false,
      description:
        'Mirror every page (marks included) for printing on the reverse of a film: ' +
        'sleeves (labelStyle=sleeve), the stand-up pouch and the squeeze tube only.',
    }),
  ),
  ...WrapPartQuery,
  ...ContainerOptionsProperties,
});
export type PrintQuery = Static<typeof PrintQuery>;

export const PreviewQuery = StrictObject({
  width: Type.Optional(
    Type.Integer({
      minimum: PREVIEW_MIN_WIDTH,
      maximum: PREVIEW_MAX_WIDTH,
      default: PREVIEW_DEFAULT_WIDTH,
      description: `Width of the PNG in pixels (${PREVIEW_MIN_WIDTH}–${PREVIEW_MAX_WIDTH}); the height follows the artboard.`,
    }),
  ),
  ...WhiteQuery,
  ...WrapPartQuery,
  ...ContainerOptionsProperties,
});
export type PreviewQuery = Static<typeof PreviewQuery>;

export const FindingSchema = Type.Object(
  {
    severity: Type.Union([Type.Literal('error'), Type.Literal('warning'), Type.Literal('info')]),
    code: Type.String({
      description:
        'TEMPLATE_HAS_NO_DIELINE, DIELINE_SIZE, PANEL_NOT_FOUND, ASSET_NOT_FOUND, BACKGROUND_INVALID, LOW_RESOLUTION, ARTWORK_OUTSIDE, ' +
        'ARTWORK_SCALE, GLUE_AREA, MATERIAL_NOT_OFFERED, PRINT_BUDGET, INK_COVERAGE, SAFE_ZONE, CROSSES_FOLD, CLIPPED, EFFECT_TOO_FINE, ' +
        'EFFECT_CROSSES_FOLD, EFFECT_ON_GLUE, EFFECT_NOT_OFFERED, BOARD_TOO_THIN, BARCODE_SIZE, BARCODE_QUIET_ZONE, BARCODE_CONTRAST, ' +
        'PROFILE_MISMATCH, NO_BLEED, FONT_SUBSTITUTED, FONT_MISSING, SVG_IMAGE_DROPPED, SVG_TOO_COSTLY, THIN_LINE, SMALL_TEXT; ' +
        'containers: SEAL_AREA, OVERLAP_AREA, DISTORTION_ZONE.',
    }),
    message: Type.String(),
    artworkId: Type.Optional(Type.String()),
    panelId: Type.Optional(Type.String()),
  },
  { title: 'Finding', additionalProperties: false },
);

export const PreflightReply = Type.Object({
  preflight: Type.Object(
    {
      ready: Type.Boolean({ description: 'True when no finding is an error.' }),
      findings: Type.Array(FindingSchema),
    },
    { additionalProperties: false },
  ),
});
export type PreflightReply = Static<typeof PreflightReply>;

const cachingHeaders = {
  etag: Type.String({ description: 'Strong validator of the reply. Send it back in If-None-Match for a 304.' }),
  'cache-control': Type.String({ description: 'private, no-cache' }),
};

export const PreflightResponse = {
  description: 'Findings of the preflight: ready is true when none is an error.',
  headers: cachingHeaders,
  content: { 'application/json': { schema: PreflightReply } },
};

export const PrintResponse = {
  description: 'The print-ready PDF: one page per piece.',
  headers: {
    ...cachingHeaders,
    'content-disposition': Type.String({
      description: 'attachment; filename="<project name>-v<version>-<rgb|cmyk>.pdf" (the name in ASCII letters, digits and dashes)',
    }),
  },
  content: { 'application/pdf': { schema: Type.String({ format: 'binary' }) } },
};

export const PreviewResponse = {
  description: 'The printed blank with the dieline over it.',
  headers: cachingHeaders,
  content: { 'image/png': { schema: Type.String({ format: 'binary' }) } },
};
