// Reads a stream of known size into one buffer of that size: half the peak memory of gathering
// chunks and concatenating them (what sharp does with a stream input).
import type { Readable } from 'node:stream';

export async function readWhole(stream: Readable, size: number): Promise<Buffer> {
  let buffer = Buffer.allocUnsafe(size);
  let length = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    // The object grew since it was measured: fall back to growing the buffer.
    if (length + chunk.length > buffer.length) {
      buffer = Buffer.concat([buffer.subarray(0, length)], Math.max(buffer.length * 2, length + chunk.length));
    }
    chunk.copy(buffer, length);
    length += chunk.length;
  }
  return length === buffer.length ? buffer : buffer.subarray(0, length);
}
