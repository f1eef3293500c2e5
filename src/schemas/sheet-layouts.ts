// GET /projects/:id/layout: the sheet and spacing in the query, the layout (or the press sheet PDF) back.
import { Type, type Static } from '@sinclair/typebox';
import { StrictObject } from './common.js';
import { stringEnum } from './dielines.js';

const mm = (description: string, minimum: number, maximum: number, byDefault: number) =>
  Type.Number({ minimum, maximum, default: byDefault, description: `${description}, millimetres (${minimum}–${maximum}).` });

export const LayoutQuery = StrictObject({
  sheetWidthMm: Type.Optional(mm('Press sheet width', 100, 2000, 787)),
  sheetHeightMm: Type.Optional(mm('Press sheet height', 100, 2000, 1092)),
  gripperMm: Type.Optional(mm('Gripper margin along the top edge of the sheet, where no copy goes', 0, 50, 10)),
  gapMm: Type.Optional(mm('Smallest distance between the cut outlines of two copies', 0, 20, 3)),
  format: Type.Optional(
    stringEnum(['json', 'pdf'] as const, {
      default: 'json',
      description: "json: { layout }; pdf: the press sheet with every copy's cut and crease on the CutContour and Crease spot colours.",
    }),
  ),
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
      'Copies of the blank on a press sheet: rows at 0° or 90°, nested with 180° turns where the outline allows, ' +
      'with the gap between cut outlines and no copy in the gripper strip.',
    examples: [
      {
        across: 2,
        down: 3,
        count: 6,
        rotated: true,
        utilisation: 0.5226,
        sheet: { widthMm: 787, heightMm: 1092 },
        copies: [
          { x: 0, y: 10, rotationDeg: 90 },
          { x: 366, y: 10, rotationDeg: 90 },
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
      description: 'pdf only: inline; filename="<template>-<L>x<W>x<H>-sheet-<width>x<height>.pdf".',
    }),
    'x-content-type-options': Type.String({ description: 'nosniff' }),
  },
  content: {
    'application/json': { schema: LayoutReply },
    'application/pdf': {
      schema: Type.String({
        format: 'binary',
        description: 'One page the size of the sheet; every copy\'s cut and crease lines in the overprinting CutContour and Crease spot colours.',
      }),
    },
  },
};
