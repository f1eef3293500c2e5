// What crosses the process boundary. Values go by structured clone (Node's advanced IPC
// serialization keeps Buffers and shared references), except two things it cannot carry:
// - an object with a `load()` method (a print's ResolvedAsset) travels as its other fields plus
//   the bytes load() gave, and comes back with a load() that returns them; one object, one copy.
//   One that names a `localFile` travels with that path instead, and its load() reads the file:
//   a print of large photos does not copy them through the web process;
// - an error travels as its name, message and status, and becomes the error class it was, when
//   the parent knows it (see errors.ts), so the caller can tell a refused image from a bug.

import { readFile } from 'node:fs/promises';
import { HttpError, MESSAGES } from '../errors.js';

const LOADED = '__renderLoadedBytes';
const LOAD_FROM = '__renderLoadFrom';

type Loadable = { load(): Promise<Buffer> };

const isPlainObject = (value: object): value is Record<string, unknown> => {
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
};
const isLoadable = (value: Record<string, unknown>): value is Record<string, unknown> & Loadable => typeof value.load === 'function';

/** A copy of value ready to send: every loadable object's bytes read once. */
export async function pack(value: unknown, seen = new Map<object, Promise<unknown>>()): Promise<unknown> {
  if (value === null || typeof value !== 'object') return typeof value === 'function' ? undefined : value;
  if (ArrayBuffer.isView(value)) return value;
  let copy = seen.get(value);
  if (!copy) {
    copy = packObject(value, seen);
    seen.set(value, copy);
  }
  return copy;
}

async function packObject(value: object, seen: Map<object, Promise<unknown>>): Promise<unknown> {
  if (Array.isArray(value)) return Promise.all(value.map((item) => pack(item, seen)));
  if (value instanceof Map) {
    return new Map(await Promise.all([...value].map(async ([key, item]) => [key, await pack(item, seen)] as const)));
  }
  if (!isPlainObject(value)) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) {
    if (typeof item !== 'function') copy[key] = await pack(item, seen);
  }
  if (isLoadable(value)) {
    if (typeof value.localFile === 'string') copy[LOAD_FROM] = value.localFile;
    else copy[LOADED] = await value.load();
  }
  return copy;
}

/** The received value with each packed loadable given its load() back. Identity is kept. */
export function unpack(value: unknown, seen = new Map<object, unknown>()): unknown {
  if (value === null || typeof value !== 'object' || ArrayBuffer.isView(value)) return value;
  if (seen.has(value)) return seen.get(value);
  if (Array.isArray(value)) {
    const copy: unknown[] = [];
    seen.set(value, copy);
    for (const item of value) copy.push(unpack(item, seen));
    return copy;
  }
  if (value instanceof Map) {
    const copy = new Map();
    seen.set(value, copy);
    for (const [key, item] of value) copy.set(key, unpack(item, seen));
    return copy;
  }
  if (!isPlainObject(value)) return value;
  const copy: Record<string, unknown> = {};
  seen.set(value, copy);
  for (const [key, item] of Object.entries(value)) {
    if (key !== LOADED && key !== LOAD_FROM) copy[key] = unpack(item, seen);
  }
  if (LOADED in value) {
    const bytes = value[LOADED] as Buffer;
    copy.load = async () => bytes;
  }
  if (LOAD_FROM in value) {
    const file = value[LOAD_FROM] as string;
    let bytes: Promise<Buffer> | undefined;
    copy.load = () => (bytes ??= readFile(file).catch(deletedMeanwhile));
  }
  return copy;
}

/** The file was there when the render was asked for and is gone now: the design changed under it (409), not a bug. */
function deletedMeanwhile(error: unknown): never {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new HttpError(409, MESSAGES.imageDeletedWhileRendering);
  throw error;
}

export interface SentError {
  name: string;
  message: string;
  statusCode?: number;
}

export function errorToSend(error: unknown): SentError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const { statusCode } = error as { statusCode?: unknown };
  return { name: error.name, message: error.message, ...(typeof statusCode === 'number' ? { statusCode } : {}) };
}
