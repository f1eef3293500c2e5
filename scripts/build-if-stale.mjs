// `npm start`'s prestart: compiles only when something the build reads is newer than
// dist/server.js (the TypeScript and the 3D viewer's bundle), so a second start does not spend seconds on an unchanged tree.
import { execFileSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname ?? path.dirname(new URL(import.meta.url).pathname), '..');
const output = path.join(root, 'dist', 'server.js');

function newest(entry) {
  const stat = statSync(entry);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(entry).reduce((max, name) => Math.max(max, newest(path.join(entry, name))), stat.mtimeMs);
}

let built = 0;
try {
  built = statSync(output).mtimeMs;
} catch {
  // never built
}
const inputs = ['src', 'viewer', 'scripts/build-viewer.mjs', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json'];
const changed = inputs.some((input) => newest(path.join(root, input)) > built);
if (changed) {
  console.error(
    built
      ? 'Sources changed since the last build: compiling (a few seconds)…'
      : 'First start: compiling TypeScript to dist/ (a few seconds)…',
  );
  execFileSync(process.execPath, [path.join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], {
    cwd: root,
    stdio: 'inherit',
  });
  execFileSync(process.execPath, [path.join(root, 'scripts', 'build-viewer.mjs')], { cwd: root, stdio: 'inherit' });
  execFileSync(process.execPath, [path.join(root, 'scripts', 'copy-print-profiles.mjs')], { cwd: root, stdio: 'inherit' });
} else {
  console.error('dist/ is up to date with src/: not rebuilding.');
}
