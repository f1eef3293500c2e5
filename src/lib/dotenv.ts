// `.env` in the working directory, read once at start-up by the process entries (server, migrate).
// The real environment always wins: a variable set there is never replaced by the file's value.
import { readFileSync } from 'node:fs';

const LINE = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*?)\s*$/;

/** KEY=value lines; # starts a comment line; a value may be wrapped in '…' or "…" (taken literally). */
export function parseDotenv(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*(#|$)/.test(line)) continue;
    const match = LINE.exec(line);
    if (!match) continue;
    const [, key = '', raw = ''] = match;
    const quoted = /^(['"])(.*)\1$/.exec(raw);
    values[key] = quoted ? (quoted[2] ?? '') : raw.replace(/\s+#.*$/, '');
  }
  return values;
}

/** The environment with `.env`'s variables added underneath it; the file is optional. */
export function withDotenv(env: NodeJS.ProcessEnv, file = '.env'): { env: NodeJS.ProcessEnv; loaded: string[] } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { env, loaded: [] };
    throw error;
  }
  const fromFile = parseDotenv(text);
  const loaded = Object.keys(fromFile).filter((key) => env[key] === undefined);
  return { env: { ...fromFile, ...env }, loaded };
}
