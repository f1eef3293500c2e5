// Builds the viewer page (GET /viewer): viewer/main.ts with three.js from node_modules bundled by
// esbuild into dist/viewer/viewer.js, next to a copy of viewer/index.html. No CDN at run time.
// Written to temporary names and renamed, so a server or a parallel test never reads half a file.
import { build } from 'esbuild';
import { copyFileSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export async function buildViewer(outDir = path.join(root, 'dist', 'viewer')) {
  mkdirSync(outDir, { recursive: true });
  const result = await build({
    entryPoints: [path.join(root, 'viewer', 'main.ts')],
    bundle: true,
    format: 'iife',
    target: 'es2020',
    minify: true,
    legalComments: 'eof',
    write: false,
    logLevel: 'silent',
  });
  const suffix = `.${process.pid}.${Date.now()}.tmp`;
  const js = path.join(outDir, 'viewer.js');
  writeFileSync(js + suffix, result.outputFiles[0].contents);
  renameSync(js + suffix, js);
  const html = path.join(outDir, 'index.html');
  copyFileSync(path.join(root, 'viewer', 'index.html'), html + suffix);
  renameSync(html + suffix, html);
  return outDir;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const outDir = await buildViewer();
  console.log(`viewer built in ${path.relative(root, outDir)}`);
}
