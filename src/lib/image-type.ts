// What an upload really is, decided from its first bytes: file-type recognises the binary image
// formats; SVG (text, which file-type does not detect) passes only a strict check of its prolog.
import { fileTypeFromBuffer } from 'file-type';

export interface ImageType {
  /** The type stored and served as Content-Type. */
  mime: string;
  /** The extension of the stored name. */
  ext: string;
}

/** How many leading bytes detection reads; the rest of the upload streams through untouched. */
export const SNIFF_BYTES = 8192;

/** Detected type (as file-type names it) → what is stored. Anything else is refused. */
const BINARY_IMAGES: Readonly<Record<string, ImageType>> = {
  'image/png': { mime: 'image/png', ext: 'png' },
  'image/apng': { mime: 'image/apng', ext: 'png' },
  'image/jpeg': { mime: 'image/jpeg', ext: 'jpg' },
  'image/gif': { mime: 'image/gif', ext: 'gif' },
  'image/webp': { mime: 'image/webp', ext: 'webp' },
  'image/avif': { mime: 'image/avif', ext: 'avif' },
};

export const SVG_IMAGE: ImageType = { mime: 'image/svg+xml', ext: 'svg' };

/** Every extension a stored name can carry. */
export const STORED_EXTENSIONS = ['png', 'jpg', 'gif', 'webp', 'avif', 'svg'] as const;

/** The image type of the content, or null when it is not an accepted image. */
export async function detectImageType(head: Uint8Array): Promise<ImageType | null> {
  const detected = await fileTypeFromBuffer(head);
  if (detected) {
    const image = BINARY_IMAGES[detected.mime];
    if (image) return image;
    // An SVG that opens with an XML declaration is "application/xml" to file-type.
    if (detected.mime !== 'application/xml') return null;
  }
  return looksLikeSvg(head) ? SVG_IMAGE : null;
}

// What may precede the root element: whitespace, the XML declaration (not other processing
// instructions such as xml-stylesheet), comments, and a DOCTYPE without an internal subset
// (no entity definitions).
const SVG_PROLOG_ITEM = /^(?:\s+|<\?xml\s[^<>]*\?>|<!--[\s\S]*?-->|<!DOCTYPE\s+svg\b[^<>[\]]*>)/;
const SVG_ROOT = /^<svg[\s>/]/;

/** UTF-8 text (optional BOM) whose prolog is followed by an <svg> root element. */
export function looksLikeSvg(head: Uint8Array): boolean {
  let text = new TextDecoder('utf-8').decode(head);
  for (let match = SVG_PROLOG_ITEM.exec(text); match; match = SVG_PROLOG_ITEM.exec(text)) {
    text = text.slice(match[0].length);
  }
  return SVG_ROOT.test(text);
}
