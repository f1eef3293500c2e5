/**
 * Extends a pdfkit document (by wrapping its colour and graphics-state methods on the instance,
 * not by changing pdfkit) with what press-safe black needs and pdfkit does not write:
 * - `DeviceGray` in rgb files: a neutral RGB colour is written as the grey ink 1 − K (black.ts);
 * - overprint: a fill marked as text, and a stroke up to OVERPRINT_MAX_STROKE_PT wide, whose ink is
 *   K alone at OVERPRINT_MIN_K or more get `OP`/`op` true with `OPM 1` (an ExtGState); anything
 *   else knocks out. The state follows `q`/`Q`, so it is set only when it changes.
 * Colours reach pdfkit as arrays (RGB 0–255, CMYK 0–100); `markText` flags one as text by a
 * trailing TEXT_FLAG element (svg-to-pdfkit copies colour arrays element by element, so the flag
 * has to be one), which only this wrapper reads and removes.
 */
import { greyK, isNeutral, OVERPRINT_MAX_STROKE_PT, OVERPRINT_MIN_K, type KRamp } from './black.js';
import type { Rgb } from './types.js';
import { kept } from './memo.js';

type Color = unknown;

interface PdfKitColorInternals {
  _ctm: number[];
  page: { ext_gstates: Record<string, unknown> };
  _setColorCore(color: Color, stroke: boolean): boolean;
  _setColorSpace(space: string, stroke: boolean): unknown;
  addContent(data: string): unknown;
  ref(data: Record<string, unknown>): { end(chunk?: unknown): void };
  save(): unknown;
  restore(): unknown;
  lineWidth(width: number): unknown;
}

const TEXT_FLAG = -1;

/** The same colour, flagged as the paint of text (overprints when dark enough). */
export function markText(color: readonly number[]): number[] {
  return [...color, TEXT_FLAG];
}

/** A colour without its text flag, and whether it had one. */
function unflag(color: Color): { color: Color; text: boolean } {
  if (Array.isArray(color) && (color.length === 4 || color.length === 5) && color[color.length - 1] === TEXT_FLAG) {
    return { color: color.slice(0, -1), text: true };
  }
  return { color, text: false };
}

interface OverprintState {
  stroke: boolean;
  fill: boolean;
}

/** K percent of a colour that is K alone, else null. */
function kOnly(color: Color, gray: KRamp | null): number | null {
  if (!Array.isArray(color) || !color.every((v) => typeof v === 'number')) return null;
  if (color.length === 4) return color[0] === 0 && color[1] === 0 && color[2] === 0 ? (color[3] as number) : null;
  if (color.length === 3 && gray && isNeutral(color as unknown as Rgb)) return greyK(gray, color as unknown as Rgb);
  return null;
}

const format = (value: number) => String(Math.round(value * 10000) / 10000);

export interface PressInkOptions {
  /** rgb files: the condition's K ramp, to write neutral RGB as DeviceGray. Null in cmyk files. */
  grayRamp: KRamp | null;
  /**
   * Process inks overprint the spot plates under them (a White underlay): "knocking out" is then
   * OP/op true with OPM 0 (the process plates replaced, spot plates kept), overprinting OPM 1.
   */
  overSpotPlates?: boolean;
}

/**
 * Installs the press inks on the document for the rest of its life. Call once, before drawing.
 */
export function installPressInks(document: PDFKit.PDFDocument, options: PressInkOptions): void {
  const doc = document as unknown as PdfKitColorInternals;
  const gray = options.grayRamp;
  const overSpot = options.overSpotPlates ?? false;
  const states = new Map<string, { end(chunk?: unknown): void }>();
  let current: OverprintState = { stroke: false, fill: false };
  // What the document's graphics state holds: the overprint set and the paints it was set for.
  let fillText = false;
  let fillK: number | null = null;
  let strokeK: number | null = null;
  let width = 1;
  const stack: { current: OverprintState; fillText: boolean; fillK: number | null; strokeK: number | null; width: number }[] = [];
  let page: unknown = null;

  const syncPage = () => {
    if (doc.page !== page) {
      page = doc.page;
      current = { stroke: false, fill: false };
      [fillText, fillK, strokeK, width] = [false, null, null, 1];
      stack.length = 0;
    }
  };

  const widthPt = () => {
    const [a = 1, b = 0, c = 0, d = 1] = doc._ctm;
    return width * Math.sqrt(Math.abs(a * d - b * c));
  };

  const apply = () => {
    syncPage();
    const wanted: OverprintState = {
      fill: fillText && fillK !== null && fillK >= OVERPRINT_MIN_K,
      stroke: strokeK !== null && strokeK >= OVERPRINT_MIN_K && widthPt() <= OVERPRINT_MAX_STROKE_PT + 1e-9,
    };
    if (wanted.fill === current.fill && wanted.stroke === current.stroke) return;
    const name = `GsOP${wanted.stroke ? 1 : 0}${wanted.fill ? 1 : 0}${overSpot ? 'w' : ''}`;
    doc.page.ext_gstates[name] = kept(states, name, () => {
      const state = doc.ref(
        overSpot
          ? { Type: 'ExtGState', OP: true, op: true, OPM: wanted.stroke || wanted.fill ? 1 : 0 }
          : { Type: 'ExtGState', OP: wanted.stroke, op: wanted.fill, OPM: 1 },
      );
      // @types/pdfkit declares a required chunk; pdfkit writes the object when given none.
      state.end(undefined);
      return state;
    });
    doc.addContent(`/${name} gs`);
    current = wanted;
  };

  const setColorCore = doc._setColorCore.bind(doc);
  doc._setColorCore = (flagged: Color, stroke: boolean) => {
    const { color, text } = unflag(flagged);
    const k = kOnly(color, gray);
    let written: boolean;
    if (gray && k !== null && Array.isArray(color) && color.length === 3) {
      doc._setColorSpace('DeviceGray', stroke);
      doc.addContent(`${format(1 - k / 100)} ${stroke ? 'SCN' : 'scn'}`);
      written = true;
    } else {
      written = setColorCore(color, stroke);
    }
    if (written) {
      if (stroke) strokeK = k;
      else {
        fillK = k;
        fillText = text;
      }
      apply();
    }
    return written;
  };

  const lineWidth = doc.lineWidth.bind(doc);
  doc.lineWidth = (w: number) => {
    width = w;
    const result = lineWidth(w);
    apply();
    return result;
  };

  const save = doc.save.bind(doc);
  doc.save = () => {
    syncPage();
    stack.push({ current: { ...current }, fillText, fillK, strokeK, width });
    return save();
  };
  const restore = doc.restore.bind(doc);
  doc.restore = () => {
    syncPage();
    const saved = stack.pop();
    if (saved) ({ current, fillText, fillK, strokeK, width } = saved);
    return restore();
  };
}
