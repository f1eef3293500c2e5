#!/usr/bin/env node
// npm run readme:examples [-- FILE]: runs FILE's ```sh blocks (default README.md) in document
// order, in one bash shell (variables carry from block to block), against BASE_URL (default
// http://127.0.0.1:3000), and exits non-zero at the first block that fails, printing it.
// A block preceded by the line <!-- readme:skip --> (it installs or starts the server) is not run.
// The blocks run in a scratch directory in which `scripts` links to the repository's scripts/.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const file = path.resolve(process.argv[2] ?? path.join(root, 'README.md'));
const baseUrl = process.env.BASE_URL || 'http://127.0.0.1:3000';
const SKIP = '<!-- readme:skip -->';

/** The ```sh blocks of a Markdown text: their first line number, their code, and whether they are skipped. */
export function shellBlocks(markdown) {
  const lines = markdown.split('\n');
  const blocks = [];
  for (let i = 0; i < lines.length; i++) {
    const fence = /^(\s*)(`{3,}|~{3,})\s*(\S*)/.exec(lines[i]);
    if (!fence) continue;
    const [, , marker, lang] = fence;
    let end = i + 1;
    while (end < lines.length && !lines[end].trimStart().startsWith(marker)) end++;
    if (lang === 'sh') {
      let previous = i - 1;
      while (previous >= 0 && lines[previous].trim() === '') previous--;
      blocks.push({ line: i + 1, code: lines.slice(i + 1, end).join('\n'), skip: previous >= 0 && lines[previous].trim() === SKIP });
    }
    i = end;
  }
  return blocks;
}

const blocks = shellBlocks(readFileSync(file, 'utf8'));
const runnable = blocks.filter((block) => !block.skip);
const name = path.relative(process.cwd(), file) || file;
if (runnable.length === 0) {
  console.error(`${name}: no \`\`\`sh block to run.`);
  process.exit(1);
}

const work = mkdtempSync(path.join(tmpdir(), 'readme-examples-'));
symlinkSync(path.join(root, 'scripts'), path.join(work, 'scripts'));
const parts = [
  'set -euo pipefail',
  `export BASE_URL=${JSON.stringify(baseUrl)}`,
  'CURRENT_BLOCK=""',
  `trap 'status=$?; if [ "$status" -ne 0 ] && [ -n "$CURRENT_BLOCK" ]; then echo; ` +
    `echo "FAILED (exit $status): ${name} $CURRENT_BLOCK:"; cat "blocks/$CURRENT_FILE"; fi >&2' EXIT`,
];
const blockDir = path.join(work, 'blocks');
spawnSync('mkdir', ['-p', blockDir]);
runnable.forEach((block, index) => {
  const blockFile = `${index + 1}.sh`;
  writeFileSync(path.join(blockDir, blockFile), `${block.code}\n`);
  parts.push(
    `CURRENT_BLOCK="block ${index + 1} of ${runnable.length} (line ${block.line})"; CURRENT_FILE=${blockFile}`,
    `echo "== ${name}: $CURRENT_BLOCK" >&2`,
    block.code,
  );
});
parts.push('CURRENT_BLOCK=""');
writeFileSync(path.join(work, 'run.sh'), `${parts.join('\n')}\n`);

console.error(`${name}: ${runnable.length} block(s) to run, ${blocks.length - runnable.length} skipped, against ${baseUrl} in ${work}.`);
const result = spawnSync('bash', ['run.sh'], { cwd: work, stdio: 'inherit', env: { ...process.env, BASE_URL: baseUrl } });
if (result.status === 0) {
  rmSync(work, { recursive: true, force: true });
  console.error(`${name}: every block passed.`);
}
process.exit(result.status ?? 1);
