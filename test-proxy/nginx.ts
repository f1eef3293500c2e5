// A real, unprivileged nginx running deploy/nginx.conf: the shipped file is included as it is,
// with only its listen address and upstream server replaced by the test's ports.
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, chmodSync, constants, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');
export const SHIPPED_CONFIG = path.join(ROOT, 'deploy', 'nginx.conf');
const START_TIMEOUT_MS = 10_000;
const STOP_TIMEOUT_MS = 5_000;

export interface NginxProcess {
  /** e.g. http://127.0.0.1:41235, no trailing slash. */
  origin: string;
  /** nginx's error log so far (for failure messages). */
  errorLog(): string;
  stop(): Promise<void>;
}

/** Replaces one line of the shipped config; fails when the line is not there exactly once. */
function replaceOnce(source: string, pattern: RegExp, replacement: string): string {
  const count = source.match(new RegExp(pattern.source, 'gm'))?.length ?? 0;
  if (count !== 1) throw new Error(`deploy/nginx.conf: expected exactly one line matching ${pattern}, found ${count}.`);
  return source.replace(new RegExp(pattern.source, 'm'), replacement);
}

/** The shipped site config with the test's listen address and upstream server(s). */
export function renderSiteConfig(source: string, listen: string, upstream: string | readonly string[]): string {
  const listening = replaceOnce(source, /^(\s*)listen 80;$/, `$1listen ${listen};`);
  const servers = (typeof upstream === 'string' ? [upstream] : upstream).map((server) => `$1server ${server};`).join('\n');
  return replaceOnce(listening, /^(\s*)server 127\.0\.0\.1:3000;$/, servers);
}

export function findNginx(): string {
  const candidates = [
    process.env.NGINX_BIN,
    ...(process.env.PATH ?? '').split(path.delimiter).map((dir) => path.join(dir, 'nginx')),
    '/usr/sbin/nginx',
    '/usr/local/sbin/nginx',
    '/usr/local/nginx/sbin/nginx',
  ].filter((candidate): candidate is string => Boolean(candidate));
  for (const candidate of candidates) {
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not this one.
    }
  }
  throw new Error('nginx was not found: run scripts/ensure-nginx.sh (or set NGINX_BIN).');
}

export async function startNginx(options: { dir: string; port: number; upstream: string | readonly string[] }): Promise<NginxProcess> {
  const { dir, port, upstream } = options;
  const nginx = findNginx();
  // `dir` is the test's own temporary directory: workers of a root master run as "nobody" and
  // must reach the temp directories inside it.
  chmodSync(dir, 0o755);
  for (const sub of ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']) mkdirSync(path.join(dir, sub), { recursive: true });
  const errorLogPath = path.join(dir, 'error.log');
  const sitePath = path.join(dir, 'site.conf');
  writeFileSync(sitePath, renderSiteConfig(readFileSync(SHIPPED_CONFIG, 'utf8'), `127.0.0.1:${port}`, upstream));
  const mainPath = path.join(dir, 'nginx.conf');
  writeFileSync(
    mainPath,
    [
      'worker_processes 1;',
      `pid ${path.join(dir, 'nginx.pid')};`,
      `error_log ${errorLogPath} info;`,
      'events { worker_connections 256; }',
      'http {',
      `    access_log ${path.join(dir, 'access.log')};`,
      ...['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi'].map(
        (sub) => `    ${sub}_temp_path ${path.join(dir, sub)};`,
      ),
      `    include ${sitePath};`,
      '}',
      '',
    ].join('\n'),
  );
  const args = ['-p', `${dir}/`, '-e', errorLogPath, '-c', mainPath];
  const check = spawnSync(nginx, [...args, '-t'], { encoding: 'utf8', timeout: START_TIMEOUT_MS });
  if (check.status !== 0) throw new Error(`nginx -t rejected the configuration:\n${check.stderr}`);

  const child = spawn(nginx, [...args, '-g', 'daemon off;'], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString('utf8')).slice(-10_000);
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const errorLog = () => {
    try {
      return `${stderr}${readFileSync(errorLogPath, 'utf8').slice(-10_000)}`;
    } catch {
      return stderr;
    }
  };

  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const late = await Promise.race([
      exited.then(() => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), STOP_TIMEOUT_MS);
      }),
    ]);
    clearTimeout(timer);
    if (late) {
      child.kill('SIGKILL');
      await exited;
    }
  };

  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`nginx exited during start-up:\n${errorLog()}`);
    }
    try {
      await fetch(`${origin}/`, { signal: AbortSignal.timeout(1_000) });
      break;
    } catch {
      if (Date.now() > deadline) {
        await stop();
        throw new Error(`nginx did not listen on ${origin} within ${START_TIMEOUT_MS} ms:\n${errorLog()}`);
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  return { origin, errorLog, stop };
}
