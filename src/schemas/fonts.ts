import { Type } from '@sinclair/typebox';
import type { Font } from '../repositories/fonts.js';
import { Id, IsoDateTime, StrictObject } from './common.js';

const FontStyleSchema = Type.Union([Type.Literal('normal'), Type.Literal('italic'), Type.Literal('oblique')], {
  description: "From the font's OS/2 selection flags (italic, oblique) and its style name.",
});
const FontWeight = Type.Integer({ minimum: 1, maximum: 1000, description: "OS/2 usWeightClass (400 regular, 700 bold)." });

export const FontSchema = Type.Object(
  {
    id: Id,
    family: Type.String({
      maxLength: 200,
      description: "The family from the font's name table (typographic family, else family): what an SVG's font-family names.",
      examples: ['Inter'],
    }),
    style: FontStyleSchema,
    weight: FontWeight,
    format: Type.Union([Type.Literal('truetype'), Type.Literal('opentype')], {
      description: 'truetype (glyf outlines) or opentype (CFF outlines). A WOFF2 upload is stored decompressed, as the font it holds.',
    }),
    sizeBytes: Type.Integer({ minimum: 0, description: 'Size of the stored (decompressed) font.' }),
    createdAt: IsoDateTime,
  },
  { $id: 'Font', title: 'Font', additionalProperties: false },
);

export const FontReply = Type.Object({ font: Type.Ref(FontSchema) });

export const BundledFamily = Type.Object(
  {
    family: Type.String({ examples: ['DejaVu Sans'] }),
    styles: Type.Array(Type.Object({ style: FontStyleSchema, weight: FontWeight }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);

export const FontListReply = Type.Object({
  fonts: Type.Array(Type.Ref(FontSchema), { description: "The account's fonts, newest first." }),
  bundled: Type.Array(BundledFamily, {
    description:
      'The open-licence families the service ships; sans-serif, ' +
      'serif and monospace resolve to them, and text without a font-family uses the sans.',
  }),
});

// No pattern here: an id of another form is the same 404 as an unknown one.
export const FontParams = StrictObject({ id: Type.String({ description: "The font's id." }) });

export const toFontDto = (font: Font) => ({
  id: font.id,
  family: font.family,
  style: font.style,
  weight: font.weight,
  format: font.format,
  sizeBytes: font.sizeBytes,
  createdAt: font.createdAt.toISOString(),
});
