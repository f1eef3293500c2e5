// multipart/form-data bodies built by hand, byte for byte, so tests control every boundary, header
// and payload (and can send a body in pieces over a raw socket).
import { randomBytes } from 'node:crypto';

/** A part is a file when it has a filename (as busboy decides); otherwise a plain field. */
export interface Part {
  name: string;
  filename?: string;
  contentType?: string;
  data: Buffer | string;
}

export interface MultipartBody {
  body: Buffer;
  boundary: string;
  /** The Content-Type request header, boundary included. */
  contentType: string;
}

export const newBoundary = () => `----pf-test-${randomBytes(12).toString('hex')}`;

export const multipartContentType = (boundary: string) => `multipart/form-data; boundary=${boundary}`;

/** A file part named "file" (the upload field), declared as image/png unless told otherwise. */
export function filePart(data: Buffer | string, overrides: Partial<Omit<Part, 'data'>> = {}): Part {
  return { name: 'file', filename: 'image.png', contentType: 'image/png', ...overrides, data };
}

/** The delimiter and headers that open a part, up to and including the blank line. */
export function partHead(part: Omit<Part, 'data'>, boundary: string): Buffer {
  let disposition = `Content-Disposition: form-data; name="${part.name}"`;
  if (part.filename !== undefined) disposition += `; filename="${part.filename}"`;
  const lines = [`--${boundary}`, disposition];
  if (part.contentType !== undefined) lines.push(`Content-Type: ${part.contentType}`);
  return Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'utf8');
}

/** What closes the last part's data and the whole body. */
export const bodyTail = (boundary: string) => Buffer.from(`\r\n--${boundary}--\r\n`, 'latin1');

export function multipartBody(parts: Part[], boundary = newBoundary()): MultipartBody {
  const chunks: Buffer[] = [];
  parts.forEach((part, index) => {
    if (index > 0) chunks.push(Buffer.from('\r\n', 'latin1'));
    chunks.push(partHead(part, boundary), Buffer.isBuffer(part.data) ? part.data : Buffer.from(part.data, 'utf8'));
  });
  chunks.push(parts.length > 0 ? bodyTail(boundary) : Buffer.from(`--${boundary}--\r\n`, 'latin1'));
  return { body: Buffer.concat(chunks), boundary, contentType: multipartContentType(boundary) };
}
