/**
 * Writes docs/rigid-box-wrap.png, the picture in docs/structures.md: the base and lid wraps of a
 * rigid-lid-box at its catalog size, rendered from the same SVG as
 * GET /templates/rigid-lid-box/dieline?part=wrap&format=svg (its lines drawn thicker), on white.
 * Run: npx tsx scripts/make-wrap-picture.ts
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { getTemplate } from '../src/catalog/index.js';
import { generateWrap, renderDielineSvg } from '../src/dielines/index.js';

const template = getTemplate('rigid-lid-box')!;
// Lines three times as wide as in the file, so they survive the downscale to a screen picture.
const svg = renderDielineSvg(generateWrap(template.id, template.defaultDimensions)).replace(
  /stroke-width="([0-9.]+)"/g,
  (_, width: string) => `stroke-width="${Number(width) * 3}"`,
);
const png = await sharp(Buffer.from(svg), { density: 60 }).flatten({ background: '#ffffff' }).png({ compressionLevel: 9 }).toBuffer();
const target = path.join(import.meta.dirname, '..', 'docs', 'rigid-box-wrap.png');
writeFileSync(target, png);
const { width, height } = await sharp(png).metadata();
console.log(`${target}: ${width} × ${height} px`);
