// GET /projects/:id/mockup (only with MOCKUP_ENABLED): query and the PNG reply, shared with OpenAPI.
import { Type, type Static } from '@sinclair/typebox';
import { StrictObject, StringEnum } from './common.js';
import { LIGHTING_IDS } from './projects.js';

export const MOCKUP_MIN_SIDE = 256;
export const MOCKUP_MAX_SIDE = 4096;
export const MOCKUP_DEFAULT_WIDTH = 1024;
export const MOCKUP_DEFAULT_HEIGHT = 768;

const side = (fallback: number, what: string) =>
  Type.Optional(
    Type.Integer({
      minimum: MOCKUP_MIN_SIDE,
      maximum: MOCKUP_MAX_SIDE,
      default: fallback,
      description: `${what} of the PNG in pixels (${MOCKUP_MIN_SIDE}–${MOCKUP_MAX_SIDE}).`,
    }),
  );

/** Where the camera looks from; `three-quarter` (front, from above and to the right) by default. */
export const MOCKUP_ANGLES = ['front', 'three-quarter', 'top', 'bottom', 'back'] as const;
export type MockupAngle = (typeof MOCKUP_ANGLES)[number];

export const MockupQuery = StrictObject({
  width: side(MOCKUP_DEFAULT_WIDTH, 'Width'),
  height: side(MOCKUP_DEFAULT_HEIGHT, 'Height'),
  lighting: Type.Optional(
    StringEnum(LIGHTING_IDS, {
      description: "Lighting preset, with its background; default: the project's EditorState lighting, else studio.",
    }),
  ),
  angle: Type.Optional(
    StringEnum(MOCKUP_ANGLES, {
      default: 'three-quarter',
      description: 'Where the camera looks from: front, three-quarter (front, from above right; the default), top, bottom or back.',
    }),
  ),
});
export type MockupQuery = Static<typeof MockupQuery>;

export const MockupResponse = {
  description: "A PNG of the project's model as the viewer shows it from `angle`, in the preset's light and background.",
  headers: {
    etag: Type.String({
      description: 'Strong validator of the model, the viewer build and the query. Send it back in If-None-Match for a 304.',
    }),
    'cache-control': Type.String({ description: 'private, no-cache.' }),
  },
  content: { 'image/png': { schema: Type.String({ format: 'binary' }) } },
};
