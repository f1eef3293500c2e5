// Dieline request and reply schemas. The JSON reply is sent pre-serialized (its bytes are hashed
// for the ETag and cached), so DielineSchema documents that body rather than serializing it; the
// service assigns every Dieline to DielineReplyBody, so the compiler keeps the two in step.
import { Type, type Static, type StringOptions } from '@sinclair/typebox';
import { MATERIAL_IDS } from '../catalog/index.js';
import { DEFAULT_BLEED_MM, DIELINE_FORMATS, DIELINE_STYLES, type PanelRole } from '../dielines/index.js';
import { BLEED_LIMITS } from '../dielines/limits.js';
import { CONTAINER_STYLE_IDS } from '../dielines/containers/index.js';
import { DIELINE_PATH_TYPES, ZONE_KINDS } from '../dielines/types.js';
import { StrictObject } from './common.js';
import { BoardPartQuery } from './parts.js';
import { ContainerOptionsProperties } from './containers.js';
import { StructureQueryProperties } from './structure.js';
import { DIMENSION_MAX_MM, DIMENSION_MIN_MM } from './projects.js';

export const stringEnum = <T extends readonly string[]>(values: T, options: StringOptions = {}) =>
  Type.Unsafe<T[number]>({ ...options, type: 'string', enum: [...values] });

const PANEL_ROLES = [
  'wall',
  'bottom',
  'lid',
  'closure',
  'tuck',
  'dust-flap',
  'glue-flap',
  'major-flap',
  'minor-flap',
  'lock-flap',
  'glue-tab',
  'corner-flap',
  'rim',
  'inner-wall',
] as const satisfies readonly PanelRole[];

const STYLE_IDS = [...new Set(Object.values(DIELINE_STYLES)), ...CONTAINER_STYLE_IDS];

// ---- Query strings (numbers arrive as text; the querystring validator coerces them) ----------

/** The largest caliper any style accepts is 12 mm; each style checks its own range. */
export const THICKNESS_QUERY_MAX_MM = 20;

const dimension = (what: string) =>
  Type.Number({
    minimum: DIMENSION_MIN_MM,
    maximum: DIMENSION_MAX_MM,
    description:
      `${what}, inside, in millimetres (${DIMENSION_MIN_MM}–${DIMENSION_MAX_MM}); ` +
      `default: the template's defaultDimensions. Each style accepts a narrower range.`,
  });

export const BleedMm = Type.Number({
  minimum: BLEED_LIMITS.min,
  maximum: BLEED_LIMITS.max,
  default: DEFAULT_BLEED_MM,
  description: `Bleed around every cut outline, in millimetres (${BLEED_LIMITS.min}–${BLEED_LIMITS.max}).`,
});

const FormatQuery = stringEnum(DIELINE_FORMATS, {
  default: 'json',
  description:
    'json: { dieline } (application/json); svg: image/svg+xml in mm units; pdf: vector PDF with spot-colour lines; ' +
    'dxf: ASCII DXF R12 for die-making CAD (application/dxf); cf2: Common Format 2 die file (application/vnd.cf2). ' +
    'A container whose layout has no cut (the can band) has no die: dxf and cf2 answer 400.',
});

const DieOnlyQuery = Type.Boolean({
  default: false,
  description: 'format=dxf: only the die layers (CUT and the rules), without BLEED and SAFE.',
});

/** What both dieline routes take beyond the template's own size and board. */
const renderingQuery = {
  bleedMm: Type.Optional(BleedMm),
  format: Type.Optional(FormatQuery),
  dieOnly: Type.Optional(DieOnlyQuery),
  ...BoardPartQuery,
  ...ContainerOptionsProperties,
  ...StructureQueryProperties,
};

