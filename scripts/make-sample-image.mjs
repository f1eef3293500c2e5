#!/usr/bin/env node
// node scripts/make-sample-image.mjs FILE [WIDTH] [HEIGHT]: writes a sample artwork (a label with
// a few coloured shapes) as PNG or JPEG, by FILE's extension, recorded at 300 dpi. The README's
// examples upload it; 1800 px wide prints at 300 dpi across 150 mm.
import path from 'node:path';
import sharp from 'sharp';

const [file, width = '1800', height = '1200'] = process.argv.slice(2);
const w = Number(width);
const h = Number(height);
const format = path.extname(file ?? '').toLowerCase();
if (!file || !['.png', '.jpg', '.jpeg'].includes(format) || !(w >= 16 && w <= 8000) || !(h >= 16 && h <= 8000)) {
  console.error('usage: node scripts/make-sample-image.mjs FILE.png|FILE.jpg [WIDTH 16-8000] [HEIGHT 16-8000]');
  process.exit(2);
}

const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 300 200">
  <rect width="300" height="200" fill="#f4efe6"/>
  <rect x="12" y="12" width="276" height="176" rx="14" fill="none" stroke="#1f4e79" stroke-width="6"/>
  <circle cx="95" cy="100" r="52" fill="#d0342c"/>
  <path d="M165 150 L215 50 L265 150 Z" fill="#2e8b57"/>
</svg>`;

const image = sharp(Buffer.from(svg)).withMetadata({ density: 300 });
await (format === '.png' ? image.png() : image.jpeg({ quality: 90 })).toFile(file);
console.error(`Wrote ${file}: ${w} × ${h} px, 300 dpi.`);
