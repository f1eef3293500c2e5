// Builds the package into dist/: an ES module build (dist/esm) and a CommonJS one (dist/cjs), each
// with its type declarations and the generated schema.d.ts beside them. TypeScript and
// openapi-fetch are resolved from the repository's node_modules (run `npm ci` at the root first);
// `npm pack` runs this as its prepack step.
import { execFileSync } from 'node:child_process';
import { copyFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const here = path.dirname(new URL(import.meta.url).pathname);
const require = createRequire(path.join(here, 'package.json'));
let tsc;
try {
  tsc = require.resolve('typescript/bin/tsc');
} catch {
  console.error('TypeScript was not found: run `npm ci` in the repository root before building the client.');
  process.exit(1);
}

const common = [
  'index.ts', '--declaration', '--strict', '--skipLibCheck', '--target', 'es2022', '--lib', 'es2022,dom',
  '--types', 'node', '--rootDir', '.',
];
const builds = [
  { dir: 'dist/esm', flags: ['--module', 'nodenext', '--moduleResolution', 'nodenext'] },
  { dir: 'dist/cjs', flags: ['--module', 'commonjs', '--moduleResolution', 'node10', '--esModuleInterop'], type: 'commonjs' },
];

rmSync(path.join(here, 'dist'), { recursive: true, force: true });
for (const build of builds) {
  execFileSync(process.execPath, [tsc, ...common, ...build.flags, '--outDir', build.dir], { cwd: here, stdio: 'inherit' });
  // The generated types are a declaration file: tsc does not copy it, and index.d.ts imports it.
  copyFileSync(path.join(here, 'schema.d.ts'), path.join(here, build.dir, 'schema.d.ts'));
  if (build.type) writeFileSync(path.join(here, build.dir, 'package.json'), `${JSON.stringify({ type: build.type })}\n`);
}
console.error('Built dist/esm and dist/cjs.');