export const TemplateDielineQuery = StrictObject({
  widthMm: Type.Optional(dimension('Length L (front panel width)')),
  heightMm: Type.Optional(dimension('Height H')),
  depthMm: Type.Optional(dimension('Width W (front to back)')),
  thicknessMm: Type.Optional(
    Type.Number({
      exclusiveMinimum: 0,
      maximum: THICKNESS_QUERY_MAX_MM,
      description: 'Board caliper in millimetres; default: a typical board for the material. Each style accepts its own range.',
    }),
  ),
  material: Type.Optional(
    stringEnum(MATERIAL_IDS, {
      description: "One of the template's materials; only chooses the default thicknessMm.",
    }),
  ),
  ...renderingQuery,
});
export type TemplateDielineQuery = Static<typeof TemplateDielineQuery>;

export const ProjectDielineQuery = StrictObject(renderingQuery);
export type ProjectDielineQuery = Static<typeof ProjectDielineQuery>;

// ---- The Dieline model (src/dielines/types.ts) -----------------------------------------------

const Closed = <T extends Parameters<typeof Type.Object>[0]>(properties: T, description?: string) =>
  Type.Object(properties, { additionalProperties: false, ...(description ? { description } : {}) });

const PointSchema = Type.Array(Type.Number(), { minItems: 2, maxItems: 2, description: '[x, y] in millimetres.' });

const BoundsSchema = Closed({ x: Type.Number(), y: Type.Number(), width: Type.Number(), height: Type.Number() });

const BoxDimensionsSchema = Closed({ widthMm: Type.Number(), heightMm: Type.Number(), depthMm: Type.Number() });

const PieceSchema = Closed(
  {
    id: Type.String(),
    name: Type.String(),
    bounds: BoundsSchema,
    outline: Type.Optional(
      Type.Array(PointSchema, {
        description: "The piece's whole cut outline (closed), present when nicks split the cut paths: layout and clipping use it.",
      }),
    ),
  },
  'A separately cut part: `blank`, or `base` and `lid` for the rigid box.',
);

const PanelSchema = Closed(
  {
    id: Type.String({ description: 'Stable kebab-case panelId for artwork placement.' }),
    name: Type.String(),
    role: stringEnum(PANEL_ROLES),
    pieceId: Type.String(),
    polygon: Type.Array(PointSchema),
    bounds: BoundsSchema,
    frame: Closed(
      {
        center: PointSchema,
        rotationDeg: Type.Union([Type.Literal(0), Type.Literal(90), Type.Literal(180), Type.Literal(270)], {
          description: 'Clockwise rotation from the panel\'s upright frame to the blank.',
        }),
        width: Type.Number({ description: 'Extent in the upright frame, millimetres.' }),
        height: Type.Number({ description: 'Extent in the upright frame, millimetres.' }),
      },
      'Where artwork goes: origin at the centre, x right and y down as the panel reads on the assembled box, printed side out.',
    ),
  },
  'A region between creases and cut lines.',
);

const PathSchema = Closed(
  {
    type: stringEnum(DIELINE_PATH_TYPES),
    closed: Type.Boolean(),
    points: Type.Array(PointSchema),
    d: Type.String({ description: 'The same geometry as SVG path data, in millimetres.' }),
    role: Type.Optional(
      stringEnum(['outline', 'hole', 'slit'] as const, {
        description:
          'Cut lines only: outline (closed; with nicks, the open runs between them), ' +
          'hole (an inner cut-out, likewise) or slit (an open cut ending in the board).',
      }),
    ),
    pieceId: Type.Optional(Type.String()),
    panelId: Type.Optional(Type.String()),
    zone: Type.Optional(stringEnum(ZONE_KINDS, { description: 'zone paths only: what the zone marks.' })),
  },
  'cut (outline, hole or slit); the rules crease, reverse-crease, perforation, half-cut and v-groove (one segment each); bleed (per ' +
    'piece), safe and glue (per panel); on containers zone (overlap, seal, unprinted, shrink, neck, base, zipper, fold) and eyemark.',
);

