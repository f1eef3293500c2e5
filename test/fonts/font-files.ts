// Font files for the font tests: the bundled DejaVu faces, Ghostscript's URW OpenType (CFF) fonts
// (installed with Ghostscript, which the print tests need anyway), and fonts altered byte-wise to
// be refused for a reason.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { compress } from 'wawoff2';
import type { App } from '../../src/app.js';
import type { TestAccount } from '../helpers/accounts.js';
import { filePart, multipartBody, type Part } from '../helpers/multipart.js';

const dejavuDirectory = path.join(path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
export const dejavu = (file: string) => readFileSync(path.join(dejavuDirectory, file));
/** A CFF-flavoured OpenType font installed on the machine (fonts-urw-base35). */
export const URW_DIRECTORY = '/usr/share/fonts/opentype/urw-base35';
export const urw = (file: string) => readFileSync(path.join(URW_DIRECTORY, file));

export const woff2Of = async (font: Buffer) => Buffer.from(await compress(font));

/** The font with name records of the given ids renumbered to an id nothing reads (300). */
export function withoutNames(font: Buffer, ids: readonly number[]): Buffer {
  const copy = Buffer.from(font);
  const tables = copy.readUInt16BE(4);
  for (let i = 0; i < tables; i++) {
    const record = 12 + 16 * i;
    if (copy.toString('latin1', record, record + 4) !== 'name') continue;
    const offset = copy.readUInt32BE(record + 8);
    const count = copy.readUInt16BE(offset + 2);
    for (let j = 0; j < count; j++) {
      const at = offset + 6 + 12 * j + 6;
      if (ids.includes(copy.readUInt16BE(at))) copy.writeUInt16BE(300, at);
    }
  }
  return copy;
}

/** A TrueType collection (TTC 1.0) holding the font once. */
export function collectionOf(font: Buffer): Buffer {
  const header = Buffer.alloc(16);
  header.write('ttcf', 0, 'latin1');
  header.writeUInt32BE(0x00010000, 4);
  header.writeUInt32BE(1, 8);
  header.writeUInt32BE(16, 12);
  // Table offsets inside the font are from the start of the collection: shift them by the header.
  const shifted = Buffer.from(font);
  const tables = shifted.readUInt16BE(4);
  for (let i = 0; i < tables; i++) shifted.writeUInt32BE(shifted.readUInt32BE(12 + 16 * i + 8) + 16, 12 + 16 * i + 8);
  return Buffer.concat([header, shifted]);
}

export function postFont(app: App, headers: Record<string, string>, parts: Part[], url = '/fonts') {
  const { body, contentType } = multipartBody(parts);
  return app.inject({ method: 'POST', url, headers: { ...headers, 'content-type': contentType }, payload: body });
}

export const fontPart = (data: Buffer, filename = 'font.ttf') => filePart(data, { filename, contentType: 'application/octet-stream' });

export interface FontBody {
  id: string;
  family: string;
  style: string;
  weight: number;
  format: string;
  sizeBytes: number;
  createdAt: string;
}

export async function uploadFont(app: App, account: TestAccount, data: Buffer, url = '/fonts'): Promise<FontBody> {
  const response = await postFont(app, account.auth, [fontPart(data)], url);
  if (response.statusCode !== 201) throw new Error(`Font upload answered ${response.statusCode}: ${response.body}`);
  return response.json<{ font: FontBody }>().font;
}
