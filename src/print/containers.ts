/**
 * What a container's layout adds to placement: a wrapping design's images repeated one period to
 * either side (so the print, the preview and the texture show the design across the layout's two
 * ends and the overlap strip), and the findings for artwork in the layout's marked zones.
 */
import type { Dieline, DielinePath, ZoneKind } from '../dielines/index.js';
import { imageCorners, polygonsIntersect } from './placement.js';
import { artworkFinding } from './types.js';
import type { Finding, FindingCode, PlacedImage, Placement, PrintSurface, Severity } from './types.js';

/**
 * The placement with every image of a wrapping layout also drawn at ±k × period wherever a copy
 * reaches the bleed; the surface loses `wrapWidth`, so no renderer repeats them again.
 */
export function unwrapPlacement<S extends PrintSurface>(placement: Placement<S>): Placement<S> {
  const period = placement.dieline.wrapWidth;
  if (!period) return placement;
  const { wrapWidth: _period, ...surface } = placement.dieline;
  const pieces = placement.pieces.map((layers) => {
    const images: PlacedImage[] = [];
    for (const image of layers.images) {
      const a = (image.rotationDeg * Math.PI) / 180;
      const halfSpan = (Math.abs(image.width * Math.cos(a)) + Math.abs(image.height * Math.sin(a))) / 2;
      const bleedWidth = Math.max(...layers.bleed.map(([x]) => x)) - Math.min(...layers.bleed.map(([x]) => x));
      const copies = Math.ceil((halfSpan + bleedWidth) / period);
      for (let k = -copies; k <= copies; k++) {
        const copy = { ...image, center: [image.center[0] + k * period, image.center[1]] as [number, number] };
        if (k === 0 || polygonsIntersect(imageCorners(copy), layers.bleed)) images.push(copy);
      }
    }
    return { ...layers, images };
  });
  return { ...placement, dieline: surface as S, pieces };
}

const ZONE_FINDINGS: Partial<Record<ZoneKind, { code: FindingCode; severity: Severity; what: string }>> = {
  seal: { code: 'SEAL_AREA', severity: 'warning', what: 'a seal, seam or crimp zone' },
  overlap: { code: 'OVERLAP_AREA', severity: 'info', what: 'the overlap' },
  shrink: { code: 'DISTORTION_ZONE', severity: 'info', what: 'a zone where the sleeve shrinks and distorts the print' },
  neck: { code: 'DISTORTION_ZONE', severity: 'info', what: 'the neck, which is formed after printing' },
  base: { code: 'DISTORTION_ZONE', severity: 'info', what: 'the base, which is domed after printing' },
};

const zoneLabel = (path: DielinePath) => `${path.zone} zone${path.panelId ? ` of ${path.panelId}` : ''}`;

/** One finding per artwork and code: the first zone of that kind its image (or a wrapped copy) covers. */
export function zoneFindings(placement: Placement<PrintSurface>): Finding[] {
  const zones = placement.dieline.paths.filter((path) => path.type === 'zone' && path.closed && path.zone && ZONE_FINDINGS[path.zone]);
  if (zones.length === 0) return [];
  const findings: Finding[] = [];
  const seen = new Set<string>();
  for (const layers of placement.pieces) {
    for (const image of layers.images) {
      const corners = imageCorners(image);
      for (const zone of zones) {
        const rule = ZONE_FINDINGS[zone.zone!]!;
        const key = `${image.artworkId}:${rule.code}`;
        if (seen.has(key) || !polygonsIntersect(corners, zone.points)) continue;
        seen.add(key);
        const message = `${image.artworkId} on ${image.panelId} reaches into ${rule.what} (${zoneLabel(zone)}).`;
        findings.push(artworkFinding(image, rule.severity, rule.code, message));
      }
    }
  }
  return findings;
}

/** The eye marks a tube line registers on: filled solid above the artwork, never covered by it. */
export function eyeMarks(dieline: Pick<Dieline, 'paths'>): DielinePath[] {
  return dieline.paths.filter((path) => path.type === 'eyemark');
}