export const DielineSchema = Type.Object(
  {
    templateId: Type.String(),
    style: stringEnum(STYLE_IDS),
    styleName: Type.String(),
    units: Type.Literal('mm'),
    thicknessMm: Type.Number({ description: 'Board caliper the geometry was built for.' }),
    bleedMm: Type.Number(),
    safeMarginMm: Type.Number(),
    blank: Closed({ width: Type.Number(), height: Type.Number() }, 'Size of the cut blank.'),
    artboard: Type.Object(BoundsSchema.properties, {
      additionalProperties: false,
      description: 'Blank plus bleed on every side: the SVG viewBox and the PDF page.',
    }),
    dimensions: Closed({ inside: BoxDimensionsSchema, outside: BoxDimensionsSchema }),
    parameters: Type.Object(
      {},
      { additionalProperties: Type.Number(), description: 'Derived construction values of the style, in millimetres.' },
    ),
    pieces: Type.Array(PieceSchema),
    panels: Type.Array(PanelSchema),
    paths: Type.Array(PathSchema),
  },
  {
    $id: 'Dieline',
    title: 'Dieline',
    additionalProperties: false,
    description:
      'Flat blank in millimetres, origin top-left, y down, printed side up; coordinates rounded to 0.001 mm.',
  },
);

export const DielineReply = Type.Object({ dieline: Type.Ref(DielineSchema) }, { additionalProperties: false });
export type DielineReplyBody = Static<typeof DielineReply>;

/** The 200 answer in its three media types, with the caching headers every variant carries. */
export const DielineResponse = {
  description: 'The dieline, in the media type chosen by `format`.',
  headers: {
    etag: Type.String({ description: 'Strong validator: a hash of the body. Send it back in If-None-Match for a 304.' }),
    'cache-control': Type.String({
      description: 'public, max-age=86400 on /templates; private, max-age=86400 on /v1; private, no-cache on /projects.',
    }),
    'content-disposition': Type.String({
      description: 'svg and pdf only: inline; filename="<template>-<L>x<W>x<H>.<format>".',
    }),
    'content-security-policy': Type.String({
      description: "svg only: default-src 'none'; style-src 'unsafe-inline'; sandbox — nothing in the document can run.",
    }),
    'x-content-type-options': Type.String({ description: 'nosniff' }),
  },
  content: {
    'application/json': { schema: DielineReply },
    'image/svg+xml': {
      schema: Type.String({ description: 'An SVG document sized in mm (viewBox in mm), one group per line type.' }),
    },
    'application/pdf': {
      schema: Type.String({
        format: 'binary',
        description:
          'A one-page vector PDF: the artboard as the page, lines in the spot colours CutContour, Crease, Glue, Bleed and SafeArea.',
      }),
    },
    'application/dxf': {
      schema: Type.String({
        description:
          'ASCII DXF R12 ($ACADVER AC1009, $INSUNITS 4): millimetres, print side up, y up (y = blank height − the dieline\'s y); ' +
          'LINE, ARC and CIRCLE entities on the layers CUT, CREASE, REVERSE_CREASE, PERFORATION, HALF_CUT and V_GROOVE (each where the ' +
          'dieline has such lines), BLEED and SAFE (left out with dieOnly=true).',
        examples: ['0\r\nSECTION\r\n2\r\nHEADER\r\n9\r\n$ACADVER\r\n1\r\nAC1009\r\n…'],
      }),
    },
    'application/vnd.cf2': {
      schema: Type.String({
        description:
          'Common Format 2: $BOF, V2, ORDER…END, MAIN,<TEMPLATE>…END with UM, LL, UR, SCALE and the rules ' +
          '(L,p,t,0,x1,y1,x2,y2,0,0 and A,p,t,0,sx,sy,ex,ey,cx,cy,d,0,0; t 1 cut, ' +
          '2 crease, 3 perforation, 4 half-cut, 5 reverse crease, 6 V-groove; ' +
          'd 1 counter-clockwise, −1 clockwise; bridges 0,0; ' +
          'pointage p 2 for folding carton, 3 for corrugated), then $EOF. Millimetres, print side up, y up.',
        examples: [
          '$BOF\r\nV2\r\nORDER\r\nMAIN,RSC-BOX\r\nEND\r\nMAIN,RSC-BOX\r\nUM\r\n' +
            'LL,0,0\r\nUR,1090,312\r\nSCALE,1,1\r\nL,3,1,0,0,0,30,0,0,0\r\n…',
        ],
      }),
    },
  },
};
