// 3D model request and reply schemas (GET /templates/:id/model, /v1/templates/:id/model,
// GET /projects/:id/model). The reply is binary glTF, documented here for OpenAPI.
import { Type, type Static } from '@sinclair/typebox';
import { FINISH_IDS, MATERIAL_IDS } from '../catalog/index.js';
import { StrictObject, StringEnum } from './common.js';
import { ContainerOptionsProperties } from './containers.js';
import { TemplateDielineQuery } from './dielines.js';
import { WhiteQuery } from './print.js';

export const TEXTURE_SIZE_MIN = 256;
export const TEXTURE_SIZE_MAX = 4096;
export const TEXTURE_SIZE_DEFAULT = 2048;

const dims = TemplateDielineQuery.properties;

export const TemplateModelQuery = StrictObject({
  widthMm: dims.widthMm,
  heightMm: dims.heightMm,
  depthMm: dims.depthMm,
  thicknessMm: dims.thicknessMm,
  material: Type.Optional(
    StringEnum(MATERIAL_IDS, {
      description:
        "One of the template's materials (default: its first); colours the board or body and, for boxes, chooses the default caliper.",
    }),
  ),
  finish: Type.Optional(
    StringEnum(FINISH_IDS, { description: "One of the template's finishes (default: its first): the printed surface's PBR parameters." }),
  ),
});
export type TemplateModelQuery = Static<typeof TemplateModelQuery>;

/** What GET /projects/:id/model writes: binary glTF, or USDZ for AR (Apple Quick Look). */
export const MODEL_FORMATS = ['glb', 'usdz'] as const;
export type ModelFormat = (typeof MODEL_FORMATS)[number];

export const ProjectModelQuery = StrictObject({
  format: Type.Optional(
    StringEnum(MODEL_FORMATS, {
      default: 'glb',
      description:
        'glb (the default): binary glTF with the fold animation. usdz: the closed model for AR (Apple Quick Look), ' +
        'an uncompressed zip with a USDA layer first and the textures beside it.',
    }),
  ),
  textureSize: Type.Optional(
    Type.Integer({
      minimum: TEXTURE_SIZE_MIN,
      maximum: TEXTURE_SIZE_MAX,
      default: TEXTURE_SIZE_DEFAULT,
      description: `Longest side of the print texture in pixels (${TEXTURE_SIZE_MIN}–${TEXTURE_SIZE_MAX}).`,
    }),
  ),
  ...ContainerOptionsProperties,
  ...WhiteQuery,
});
export type ProjectModelQuery = Static<typeof ProjectModelQuery>;

/** The 200 answer: binary glTF (or USDZ, on the project routes) with its caching headers. */
export const ModelResponse = {
  description:
    'Binary glTF 2.0 (GLB): metres, +Y up, the front facing +Z. Box panels are nodes named by their panelId with UVs ' +
    'into the printed blank; containers have a `label` node with UVs into the label.',
  headers: {
    etag: Type.String({ description: 'Strong validator: a hash of the body. Send it back in If-None-Match for a 304.' }),
    'cache-control': Type.String({
      description: 'public, max-age=86400 on /templates; private, max-age=86400 on /v1; private, no-cache on /projects.',
    }),
    'content-disposition': Type.String({ description: 'inline; filename="<template>-<L>x<W>x<H>.glb".' }),
  },
  content: {
    'model/gltf-binary': { schema: Type.String({ format: 'binary' }) },
  },
};

/** The project routes' 200 answer: binary glTF, or USDZ with `format=usdz`. */
export const ProjectModelResponse = {
  ...ModelResponse,
  description: `${ModelResponse.description} With format=usdz: a USDZ package (AR) of the closed model, same nodes and print.`,
  headers: {
    ...ModelResponse.headers,
    'content-disposition': Type.String({ description: 'inline; filename="<template>-<L>x<W>x<H>.glb" (or .usdz).' }),
  },
  content: {
    ...ModelResponse.content,
    'model/vnd.usdz+zip': { schema: Type.String({ format: 'binary' }) },
  },
};
