/**
 * Bottle and jar, shrink sleeve: a printed flat film rolled into a tube and solvent-sealed. Layflat
 * = C of the largest diameter ÷ 2 + the fit allowance; the film is 2 × layflat + the seam, the seam
 * strip unprinted. Cut length from the base to the shoulder top; 2 mm unprinted at top and bottom.
 * Where the body is narrower than its largest diameter (shoulder, neck, the rounded foot) the film
 * shrinks: those zones are marked.
 */
import { BASE_ROUNDING_MM, bottleBody, jarBody, LATHE_LABELS } from './figures.js';
import { SAFE_MARGIN_MM, type ContainerLayout, type LayoutContext } from './layout.js';
import { buildWrap, type BandZone } from './wrap.js';

export const SLEEVE_UNPRINTED_MM = 2;
/** PETG or PVC shrink film. */
const SLEEVE_CALIPER_MM = 0.05;

/** Height of the shoulder top (where the sleeve ends) and where the body starts to narrow below it. */
function sleeveTop(kind: 'bottle' | 'jar', h: number): { top: number; narrowsFrom: number } {
  if (kind === 'bottle') {
    const { bodyTop, neckBottom } = bottleBody(h);
    return { top: neckBottom, narrowsFrom: bodyTop };
  }
  const { bodyTop, neckStart } = jarBody(h);
  return { top: bodyTop, narrowsFrom: neckStart };
}

export function buildShrinkSleeve(context: LayoutContext, kind: 'bottle' | 'jar', fitMm: number, seamMm: number): ContainerLayout {
  const { dims } = context;
  const c = Math.PI * dims.widthMm;
  const layflat = c / 2 + fitMm;
  const { top, narrowsFrom } = sleeveTop(kind, dims.heightMm);
  const length = top;
  const shoulder = top - narrowsFrom;
  const zones: BandZone[] = [
    { zone: 'shrink', y0: 0, y1: shoulder },
    { zone: 'shrink', y0: length - BASE_ROUNDING_MM, y1: length },
  ];
  const band = LATHE_LABELS[kind](dims);
  return buildWrap({
    ...context,
    style: 'shrink-sleeve',
    styleName: `${kind === 'bottle' ? 'Bottle' : 'Jar'} shrink sleeve`,
    thicknessMm: SLEEVE_CALIPER_MM,
    piece: { id: 'sleeve', name: 'Sleeve' },
    period: 2 * layflat,
    strip: { widthMm: seamMm, zone: 'seal' },
    height: length,
    cutCornerRadius: 0,
    unprintedMm: SLEEVE_UNPRINTED_MM,
    stripUnprinted: true,
    zones,
    safe: {
      y0: Math.max(SLEEVE_UNPRINTED_MM, shoulder) + SAFE_MARGIN_MM,
      y1: length - Math.max(SLEEVE_UNPRINTED_MM, BASE_ROUNDING_MM) - SAFE_MARGIN_MM,
    },
    parameters: {
      layflatMm: layflat,
      fitMm,
      seamMm,
      filmWidthMm: 2 * layflat + seamMm,
      cutLengthMm: length,
      unprintedMm: SLEEVE_UNPRINTED_MM,
      shrinkShoulderMm: shoulder,
    },
    texture: { y0: length - band.top, y1: length - band.bottom },
  });
}
