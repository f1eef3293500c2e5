/**
 * Writes docs/preview-example.png, the preview picture of docs/print-pipeline.md: a mailer-box with a gradient
 * background and three placed images, rendered by the same code as GET /projects/:id/preview.
 * Run: npx tsx scripts/make-preview-example.ts
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { generateDieline } from '../src/dielines/index.js';
import { placeDesign, renderPreviewPng, type ResolvedAsset } from '../src/print/index.js';

async function badge(text: string, colour: string): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1200" height="600">
    <rect width="1200" height="600" rx="60" fill="${colour}"/>
    <polygon points="600,40 640,160 580,160" fill="#fff"/>
    <text x="600" y="380" font-family="sans-serif" font-size="200" font-weight="bold" text-anchor="middle" fill="#fff">${text}</text>
  </svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

const images: Record<string, Buffer> = {
  'front.png': await badge('FRONT', '#c0392b'),
  'lid.png': await badge('LID', '#2c3e50'),
  'left.png': await badge('LEFT', '#16a085'),
};
const assets = new Map<string, ResolvedAsset>(
  Object.entries(images).map(([name, bytes]) => [
    name,
    { name, mimeType: 'image/png', widthPx: 1200, heightPx: 600, orientation: 1, sizeBytes: bytes.length, load: async () => bytes },
  ]),
);
const dieline = generateDieline('mailer-box', { widthMm: 300, depthMm: 220, heightMm: 80 });
const placement = placeDesign({
  dieline,
  assets,
  state: {
    background: { kind: 'gradient', value: 'linear-gradient(135deg, #fdf6e3, #f5d9a8 60%, #e9b872)' },
    artworks: [
      { id: 'art-1', panelId: 'front', imageUrl: '/files/front.png', offsetX: 0, offsetY: 0, scale: 0.5, rotationDeg: 0 },
      { id: 'art-2', panelId: 'lid', imageUrl: '/files/lid.png', offsetX: 0, offsetY: -20, scale: 0.6, rotationDeg: 0 },
      { id: 'art-3', panelId: 'left', imageUrl: '/files/left.png', offsetX: 0, offsetY: 0, scale: 0.7, rotationDeg: 0 },
    ],
  },
});
const file = path.join(import.meta.dirname, '..', 'docs', 'preview-example.png');
writeFileSync(file, await renderPreviewPng(placement, 800));
console.log(`Wrote ${file}`);
