// Reads a PDF back with tools the service did not write: qpdf (--check, --json, --show-object) and
// Ghostscript (tiffsep separations). Installed by scripts/ensure-poppler.sh and
// scripts/ensure-prepress-tools.sh.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import sharp from 'sharp';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type PdfDict = Record<string, Json>;

export interface PdfObjects {
  /** Every object by its reference ("12 0 R"): a value, or a stream's dictionary under `stream.dict`. */
  objects: Record<string, { value?: Json; stream?: { dict: PdfDict } }>;
  trailer: PdfDict;
  /** The object a reference names (values and stream dictionaries alike); anything else as is. */
  resolve(value: Json | undefined): Json | undefined;
  /** Streams whose dictionary matches. */
  streams(filter: (dict: PdfDict) => boolean): { ref: string; dict: PdfDict }[];
  catalog: PdfDict;
  info: PdfDict;
  pages: PdfDict[];
}

export function withPdfFile<T>(pdf: Buffer, work: (file: string, dir: string) => T): T {
  const dir = mkdtempSync(path.join(tmpdir(), 'pf-pdfx-'));
  try {
    const file = path.join(dir, 'in.pdf');
    writeFileSync(file, pdf);
    return work(file, dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** qpdf --check: exit status 0 and its report. */
export function qpdfCheck(pdf: Buffer): { status: number | null; output: string } {
  return withPdfFile(pdf, (file) => {
    const run = spawnSync('qpdf', ['--check', file], { encoding: 'utf8' });
    return { status: run.status, output: run.stdout + run.stderr };
  });
}

export function readPdf(pdf: Buffer): PdfObjects {
  const json = withPdfFile(pdf, (file) =>
    execFileSync('qpdf', ['--json=2', '--json-stream-data=none', file], { maxBuffer: 1 << 28 }).toString(),
  );
  const all = (JSON.parse(json) as { qpdf: [unknown, Record<string, { value?: Json; stream?: { dict: PdfDict } }>] }).qpdf[1];
  const objects = Object.fromEntries(
    Object.entries(all)
      .filter(([key]) => key.startsWith('obj:'))
      .map(([key, value]) => [key.slice(4), value]),
  );
  const trailer = all.trailer!.value as PdfDict;
  const resolve = (value: Json | undefined): Json | undefined => {
    if (typeof value === 'string' && / \d+ R$/.test(value) && objects[value]) {
      const entry = objects[value]!;
      return entry.stream ? entry.stream.dict : entry.value;
    }
    return value;
  };
  const catalog = resolve(trailer['/Root']) as PdfDict;
  const pageTree = resolve(catalog['/Pages']) as PdfDict;
  const pages = (pageTree['/Kids'] as string[]).map((kid) => resolve(kid) as PdfDict);
  return {
    objects,
    trailer,
    resolve,
    streams: (filter) =>
      Object.entries(objects)
        .filter(([, entry]) => entry.stream && filter(entry.stream.dict))
        .map(([ref, entry]) => ({ ref, dict: entry.stream!.dict })),
    catalog,
    info: resolve(trailer['/Info']) as PdfDict,
    pages,
  };
}

/** A stream's bytes: `raw` as stored (a JPEG's DCT data), else decoded. */
export function streamBytes(pdf: Buffer, ref: string, raw = false): Buffer {
  const id = ref.split(' ')[0]!;
  return withPdfFile(pdf, (file) =>
    execFileSync('qpdf', [`--show-object=${id}`, raw ? '--raw-stream-data' : '--filtered-stream-data', file], { maxBuffer: 1 << 28 }),
  );
}

/** A PDF string as qpdf's JSON writes it ("u:text"). */
export const text = (value: Json | undefined) => (typeof value === 'string' ? value.replace(/^u:/, '') : value);

export interface Plate {
  name: string;
  width: number;
  height: number;
  /** Ink per pixel, 0–255 (255 = solid). */
  ink: Buffer;
}

/** Ghostscript's tiffsep: one plate per process and spot colour of the first page, at `dpi`. */
export async function separations(pdf: Buffer, dpi = 20): Promise<Plate[]> {
  const files = withPdfFile(pdf, (file, dir) => {
    const firstPage = ['-dFirstPage=1', '-dLastPage=1', `-sOutputFile=${path.join(dir, 'sep.tif')}`, file];
    execFileSync('gs', ['-q', '-dSAFER', '-dBATCH', '-dNOPAUSE', '-sDEVICE=tiffsep', `-r${dpi}`, ...firstPage]);
    return readdirSync(dir)
      .filter((name) => /^sep\(.+\)\.tif$/.test(name))
      .map((name) => ({ name: /^sep\((.+)\)\.tif$/.exec(name)![1]!, bytes: readFileSync(path.join(dir, name)) }));
  });
  const plates: Plate[] = [];
  for (const file of files) {
    // tiffsep writes each plate as 8-bit grey, 0 where the ink is solid.
    const { data, info } = await sharp(file.bytes).extractChannel(0).raw().toBuffer({ resolveWithObject: true });
    plates.push({ name: file.name, width: info.width, height: info.height, ink: Buffer.from(data.map((v) => 255 - v)) });
  }
  return plates.sort((a, b) => a.name.localeCompare(b.name));
}

/** The JPEG's quantisation tables (DQT segments, 8-bit), in stream order. */
export function jpegQuantisationTables(jpeg: Buffer): number[][] {
  const tables: number[][] = [];
  let i = 2;
  while (i + 4 <= jpeg.length && jpeg[i] === 0xff) {
    const marker = jpeg[i + 1]!;
    const length = jpeg.readUInt16BE(i + 2);
    if (marker === 0xda) break;
    if (marker === 0xdb) {
      for (let j = i + 4; j < i + 2 + length; ) {
        const wide = jpeg[j]! >> 4;
        tables.push([...jpeg.subarray(j + 1, j + 1 + 64)]);
        j += 1 + 64 * (wide + 1);
      }
    }
    i += 2 + length;
  }
  return tables;
}

/** The JPEG standard's (Annex K) luminance table scaled to `quality` as libjpeg does. */
export function annexKLuminance(quality: number): number[] {
  const base = [
    16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62, 18, 22,
    37, 56, 68, 109, 103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
  ];
  const scale = quality < 50 ? 5000 / quality : 200 - 2 * quality;
  return base.map((value) => Math.max(1, Math.min(255, Math.floor((value * scale + 50) / 100))));
}

/** The file with every stream decompressed (qpdf --qdf), as text: content operators readable. */
export function uncompressed(pdf: Buffer): string {
  return withPdfFile(pdf, (file, dir) => {
    execFileSync('qpdf', ['--qdf', '--object-streams=disable', file, `${dir}/qdf.pdf`]);
    return readFileSync(`${dir}/qdf.pdf`).toString('latin1');
  });
}
