// Idempotency-Key on creating requests: the same key with the same request on the same route
// within 24 hours answers what the first request answered, without doing it again; the key with
// another request is a 409. Exports keep the key on their own rows (services/exports.ts) and
// share the rules and messages here.
import { createHash, randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { badRequest, conflict } from '../errors.js';
import type { SecretSealer } from '../lib/secret-sealer.js';
import type { IdempotentKey, IdempotentRequestRepository } from '../repositories/idempotent-requests.js';

export const IDEMPOTENCY_MESSAGES = {
  conflict: 'Idempotency-Key was used with another request.',
  keyInvalid: 'Idempotency-Key must be 1 to 255 visible ASCII characters.',
  inProgress: 'A request with this Idempotency-Key is still running; retry it later.',
} as const;

/** How long a key is remembered, from its first request. */
export const IDEMPOTENCY_LIFETIME_MS = 24 * 60 * 60 * 1000;
const KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;

/** 400 unless the key is 1–255 visible ASCII characters. */
export function checkIdempotencyKey(key: string): void {
  if (!KEY_PATTERN.test(key)) throw badRequest(IDEMPOTENCY_MESSAGES.keyInvalid);
}

/** JSON with object keys sorted: two bodies that parse to the same value have the same text. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** SHA-256 (hex) of what makes two requests the same one. */
export const requestDigest = (request: unknown) => createHash('sha256').update(canonicalJson(request)).digest('hex');

/** What a request answered, replayed as 200 with the same body and headers. */
export interface StoredAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: unknown;
}

export type IdempotentStart =
  | { kind: 'replay'; answer: StoredAnswer }
  /** The caller runs the request, then hands its answer over (null: it created nothing, the key is free again). */
  | { kind: 'run'; finish: (answer: StoredAnswer | null) => Promise<void> };

/** How long a running first request holds its key before another may take it (its process stopped). */
const LEASE_MS = 130_000;
/** How long a repeat waits for the first request's answer before answering 409. */
const WAIT_MS = 60_000;

export function createIdempotencyService(repository: IdempotentRequestRepository, sealer: SecretSealer) {
  const sealContext = (id: IdempotentKey) => `idempotency:${id.userId}:${id.route}:${id.key}`;

  return {
    /**
     * Starts a request sent with a key: 'run' when it is the key's first (or the key was
     * forgotten), 'replay' with the first answer when it is the same request again. A repeat that
     * arrives while the first still runs waits for its answer.
     */
    async start(id: IdempotentKey, digest: string): Promise<IdempotentStart> {
      const deadline = Date.now() + WAIT_MS;
      for (let pause = 20; ; pause = Math.min(pause * 2, 500)) {
        const now = new Date();
        const claim = randomBytes(12).toString('base64url');
        const claimed = await repository.claim(id, {
          requestDigest: digest,
          claim,
          leaseUntil: new Date(now.getTime() + LEASE_MS),
          now,
          forgottenBefore: new Date(now.getTime() - IDEMPOTENCY_LIFETIME_MS),
        });
        if (claimed) {
          return {
            kind: 'run',
            finish: async (answer) => {
              if (answer === null) await repository.release(id, claim);
              else await repository.answer(id, claim, sealer.seal(JSON.stringify(answer), sealContext(id)));
            },
          };
        }
        const row = await repository.find(id);
        if (!row) continue; // given up meanwhile: claim it again
        if (row.requestDigest !== digest) throw conflict(IDEMPOTENCY_MESSAGES.conflict);
        if (row.sealedAnswer !== null) {
          return { kind: 'replay', answer: JSON.parse(sealer.open(row.sealedAnswer, sealContext(id))) as StoredAnswer };
        }
        if (Date.now() >= deadline) throw conflict(IDEMPOTENCY_MESSAGES.inProgress);
        await sleep(pause);
      }
    },

    /** Removes keys whose lifetime is over; returns how many. */
    removeForgotten(): Promise<number> {
      return repository.deleteForgotten(new Date(Date.now() - IDEMPOTENCY_LIFETIME_MS));
    },
  };
}
