export const CATEGORY_IDS = [
  'folding-cartons',
  'mailer-boxes',
  'rigid-boxes',
  'shipping-boxes',
  'product-boxes',
  'bottles-jars',
  'cans-tins',
  'pouches-bags',
  'tubes',
  'labels-sleeves',
] as const;
export type CategoryId = (typeof CATEGORY_IDS)[number];

export const TEMPLATE_KINDS = ['box', 'bottle', 'jar', 'can', 'pouch', 'tube'] as const;
export type TemplateKind = (typeof TEMPLATE_KINDS)[number];

export const MATERIAL_IDS = ['cardboard', 'kraft', 'corrugated', 'plastic', 'glass', 'aluminum'] as const;
export type MaterialId = (typeof MATERIAL_IDS)[number];

export const FINISH_IDS = ['matte', 'gloss', 'soft-touch', 'foil'] as const;
export type FinishId = (typeof FINISH_IDS)[number];

export interface Dimensions {
  widthMm: number;
  heightMm: number;
  depthMm: number;
}

export interface Template {
  id: string;
  name: string;
  category: CategoryId;
  kind: TemplateKind;
  defaultDimensions: Dimensions;
  materials: MaterialId[];
  finishes: FinishId[];
  dielineAvailable: boolean;
  description: string;
}

export interface Category {
  id: CategoryId;
  label: string;
  count: number;
}
