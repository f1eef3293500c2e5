/**
 * Writes docs/print-separations.png, the picture in docs/print.md: a straight-tuck carton with a
 * photo, a CMYK JPEG, a transparent PNG and an SVG logo on a black background, printed as PDF/X-4
 * in CMYK (FOGRA39) by the same code as GET /projects/:id/print, then separated by Ghostscript
 * (tiffsep) into its plates: Cyan, Magenta, Yellow, Black and the die's CutContour and Crease.
 * Needs Ghostscript (scripts/ensure-prepress-tools.sh). Run: npx tsx scripts/make-separations-example.ts
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { generateDieline } from '../src/dielines/index.js';
import { placeDesign, renderPrintPdf, type ResolvedAsset } from '../src/print/index.js';

const work = mkdtempSync(path.join(tmpdir(), 'separations-'));
const gs = (...args: string[]) => execFileSync('gs', ['-q', '-dSAFER', '-dBATCH', '-dNOPAUSE', ...args]);

async function photo(): Promise<Buffer> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1800" height="1200"><defs><radialGradient id="g" cx="0.3" cy="0.3" r="0.9">
    <stop offset="0" stop-color="#ffd27f"/><stop offset="0.5" stop-color="#e8572a"/><stop offset="1" stop-color="#3b1f6b"/>
    </radialGradient></defs>
    <rect width="1800" height="1200" fill="url(#g)"/><circle cx="1250" cy="700" r="300" fill="#2e8b57"/></svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 90 }).toBuffer();
}

function cmykJpeg(): Buffer {
  const out = path.join(work, 'cmyk.jpg');
  gs(
    '-sDEVICE=jpegcmyk', '-r72', '-g900x1200', `-sOutputFile=${out}`, '-c',
    '0 0.1 0.9 0 setcmykcolor 0 0 900 1200 rectfill 1 0.2 0 0.1 setcmykcolor 150 150 600 900 rectfill showpage',
  );
  return readFileSync(out);
}

const logo = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg" width="240" height="120"><rect width="240" height="120" rx="16" fill="#ffe066"/>' +
    '<circle cx="60" cy="60" r="40" fill="#0055a4"/><text x="115" y="76" ' +
    'font-family="sans-serif" font-weight="bold" font-size="44" fill="#e30613">LOGO</text></svg>',
);
const badge = await sharp({ create: { width: 600, height: 600, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
  .composite([
    {
      input: Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="600" height="600">' +
          '<circle cx="300" cy="300" r="280" fill="#8bc34a" fill-opacity="0.8"/></svg>',
      ),
    },
  ])
  .png()
  .toBuffer();

const files: Record<string, { mimeType: string; bytes: Buffer; width: number; height: number }> = {
  'photo.jpg': { mimeType: 'image/jpeg', bytes: await photo(), width: 1800, height: 1200 },
  'separated.jpg': { mimeType: 'image/jpeg', bytes: cmykJpeg(), width: 900, height: 1200 },
  'badge.png': { mimeType: 'image/png', bytes: badge, width: 600, height: 600 },
  'logo.svg': { mimeType: 'image/svg+xml', bytes: logo, width: 240, height: 120 },
};
const assets = new Map<string, ResolvedAsset>(
  Object.entries(files).map(([name, f]) => [
    name,
    {
      name,
      mimeType: f.mimeType,
      widthPx: f.width,
      heightPx: f.height,
      orientation: 1,
      sizeBytes: f.bytes.length,
      load: async () => f.bytes,
    },
  ]),
);
const dieline = generateDieline('straight-tuck-box', { widthMm: 70, depthMm: 50, heightMm: 120 });
const art = (id: string, panelId: string, file: string, scale: number) => ({
  id,
  panelId,
  imageUrl: `/files/${file}`,
  offsetX: 0,
  offsetY: 0,
  scale,
  rotationDeg: 0,
});
const placement = placeDesign({
  dieline,
  assets,
  state: {
    background: { kind: 'color', value: '#000' },
    artworks: [
      art('photo', 'front', 'photo.jpg', 0.9),
      art('separated', 'back', 'separated.jpg', 0.8),
      art('badge', 'left', 'badge.png', 0.8),
      art('logo', 'right', 'logo.svg', 0.8),
    ],
  },
});
const pdf = await renderPrintPdf(placement, { bleedMm: 3, marks: true, dieline: true, colorSpace: 'cmyk', condition: 'fogra39' });
writeFileSync(path.join(work, 'print.pdf'), pdf);
gs('-sDEVICE=tiffsep', '-r40', '-dFirstPage=1', '-dLastPage=1', `-sOutputFile=${path.join(work, 'sep.tif')}`, path.join(work, 'print.pdf'));
gs(
  '-sDEVICE=png16m', '-r40', '-dFirstPage=1', '-dLastPage=1',
  `-sOutputFile=${path.join(work, 'composite.png')}`, path.join(work, 'print.pdf'),
);

const plates: [label: string, file: string, tint: string][] = [
  ['Composite', 'composite.png', ''],
  ['Cyan', 'sep(Cyan).tif', '#00a0e0'],
  ['Magenta', 'sep(Magenta).tif', '#e0007a'],
  ['Yellow', 'sep(Yellow).tif', '#f0d000'],
  ['Black', 'sep(Black).tif', '#000000'],
  ['CutContour', 'sep(CutContour).tif', '#e0007a'],
  ['Crease', 'sep(Crease).tif', '#00a0e0'],
];
const tiles: Buffer[] = [];
let tileWidth = 0;
let tileHeight = 0;
for (const [label, file, tint] of plates) {
  let plate = sharp(readFileSync(path.join(work, file)));
  if (tint) {
    // A plate is grey, dark where ink prints: shown in its ink's colour on white.
    const grey = await plate.extractChannel(0).raw().toBuffer({ resolveWithObject: true });
    const [r, g, b] = [1, 3, 5].map((i) => parseInt(tint.slice(i, i + 2), 16));
    const rgb = Buffer.alloc(grey.info.width * grey.info.height * 3);
    for (let i = 0; i < grey.data.length; i++) {
      const ink = 1 - grey.data[i]! / 255;
      rgb[i * 3] = Math.round(255 - ink * (255 - r!));
      rgb[i * 3 + 1] = Math.round(255 - ink * (255 - g!));
      rgb[i * 3 + 2] = Math.round(255 - ink * (255 - b!));
    }
    plate = sharp(rgb, { raw: { width: grey.info.width, height: grey.info.height, channels: 3 } });
  }
  const { data, info } = await plate.removeAlpha().png().toBuffer({ resolveWithObject: true });
  tileWidth = info.width;
  tileHeight = info.height;
  const caption = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${info.width}" height="28"><rect width="100%" height="100%" fill="#fff"/>` +
      `<text x="50%" y="20" font-family="sans-serif" font-size="18" text-anchor="middle" fill="#222">${label}</text></svg>`,
  );
  tiles.push(
    await sharp({ create: { width: info.width, height: info.height + 28, channels: 3, background: '#fff' } })
      .composite([{ input: caption, top: 0, left: 0 }, { input: data, top: 28, left: 0 }])
      .png()
      .toBuffer(),
  );
}
const gap = 12;
const columns = 4;
const rows = Math.ceil(tiles.length / columns);
const montage = await sharp({
  create: {
    width: columns * tileWidth + (columns + 1) * gap,
    height: rows * (tileHeight + 28) + (rows + 1) * gap,
    channels: 3,
    background: '#e6e6e6',
  },
})
  .composite(
    tiles.map((input, i) => ({
      input,
      left: gap + (i % columns) * (tileWidth + gap),
      top: gap + Math.floor(i / columns) * (tileHeight + 28 + gap),
    })),
  )
  .png({ compressionLevel: 9, palette: true })
  .toBuffer();
const out = path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'docs', 'print-separations.png');
writeFileSync(out, montage);
rmSync(work, { recursive: true, force: true });
console.log(`${out}: ${montage.length} bytes`);
