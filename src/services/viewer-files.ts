// The viewer's built files (dist/viewer: index.html and viewer.js, made by `npm run build`), read
// once and kept with their strong ETags; GET /viewer serves them and the mockup renderer feeds
// them to its headless pages. A missing build is a 503 that names the fix.
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { HttpError, MESSAGES } from '../errors.js';
import { strongEtag } from '../lib/entity-tags.js';

// src/services and dist/services are both two levels below the project root.
const VIEWER_DIR = new URL('../../dist/viewer/', import.meta.url);

export interface ViewerFile {
  body: Buffer;
  etag: string;
}

export type ViewerFileName = 'index.html' | 'viewer.js';

/** The page's CSP: its inline <style> is allowed by hash, nothing inline runs. */
export function viewerCsp(html: string): string {
  const style = /<style>([\s\S]*?)<\/style>/.exec(html)?.[1] ?? '';
  const styleHash = createHash('sha256').update(style).digest('base64');
  return [
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'sha256-${styleHash}'`,
    "img-src 'self' blob: data:",
    "connect-src 'self' blob: data:",
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
}

export function createViewerFiles() {
  const files = new Map<ViewerFileName, Promise<ViewerFile>>();
  return {
    load(name: ViewerFileName): Promise<ViewerFile> {
      let file = files.get(name);
      if (!file) {
        file = readFile(new URL(name, VIEWER_DIR)).then(
          (body) => ({ body, etag: strongEtag(body) }),
          () => {
            files.delete(name);
            throw new HttpError(503, MESSAGES.viewerNotBuilt);
          },
        );
        files.set(name, file);
      }
      return file;
    },
  };
}

export type ViewerFiles = ReturnType<typeof createViewerFiles>;
