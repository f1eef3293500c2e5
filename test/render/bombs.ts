// The SVGs of the adversarial review, built here: small files whose filters would keep librsvg
// busy for minutes, and a small SVG with a modest filter that any editor could export.

/** 4000 × 4000 px, fifty rectangles under a blur and a morphology of 1000 px (about 2.7 KB). */
export function blurMorphologyBomb(): Buffer {
  const rects = Array.from(
    { length: 50 },
    (_, i) =>
      `<rect x="${(i % 10) * 400}" y="${Math.floor(i / 10) * 800}" width="380" ` +
        `height="780" fill="#${(i * 5).toString(16).padStart(2, '0')}8040"/>`,
  );
  return Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="4000" viewBox="0 0 4000 4000">' +
      '<filter id="f" x="-50%" y="-50%" width="200%" height="200%">' +
      '<feGaussianBlur stdDeviation="1000"/><feMorphology operator="dilate" radius="1000"/></filter>' +
      `<g filter="url(#f)">${rects.join('')}</g></svg>`,
  );
}

/** 10000 × 10000 px, 400 rectangles each under a ten-octave turbulence (about 21 KB). */
export function turbulenceBomb(): Buffer {
  const rects = Array.from(
    { length: 400 },
    (_, i) => `<rect x="${(i % 20) * 500}" y="${Math.floor(i / 20) * 500}" width="490" height="490" filter="url(#t)"/>`,
  );
  return Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="10000" height="10000" viewBox="0 0 10000 10000">' +
      '<filter id="t"><feTurbulence type="fractalNoise" baseFrequency="0.01" numOctaves="10"/></filter>' +
      `${rects.join('')}</svg>`,
  );
}

/** 400 × 300 px with a drop shadow (blur 4) and a light morphology: what a designer exports. */
export function modestFilterSvg(): Buffer {
  return Buffer.from(
    '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300" viewBox="0 0 400 300">' +
      '<filter id="s"><feGaussianBlur in="SourceAlpha" stdDeviation="4"/><feOffset dx="3" ' +
      'dy="3"/><feMerge><feMergeNode/><feMergeNode in="SourceGraphic"/></feMerge></filter>' +
      '<filter id="m"><feMorphology operator="dilate" radius="2"/></filter>' +
      '<rect x="40" y="40" width="300" height="200" rx="12" fill="#2a7" filter="url(#s)"/>' +
      '<circle cx="200" cy="140" r="50" fill="#fff" filter="url(#m)"/></svg>',
  );
}

/**
 * No filter and fewer elements than the node bound, so the cost model lets it through, yet librsvg
 * needs tens of seconds for it: 19,000 large translucent stroked circles on a 4000 × 4000 canvas
 * (about 1.6 MB).
 */
export function translucentCircles(count = 19_000): Buffer {
  const circles = Array.from(
    { length: count },
    (_, i) =>
      `<circle cx="${i % 1000}" cy="${(i * 7) % 1000}" r="${200 + (i % 50)}" ` +
        `fill="rgba(${i % 255},0,0,0.3)" stroke="#000" stroke-width="9"/>`,
  );
  return Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="4000" viewBox="0 0 1000 1000">${circles.join('')}</svg>`,
  );
}

/**
 * The circles above, each stroke dashed every 0.25 units: millions of dashes that
 * librsvg strokes one by one whatever the output size, so the raster takes minutes even as a
 * small copy. Fewer elements than the node bound and no filter: the cost model lets it through.
 */
export function dashedCircles(count = 19_000): Buffer {
  return Buffer.from(translucentCircles(count).toString('utf8').replaceAll('stroke-width="9"', 'stroke-width="9" stroke-dasharray="0.25"'));
}
