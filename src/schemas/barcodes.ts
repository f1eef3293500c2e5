import { Type } from '@sinclair/typebox';
import { BAR_WIDTH_REDUCTION_MAX_MM, BARCODE_TYPES, MAGNIFICATION_RANGE, QR_MAX_CHARACTERS } from '../barcodes/types.js';
import { StrictObject } from './common.js';

const BarcodeTypeSchema = Type.Union(
  BARCODE_TYPES.map((type) => Type.Literal(type)),
  { description: 'The symbology: EAN-13, EAN-8, UPC-A, UPC-E, ITF-14, GS1-128, GS1 DataMatrix or QR Code.' },
);

export const BarcodeBody = StrictObject(
  {
    type: BarcodeTypeSchema,
    data: Type.String({
      minLength: 1,
      maxLength: QR_MAX_CHARACTERS,
      description:
        'EAN/UPC/ITF-14: the digits, with or without the check digit (computed when left out, verified when given). ' +
        'gs1-128 and gs1-datamatrix: a GS1 element string, every AI in parentheses, e.g. (01)09501101530003(17)250101(10)AB12. ' +
        'qrcode: any text up to 1,000 characters, a GS1 Digital Link URL included.',
      examples: ['590123412345'],
    }),
    magnification: Type.Optional(
      Type.Number({
        minimum: MAGNIFICATION_RANGE.min,
        maximum: MAGNIFICATION_RANGE.max,
        description: 'EAN/UPC only: 0.8 to 2.0 (default 1, an X-dimension of 0.33 mm).',
      }),
    ),
    moduleMm: Type.Optional(
      Type.Number({
        minimum: 0.25,
        maximum: 1.016,
        description:
          'The module (X-dimension) in mm, for the types not sized by magnification: itf14 0.495–1.016 (default 1.016), ' +
          'gs1-128 0.25–1.016 (default 0.495), gs1-datamatrix and qrcode 0.25–1.0 (default 0.5).',
      }),
    ),
    barWidthReductionMm: Type.Optional(
      Type.Number({
        minimum: 0,
        maximum: BAR_WIDTH_REDUCTION_MAX_MM,
        description: 'Narrows every bar (every dark module of a 2D symbol) by this much, mm (default 0).',
      }),
    ),
    humanReadable: Type.Optional(
      Type.Boolean({ description: 'Writes the digits under a linear symbol as outlined text (default true). 2D symbols have none.' }),
    ),
  },
  { description: 'A barcode to make.' },
);

export const BarcodeFactsSchema = Type.Object(
  {
    type: BarcodeTypeSchema,
    data: Type.String({ description: 'The encoded data: digits with the check digit, the GS1 element string, or the text.' }),
    magnification: Type.Union([Type.Number(), Type.Null()], {
      description: 'EAN/UPC: the magnification made; null for the types sized by module.',
    }),
    moduleMm: Type.Number({ description: 'The module (X-dimension) made, mm.' }),
    widthMm: Type.Number({ description: 'The whole symbol with its quiet zones, mm: the SVG width.' }),
    heightMm: Type.Number({ description: 'The whole symbol with its quiet zones and human-readable line, mm: the SVG height.' }),
  },
  { additionalProperties: false, description: 'Set when the service made this asset as a barcode (POST /barcodes); null for uploads.' },
);
