// The tiny image fixtures of test/fixtures (see make-fixtures.ts there) and bigger images made
// from them at run time.
import { readFileSync } from 'node:fs';

export type ImageFixture =
  | 'tiny.png'
  | 'tiny.jpg'
  | 'tiny.gif'
  | 'tiny.webp'
  | 'tiny.avif'
  | 'tiny.svg'
  | 'scripted.svg'
  | 'page-disguised.png';

export function imageFixture(name: ImageFixture): Buffer {
  return readFileSync(new URL(`../fixtures/${name}`, import.meta.url));
}

/** A PNG of exactly `size` bytes: the tiny PNG followed by zero padding after its IEND chunk. */
export function pngOfSize(size: number): Buffer {
  const png = imageFixture('tiny.png');
  const image = Buffer.alloc(size);
  png.copy(image);
  return image;
}
