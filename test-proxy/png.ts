// Valid PNG files of any size: a 1×1 RGB image whose size is made up by a private ancillary chunk
// ("paDd"), which every decoder skips. Real magic bytes, real CRCs.
import { crc32, deflateSync } from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const CHUNK_OVERHEAD = 12;

/** One PNG chunk: length, type, data and its CRC. */
export function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A valid PNG of exactly `size` bytes (at least the size of the bare 1×1 image plus a chunk). */
export function pngOfSize(size: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(1, 0);
  header.writeUInt32BE(1, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // colour type: RGB
  const parts = [
    SIGNATURE,
    pngChunk('IHDR', header),
    pngChunk('IDAT', deflateSync(Buffer.from([0, 0xd0, 0x40, 0x20]))),
  ];
  const end = pngChunk('IEND', Buffer.alloc(0));
  const bare = parts.reduce((total, part) => total + part.length, end.length);
  const padding = size - bare - CHUNK_OVERHEAD;
  if (padding < 0) throw new Error(`A PNG cannot be smaller than ${bare + CHUNK_OVERHEAD} bytes here.`);
  // Deterministic, incompressible-looking filler so a byte-for-byte comparison means something.
  const filler = Buffer.alloc(padding);
  for (let i = 0; i < padding; i += 1) filler[i] = (i * 2654435761) >>> 24;
  return Buffer.concat([...parts, pngChunk('paDd', filler), end]);
}
