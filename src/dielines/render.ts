/** One entry point for the route handler: a dieline in the requested format. */
import { renderDielineCf2 } from './cf2.js';
import { renderDielineDxf, type DxfOptions } from './dxf.js';
import { formatNumber } from './format.js';
import { renderDielinePdf } from './pdf.js';
import { renderDielineSvg } from './svg.js';
import type { Dieline } from './types.js';

export const DIELINE_FORMATS = ['json', 'svg', 'pdf', 'dxf', 'cf2'] as const;
/** Formats a browser should download rather than show. */
export const DOWNLOAD_FORMATS: readonly DielineFormat[] = ['dxf', 'cf2'];
export type DielineFormat = (typeof DIELINE_FORMATS)[number];

export interface RenderedDieline {
  contentType: string;
  /** A suggested download name, e.g. `mailer-box-300x220x80.svg`. */
  fileName: string;
  body: string | Buffer;
}

export function isDielineFormat(value: string): value is DielineFormat {
  return (DIELINE_FORMATS as readonly string[]).includes(value);
}

export function dielineFileName(dieline: Dieline, format: DielineFormat): string {
  const { widthMm, depthMm, heightMm } = dieline.dimensions.inside;
  const safeId = dieline.templateId.replace(/[^A-Za-z0-9_-]/g, '_');
  return `${safeId}-${formatNumber(widthMm)}x${formatNumber(depthMm)}x${formatNumber(heightMm)}.${format}`;
}

export async function renderDieline(dieline: Dieline, format: DielineFormat, options: DxfOptions = {}): Promise<RenderedDieline> {
  const fileName = dielineFileName(dieline, format);
  switch (format) {
    case 'json':
      return { contentType: 'application/json; charset=utf-8', fileName, body: JSON.stringify(dieline) };
    case 'svg':
      return { contentType: 'image/svg+xml; charset=utf-8', fileName, body: renderDielineSvg(dieline) };
    case 'pdf':
      return { contentType: 'application/pdf', fileName, body: await renderDielinePdf(dieline) };
    case 'dxf':
      return { contentType: 'application/dxf', fileName, body: renderDielineDxf(dieline, options) };
    case 'cf2':
      return { contentType: 'application/vnd.cf2', fileName, body: renderDielineCf2(dieline) };
  }
}
