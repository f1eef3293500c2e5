// Every early answer of POST /assets reaches the client: the service reads the rest of the body
// (within the drain's bounds) before it answers, so no client still writing sees a reset.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { databaseUrl, engineName, uniqueEmail } from '../helpers/app.js';
import { earlyCases, repeat, viaCurl, viaFetch, viaSlowSocket, type EarlyCase, type Outcome } from '../helpers/early-answers.js';
import { startServer, type ServerProcess } from '../helpers/server-process.js';

/** Registers an account over HTTP and returns its token. */
export async function registerOver(baseUrl: string): Promise<string> {
  const response = await fetch(`${baseUrl}/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: uniqueEmail('early'), password: 'password1', name: 'Early' }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { token: string }).token;
}

const TRIES = Number(process.env.EARLY_TRIES ?? 200);

describe(`early answers on POST /assets arrive (${engineName()})`, () => {
  // A server process of its own: a client in the server's own event loop never races it.
  let server: ServerProcess | undefined;
  let url = '';
  let cases: EarlyCase[] = [];
  const scratch = mkdtempSync(path.join(tmpdir(), 'pf-early-'));

  beforeAll(async () => {
    // An empty DATABASE_URL is the embedded engine.
    server = await startServer({ databaseUrl: databaseUrl() ?? '' });
    cases = earlyCases({ authorization: `Bearer ${await registerOver(server.baseUrl)}` });
    url = `${server.baseUrl}/assets`;
  }, 120_000);
  afterAll(() => server?.stop());

  const expectAnswers = (outcomes: Outcome[], early: EarlyCase) => {
    expect(outcomes).toHaveLength(TRIES);
    const wrong = outcomes.filter((outcome) => outcome.status !== early.status);
    expect(wrong.slice(0, 3)).toEqual([]);
    for (const outcome of outcomes) {
      expect(JSON.parse(outcome.body)).toEqual({ statusCode: early.status, error: expect.any(String), message: early.message });
    }
  };
  // The 25.5 MiB bodies run a few at a time; the small ones one after another.
  const concurrencyOf = (early: EarlyCase) => (early.status === 413 ? 4 : 1);

  for (const index of [0, 1, 2, 3]) {
    it(`case ${index + 1}: Node's fetch gets every answer`, { timeout: 300_000 }, async () => {
      const early = cases[index]!;
      expectAnswers(await repeat(TRIES, concurrencyOf(early), () => viaFetch(url, early)), early);
    });

    it(`case ${index + 1}: a raw socket writing slowly, reading only at the end, gets every answer`, { timeout: 300_000 }, async () => {
      const early = cases[index]!;
      expectAnswers(await repeat(TRIES, concurrencyOf(early), () => viaSlowSocket(url, early)), early);
    });

    it(`case ${index + 1}: curl gets every answer`, { timeout: 300_000 }, async () => {
      const early = cases[index]!;
      expectAnswers(await viaCurl(url, early, TRIES, scratch, concurrencyOf(early)), early);
    });
  }
});
