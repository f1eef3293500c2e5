/**
 * SVG rendering: millimetre user units (viewBox in mm, width/height with an `mm` suffix) so the
 * file imports 1:1 into Illustrator and CAD. One group per line type; panels are invisible
 * polygons whose element id is `panel-<panelId>`.
 */
import { formatNumber } from './format.js';
import { DRAW_ORDER, type Dieline, type DielinePath, type DielinePathType, type Point } from './types.js';

interface LineStyle {
  /** The SVG group's label and stroke colour. */
  label: string;
  stroke: string;
  widthMm: number;
  /** The SVG dash pattern, mm; the PDF dashes by its first dash and gap. */
  dash?: string;
  /** The PDF's spot colour and its CMYK fallback in percent. */
  ink: string;
  cmyk: [number, number, number, number];
}

/** How each line type is drawn in the SVG and the PDF. Colours follow common prepress conventions. */
export const LINE_STYLES: Readonly<Record<DielinePathType, LineStyle>> = {
  bleed: { label: 'Bleed', stroke: '#00a651', widthMm: 0.2, ink: 'Bleed', cmyk: [100, 0, 100, 0] },
  safe: { label: 'Safe area', stroke: '#8dc63f', widthMm: 0.2, dash: '1 1', ink: 'SafeArea', cmyk: [50, 0, 100, 0] },
  glue: { label: 'Glue', stroke: '#f7941d', widthMm: 0.2, dash: '2 1', ink: 'Glue', cmyk: [0, 50, 100, 0] },
  crease: { label: 'Crease', stroke: '#00aeef', widthMm: 0.25, dash: '3 1.5', ink: 'Crease', cmyk: [100, 0, 0, 0] },
  'reverse-crease': {
    label: 'Reverse crease',
    stroke: '#2e3192',
    widthMm: 0.25,
    dash: '3 1 0.5 1',
    ink: 'ReverseCrease',
    cmyk: [100, 100, 0, 0],
  },
  perforation: { label: 'Perforation', stroke: '#ed1c24', widthMm: 0.25, dash: '1 1', ink: 'Perforation', cmyk: [0, 100, 100, 0] },
  'half-cut': { label: 'Half-cut', stroke: '#f26522', widthMm: 0.25, dash: '4 1', ink: 'HalfCut', cmyk: [0, 60, 100, 0] },
  'v-groove': { label: 'V-groove', stroke: '#0072bc', widthMm: 0.3, dash: '5 1 1 1', ink: 'VGroove', cmyk: [100, 50, 0, 0] },
  fold: { label: 'Fold (wrap)', stroke: '#662d91', widthMm: 0.2, dash: '1.5 1.5', ink: 'Fold', cmyk: [60, 80, 0, 0] },
  cut: { label: 'Cut', stroke: '#ec008c', widthMm: 0.25, ink: 'CutContour', cmyk: [0, 100, 0, 0] },
  zone: { label: 'Zones', stroke: '#fff200', widthMm: 0.2, dash: '0.5 0.5', ink: 'Zones', cmyk: [0, 0, 100, 0] },
  eyemark: { label: 'Eye mark', stroke: '#000000', widthMm: 0.25, ink: 'EyeMark', cmyk: [0, 0, 0, 100] },
};

export interface SvgRenderOptions {
  /** Line types to draw (default: all). */
  layers?: readonly DielinePathType[];
  /** Include the invisible panel polygons (default: true). */
  panels?: boolean;
}

export function escapeXml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

/** An XML id: letters, digits, `-` and `_`, starting with a letter. */
function xmlId(prefix: string, value: string): string {
  return `${prefix}-${value.replace(/[^A-Za-z0-9_-]/g, '_')}`;
}

function pointsAttribute(points: readonly Point[]): string {
  return points.map(([x, y]) => `${formatNumber(x)},${formatNumber(y)}`).join(' ');
}

function pathElement(path: DielinePath): string {
  const attributes = [`d="${escapeXml(path.d)}"`];
  if (path.role) attributes.push(`data-role="${escapeXml(path.role)}"`);
  if (path.pieceId) attributes.push(`data-piece-id="${escapeXml(path.pieceId)}"`);
  if (path.panelId) attributes.push(`data-panel-id="${escapeXml(path.panelId)}"`);
  if (path.zone) attributes.push(`data-zone="${escapeXml(path.zone)}"`);
  return `<path ${attributes.join(' ')}/>`;
}

export function renderDielineSvg(dieline: Dieline, options: SvgRenderOptions = {}): string {
  const layers = new Set(options.layers ?? DRAW_ORDER);
  const { artboard } = dieline;
  const { inside } = dieline.dimensions;
  const size = `${formatNumber(inside.widthMm)} x ${formatNumber(inside.depthMm)} x ${formatNumber(inside.heightMm)} mm`;
  const lines: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="${formatNumber(artboard.width)}mm" ` +
      `height="${formatNumber(artboard.height)}mm" ` +
      `viewBox="${[artboard.x, artboard.y, artboard.width, artboard.height].map(formatNumber).join(' ')}" ` +
      `data-template-id="${escapeXml(dieline.templateId)}" data-style="${escapeXml(dieline.style)}">`,
    `<title>${escapeXml(`${dieline.styleName}, inside ${size}`)}</title>`,
    `<desc>` +
      `${escapeXml(`Units: mm. Board ${formatNumber(dieline.thicknessMm)} mm, bleed ${formatNumber(dieline.bleedMm)} mm, ` +
        `blank ${formatNumber(dieline.blank.width)} x ${formatNumber(dieline.blank.height)} mm. Printed side up.`)}</desc>`,
  ];
  if (options.panels !== false) {
    lines.push('<g id="panels" fill="none" stroke="none">');
    const used = new Set<string>();
    for (const panel of dieline.panels) {
      let id = xmlId('panel', panel.id);
      for (let k = 2; used.has(id); k++) id = `${xmlId('panel', panel.id)}-${k}`;
      used.add(id);
      lines.push(
        `<polygon id="${escapeXml(id)}" data-panel-id="${escapeXml(panel.id)}" data-role="${escapeXml(panel.role)}" ` +
          `points="${pointsAttribute(panel.polygon)}"><title>${escapeXml(panel.name)}</title></polygon>`,
      );
    }
    lines.push('</g>');
  }
  for (const type of DRAW_ORDER) {
    if (!layers.has(type)) continue;
    const paths = dieline.paths.filter((path) => path.type === type);
    if (paths.length === 0) continue;
    const style = LINE_STYLES[type];
    const dash = style.dash ? ` stroke-dasharray="${style.dash}"` : '';
    lines.push(
      `<g id="${type}" data-label="${style.label}" fill="none" stroke="${style.stroke}" ` +
        `stroke-width="${style.widthMm}" stroke-linejoin="round"${dash}>`,
    );
    for (const path of paths) lines.push(pathElement(path));
    lines.push('</g>');
  }
  lines.push('</svg>');
  return `${lines.join('\n')}\n`;
}
