// Record ids: cuid2's construction (@paralleldrive/cuid2), computed with Node's own SHA3-512 and
// BigInt. The library hashes in JavaScript (@noble/hashes) and converts the 512-bit digest to
// base 36 with bignumber.js, about 75 µs per id, a tenth of a project create's CPU (bench row 5);
// OpenSSL and V8 do the same two steps in about 2 µs. The output is the library's, digit for
// digit, for the same inputs (test/app/ids.test.ts compares the two).
import { createHash, randomFillSync } from 'node:crypto';
import { notFound } from '../errors.js';

const ID_LENGTH = 24;
const FINGERPRINT_LENGTH = 32;
/** cuid2's bound for a session counter's random start (about 22k hosts before a likely collision). */
const INITIAL_COUNT_MAX = 476_782_367;
const LETTERS = 'abcdefghijklmnopqrstuvwxyz';

export interface IdSource {
  /** A uniform float in [0, 1). */
  random: () => number;
  /** Increments once per id. */
  counter: () => number;
  /** Identifies this process among the others creating ids. */
  fingerprint: string;
}

/** cuid2's hash: the SHA3-512 digest of the text, in base 36, without its first (biased) digit. */
function hashToBase36(text: string): string {
  return BigInt(`0x${createHash('sha3-512').update(text).digest('hex')}`).toString(36).slice(1);
}

/** `length` base-36 digits drawn from the random source, as cuid2 draws its salt. */
function entropy(length: number, random: () => number): string {
  let digits = '';
  while (digits.length < length) digits += Math.floor(random() * 36).toString(36);
  return digits;
}

/** cuid2's host fingerprint: the names of the process's globals and random salt, hashed. */
export function createFingerprint(random: () => number): string {
  return hashToBase36(Object.keys(globalThis).toString() + entropy(FINGERPRINT_LENGTH, random)).substring(0, FINGERPRINT_LENGTH);
}

/** One cuid2 from the given source: a lower-case letter, then 23 letters and digits. */
export function cuid2From({ random, counter, fingerprint }: IdSource, now = Date.now()): string {
  const firstLetter = LETTERS[Math.floor(random() * LETTERS.length)]!;
  const input = now.toString(36) + entropy(ID_LENGTH, random) + counter().toString(36) + fingerprint;
  return firstLetter + hashToBase36(input).substring(1, ID_LENGTH);
}

const block = new Uint32Array(1024);
let next = block.length;

/** A uniform float in [0, 1), like Math.random(), but from the operating system's CSPRNG, read in blocks. */
function secureRandom(): number {
  if (next === block.length) {
    randomFillSync(block);
    next = 0;
  }
  return block[next++]! / 0x1_0000_0000;
}

let count = Math.floor(secureRandom() * INITIAL_COUNT_MAX);
const processSource: IdSource = { random: secureRandom, counter: () => count++, fingerprint: createFingerprint(secureRandom) };

/** A new cuid2 (24 characters, a lower-case letter then letters and digits). */
export const createId = (): string => cuid2From(processSource);

const RECORD_ID = /^[a-z0-9]{1,64}$/;

/** Whether a value can be a record id at all: one that cannot is answered without a query. */
export const isRecordId = (value: string): boolean => RECORD_ID.test(value);

/**
 * What find() gives for the record `id` names; a 404 with `message` when it gives nothing, or when
 * `id` cannot be a record id (then nothing is looked up: a NUL byte would even make PostgreSQL fail).
 */
export async function foundOr404<T>(id: string, message: string, find: () => Promise<T | null | undefined | false>): Promise<T> {
  const found = isRecordId(id) ? await find() : null;
  if (!found) throw notFound(message);
  return found;
}
