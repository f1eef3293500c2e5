// Record ids: cuid2, with its random source drawn from the operating system's CSPRNG in blocks.
// cuid2's default asks Web Crypto for four bytes at a time, about 25 calls per id, which made
// creating an id cost as much as the rest of a project create (bench row 5).
import { randomFillSync } from 'node:crypto';
import { init } from '@paralleldrive/cuid2';

const block = new Uint32Array(1024);
let next = block.length;

/** A uniform float in [0, 1), like Math.random(), but cryptographically strong. */
function secureRandom(): number {
  if (next === block.length) {
    randomFillSync(block);
    next = 0;
  }
  return block[next++]! / 0x1_0000_0000;
}

/** A new cuid2 (24 characters, a lower-case letter then letters and digits). */
export const createId: () => string = init({ random: secureRandom });
