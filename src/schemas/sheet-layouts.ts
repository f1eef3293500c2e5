// GET /projects/:id/layout: the sheet and spacing in the query, the layout (or the press sheet PDF) back.
import { Type, type Static } from '@sinclair/typebox';
import { DEFAULT_MARGIN_MM, GRAINS } from '../dielines/layout.js';
import { StrictObject } from './common.js';
import { stringEnum } from './dielines.js';
import { StructureQueryProperties } from './structure.js';

const mm = (description: string, minimum: number, maximum: number, byDefault: number) =>
  Type.Number({ minimum, maximum, default: byDefault, description: `${description}, millimetres (${minimum}–${maximum}).` });

export const LayoutQuery = StrictObject({
  sheetWidthMm: Type.Optional(mm('Press sheet width', 100, 2000, 787)),
  sheetHeightMm: Type.Optional(mm('Press sheet height', 100, 2000, 1092)),
  gripperMm: Type.Optional(mm('Gripper margin along the top edge of the sheet, where no copy goes', 0, 50, 10)),
  gapMm: Type.Optional(
    mm('Smallest distance between the cut outlines of two copies; 0 is common-line cutting (shared knives drawn once)', 0, 20, 3),
  ),
  marginMm: Type.Optional(
    mm('Margin along the side lay, tail and trim edges, where no copy goes (the gripper edge keeps gripperMm)', 0, 50, DEFAULT_MARGIN_MM),
  ),
  grain: Type.Optional(
    stringEnum(GRAINS, {
      default: 'any',
      description: "any; along or across: the blank's height runs along or across the sheet's longer side (a square sheet's width).",
    }),
  ),
  format: Type.Optional(
    stringEnum(['json', 'pdf', 'dxf', 'cf2'] as const, {
      default: 'json',
      description:
        "json: { layout }; pdf: the press sheet with every copy's die lines on their spot colours; dxf and cf2: the n-up die (R12 DXF " +
        'with the blank as one BLOCK inserted per copy, CF2 with the blank as one SUB called per copy; with gapMm 0 every copy in place, ' +
        'shared knives once).',
    }),
  ),
  ...StructureQueryProperties,
});
export type LayoutQuery = Static<typeof LayoutQuery>;

const Copy = Type.Object(
  {
    x: Type.Number({ description: "Left edge of the copy's rotated bounding box, mm from the sheet's left edge." }),
    y: Type.Number({ description: "Top edge of the copy's rotated bounding box, mm from the sheet's top edge (y down)." }),
    rotationDeg: Type.Union([Type.Literal(0), Type.Literal(90), Type.Literal(180), Type.Literal(270)], {
      description: 'Clockwise turn of the blank (printed side up) as the sheet is seen.',
    }),
  },
  { additionalProperties: false },
);

export const SheetLayoutSchema = Type.Object(
  {
    across: Type.Integer({ minimum: 1, description: 'Most copies in one row.' }),
    down: Type.Integer({ minimum: 1, description: 'Rows of copies.' }),
    count: Type.Integer({ minimum: 1, description: 'Copies on the sheet.' }),
    rotated: Type.Boolean({ description: 'True when the copies are turned a quarter (90° or 270°).' }),
    utilisation: Type.Number({ minimum: 0, maximum: 1, description: 'count × the cut outline\'s area ÷ the sheet\'s area.' }),
    sheet: Type.Object({ widthMm: Type.Number(), heightMm: Type.Number() }, { additionalProperties: false }),
    copies: Type.Array(Copy),
  },
  {
    $id: 'SheetLayout',
    title: 'SheetLayout',
    additionalProperties: false,
    description:
      'Copies of the blank on a press sheet: rows at 0° or 90°, turned 180° row by row or copy by copy where that fits more, ' +
      'with the gap between cut outlines, no copy in the gripper strip or the margins.',
    examples: [
      {
        across: 2,
        down: 3,
        count: 6,
        rotated: true,
        utilisation: 0.5226,
        sheet: { widthMm: 787, heightMm: 1092 },
        copies: [
          { x: 5, y: 10, rotationDeg: 90 },
          { x: 371, y: 10, rotationDeg: 90 },
        ],
      },
    ],
  },
);

export const LayoutReply = Type.Object({ layout: Type.Ref(SheetLayoutSchema) }, { additionalProperties: false });
export type LayoutReplyBody = { layout: Static<typeof SheetLayoutSchema> };

export const LayoutResponse = {
  description: 'The layout, or with format=pdf the press sheet.',
  headers: {
    etag: Type.String({ description: 'Strong validator: a hash of the body. Send it back in If-None-Match for a 304.' }),
    'cache-control': Type.String({ description: 'private, no-cache' }),
    'content-disposition': Type.String({
      description:
        'pdf, dxf and cf2: filename="<template>-<L>x<W>x<H>-sheet-<width>x<height>.<format>" (inline for pdf, attachment for dxf and cf2).',
    }),
    'x-content-type-options': Type.String({ description: 'nosniff' }),
  },
  content: {
    'application/json': { schema: LayoutReply },
    'application/pdf': {
      schema: Type.String({
        format: 'binary',
        description: 'One page the size of the sheet; every copy\'s die lines in their overprinting spot colours (CutContour, Crease, …).',
      }),
    },
    'application/dxf': {
      schema: Type.String({ description: 'The n-up die: ASCII DXF R12, sheet millimetres, y up; a BLOCK BLANK and one INSERT per copy.' }),
    },
    'application/vnd.cf2': {
      schema: Type.String({ description: 'The n-up die: CF2 with MAIN calling SUB BLANK once per copy (C,BLANK,x,y,angle,1,1).' }),
    },
  },
};
