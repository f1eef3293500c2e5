import { generateDieline } from './src/dielines/index.js';
const d = generateDieline('reverse-tuck-carton', { widthMm: 200, heightMm: 200, depthMm: 80 }, { bleedMm: 3 });
for (const p of d.panels) console.log(p.id, p.pieceId, JSON.stringify(p.frame));
console.log(d.pieces.map(p => [p.id, p.bounds]));
