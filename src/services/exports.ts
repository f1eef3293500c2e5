// Exports as jobs: the request (with its Idempotency-Key), the export as the client sees it, and
// one render attempt, which whatever runs jobs (the in-process runner or a queue worker) calls.
// The state lives in the database only; a queue carries export ids and nothing else.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { apiError, conflict, HttpError, MESSAGES } from '../errors.js';
import { RenderError } from '../render/errors.js';
import { createId, foundOr404, isRecordId } from '../lib/ids.js';
import type { ExportError, ExportRepository, ExportRow } from '../repositories/exports.js';
import type { Project } from '../repositories/projects.js';
import type { FileStorage } from '../storage/index.js';
import type { Readable } from 'node:stream';
import { pageOf, type ListCursorFactory } from '../lib/cursors.js';
import { createExportOptionsCheck, extensionOf, renderExport, type ExportFormat, type ExportRenderers } from './export-render.js';
import { checkIdempotencyKey, IDEMPOTENCY_LIFETIME_MS, IDEMPOTENCY_MESSAGES, requestDigest } from './idempotency.js';
import type { ProjectService } from './projects.js';
import { PreflightRefusal } from './print.js';

export const EXPORT_MESSAGES = {
  notFound: 'Export not found.',
  expired: 'Export has expired.',
  versionGone: 'The project version this export renders is no longer kept.',
  failed: 'The export could not be rendered.',
  workerStopped: (times: number) => `The export's worker stopped ${times} time${times === 1 ? '' : 's'}.`,
  preflightErrors: (routeBase: string, projectId: string) =>
    `The project has preflight errors; see GET ${routeBase}/projects/${projectId}/preflight.`,
} as const;

/** Files and rows are kept this long after an export finishes. */
export const EXPORT_LIFETIME_MS = 24 * 60 * 60 * 1000;
export const EXPORT_PAGE_DEFAULT = 20;
/** Exports of one account queued or running at once; one more is answered 429. */
export const QUEUED_EXPORTS_LIMIT = 50;
const QUEUED_EXPORTS_RETRY_AFTER_S = 30;
/** A finished export not announced after this long is announced by the sweep. */
const ANNOUNCE_GRACE_MS = 30_000;

export interface ExportDto {
  id: string;
  projectId: string;
  projectVersion: number;
  format: string;
  options: Record<string, unknown>;
  status: ExportRow['status'];
  /** Render attempts started; 2 or more after a takeover or a retry. */
  attempts: number;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  error: ExportError | null;
  downloadUrl: string | null;
  expiresAt: string | null;
}

/** Signs and checks the service's own download URLs; S3 presigns its own instead (see presign). */
export interface DownloadLinks {
  /** The URL a client downloads a succeeded export from, valid until expiresAt. */
  urlFor(row: ExportRow & { fileName: string; expiresAt: Date }): Promise<string>;
}

/** What finishing an export tells (the webhooks). */
export type ExportFinished = (userId: string, event: 'export.succeeded' | 'export.failed', dto: ExportDto) => Promise<void>;

/** 'waiting': a render pool was busy; the export is queued again without using an attempt. */
export type AttemptOutcome = 'succeeded' | 'failed' | 'retry' | 'waiting' | 'skipped';

/**
 * How long an export waits after a busy render pool before it is tried again: a quarter of the
 * time it has waited so far, from 1 s to 30 s (a burst passes fast, a long queue is not polled hard).
 */
export function busyBackoffMs(waitedMs: number): number {
  return Math.min(30_000, Math.max(1_000, Math.round(waitedMs / 4)));
}

/** HMAC-signed `/exports/<id>/download?expires=&signature=` links, for storage that cannot presign. */
export function createSignedDownloadLinks(secret: Buffer, publicBaseUrl: string | null) {
  const key = createHmac('sha256', secret).update('export-download').digest();
  const sign = (id: string, expires: number) => createHmac('sha256', key).update(`${id}.${expires}`).digest('base64url');
  return {
    urlFor: async (row: { id: string; expiresAt: Date }) => {
      const expires = Math.floor(row.expiresAt.getTime() / 1000);
      return `${publicBaseUrl ?? ''}/exports/${row.id}/download?expires=${expires}&signature=${sign(row.id, expires)}`;
    },
    /** True when the signature is this service's for that export and expiry (expired or not). */
    verify(id: string, expires: number, signature: string): boolean {
      const expected = Buffer.from(sign(id, expires));
      const presented = Buffer.from(signature);
      return expected.length === presented.length && timingSafeEqual(expected, presented);
    },
  };
}

export interface ExportServiceDeps {
  repository: ExportRepository;
  projects: ProjectService;
  renderers: ExportRenderers;
  storage: FileStorage;
  links: DownloadLinks;
  cursors: ListCursorFactory;
  attempts: number;
  leaseMs: number;
  /** From creation, how long an export keeps waiting for busy render pools before it fails. */
  deadlineMs: number;
  /** Told after an export finishes, in the process that finished it (the webhooks). */
  announce: ExportFinished;
}

/**
 * jobDuration: a finished render's seconds (the job metrics); workerStopped: an export failed
 * because its workers kept stopping (the process logs it).
 */
type ExportEvents = {
  jobDuration: [format: string, outcome: string, seconds: number];
  workerStopped: [exportId: string, message: string];
};

export function createExportService(deps: ExportServiceDeps) {
  const { repository, storage, links } = deps;
  const checkOptions = createExportOptionsCheck();
  const events = new EventEmitter<ExportEvents>();

  /** Writes the finished file under name (whole or not at all); its size in bytes. A stream is streamed to storage. */
  async function store(name: string, body: Buffer | Readable): Promise<number> {
    if (Buffer.isBuffer(body)) {
      await storage.save(name, body);
      return body.length;
    }
    const pending = await storage.put(body);
    await pending.commit(name);
    return pending.size;
  }

  /** The final failure of an export whose worker died `times` times. */
  async function failStopped(row: ExportRow, times: number, started: number): Promise<AttemptOutcome> {
    const message = EXPORT_MESSAGES.workerStopped(times);
    const outcome = await finishFailed(row, apiError(500, message), started);
    if (outcome === 'failed') events.emit('workerStopped', row.id, message);
    return outcome;
  }

  /** What a failed attempt records: a refused print carries its findings and the caller's route to them. */
  function attemptError(row: ExportRow, error: HttpError): ExportError {
    if (error instanceof PreflightRefusal) {
      return { ...apiError(error.statusCode, EXPORT_MESSAGES.preflightErrors(row.routeBase, row.projectId)), findings: error.findings };
    }
    return apiError(error.statusCode, error.message);
  }

  async function toDto(row: ExportRow): Promise<ExportDto> {
    const downloadable = row.status === 'succeeded' && row.fileName !== null && row.expiresAt !== null;
    return {
      id: row.id,
      projectId: row.projectId,
      projectVersion: row.projectVersion,
      format: row.format,
      options: row.options,
      status: row.status,
      attempts: row.attempts,
      createdAt: row.createdAt.toISOString(),
      startedAt: row.startedAt?.toISOString() ?? null,
      finishedAt: row.finishedAt?.toISOString() ?? null,
      error: row.error,
      downloadUrl: downloadable ? await links.urlFor(row as ExportRow & { fileName: string; expiresAt: Date }) : null,
      expiresAt: row.expiresAt?.toISOString() ?? null,
    };
  }

  async function announce(row: ExportRow): Promise<void> {
    const event = row.status === 'succeeded' ? 'export.succeeded' : 'export.failed';
    await deps.announce(row.userId, event, await toDto(row));
    await repository.markAnnounced(row.id, new Date());
  }

  async function finishFailed(row: ExportRow, error: ExportError, started: number): Promise<AttemptOutcome> {
    const now = new Date();
    if (!(await repository.fail(row.id, error, now, new Date(now.getTime() + EXPORT_LIFETIME_MS)))) return 'skipped';
    events.emit('jobDuration', row.format, 'failed', (Date.now() - started) / 1000);
    const failed = await repository.find(row.id);
    if (failed) await announce(failed);
    return 'failed';
  }

  async function projectAt(row: ExportRow): Promise<Project | ExportError> {
    const found = await repository.projectState(row.userId, row.projectId, row.projectVersion);
    if (found.kind === 'project-gone') return apiError(404, MESSAGES.projectNotFound);
    if (found.kind === 'version-gone') return apiError(409, EXPORT_MESSAGES.versionGone);
    return { id: row.projectId, userId: row.userId, version: row.projectVersion, ...found.state };
  }

  return {
    toDto,
    events,

    /**
     * Records the request. `created` false: the same Idempotency-Key and request within its
     * lifetime, answered with the export it created then.
     */
    async create(
      userId: string,
      projectId: string,
      request: { format: ExportFormat; options?: Record<string, unknown> },
      idempotencyKey: string | undefined,
      routeBase = '',
    ): Promise<{ export: ExportDto; created: boolean }> {
      if (idempotencyKey !== undefined) checkIdempotencyKey(idempotencyKey);
      const options = request.options ?? {};
      checkOptions(request.format, options);
      const digest = idempotencyKey === undefined ? null : requestDigest({ projectId, body: request });
      const keyWindowStart = new Date(Date.now() - IDEMPOTENCY_LIFETIME_MS);
      // A repeat is answered before any limit: it creates nothing.
      const repeated = async (row: ExportRow) => {
        if (row.requestDigest !== digest) throw conflict(IDEMPOTENCY_MESSAGES.conflict);
        return { export: await toDto(row), created: false };
      };
      const earlier = idempotencyKey === undefined ? null : await repository.findByKey(userId, idempotencyKey, keyWindowStart);
      if (earlier) return repeated(earlier);
      const project = await deps.projects.get(userId, projectId);
      const outcome = await repository.insert(
        {
          id: createId(),
          userId,
          projectId: project.id,
          projectVersion: project.version,
          format: request.format,
          options,
          idempotencyKey: idempotencyKey ?? null,
          requestDigest: digest,
          routeBase,
        },
        keyWindowStart,
        QUEUED_EXPORTS_LIMIT,
      );
      if (outcome.kind === 'limit-reached') throw new HttpError(429, MESSAGES.tooManyExports, QUEUED_EXPORTS_RETRY_AFTER_S);
      if (outcome.kind === 'key-taken') return repeated(outcome.row);
      return { export: await toDto(outcome.row), created: true };
    },

    async get(userId: string, id: string): Promise<ExportDto> {
      return toDto(await foundOr404(id, EXPORT_MESSAGES.notFound, () => repository.findOwned(userId, id, new Date())));
    },

    async list(
      userId: string,
      query: { projectId?: string; limit?: number; cursor?: string },
    ): Promise<{ exports: ExportDto[]; nextCursor: string | null }> {
      const limit = query.limit ?? EXPORT_PAGE_DEFAULT;
      const cursors = deps.cursors('exports', userId);
      const after = query.cursor === undefined ? null : cursors.decode(query.cursor);
      const rows = await repository.listPage(userId, { projectId: query.projectId ?? null, after, limit, now: new Date() });
      const { page, nextCursor } = pageOf(rows, limit, cursors);
      return { exports: await Promise.all(page.map(toDto)), nextCursor };
    },

    /** The stored file of a succeeded export that has not expired; null otherwise. */
    async downloadable(id: string, now: Date): Promise<ExportRow | null> {
      const row = isRecordId(id) ? await repository.find(id) : null;
      if (!row || row.status !== 'succeeded' || !row.fileName || !row.expiresAt || row.expiresAt <= now) return null;
      return row;
    },

    /**
     * One render attempt of an export. takeOver: the caller holds the queue's own lock on it (a
     * stalled job handed to this worker), so a running row is taken even while its lease lasts.
     * 'retry': a failure that may pass (the row is queued again); the caller schedules the retry.
     */
    async attempt(id: string, options: { takeOver: boolean; lastAttempt?: boolean }): Promise<AttemptOutcome> {
      const started = Date.now();
      const claimed = await repository.claim(id, new Date(started + deps.leaseMs), options.takeOver, new Date(started));
      if (!claimed) return 'skipped';
      // Past its attempts only when earlier workers died holding it (a failed render ends sooner).
      if (claimed.attempts > deps.attempts) return failStopped(claimed, claimed.attempts - 1, started);
      const renew = () => void repository.renew(id, new Date(Date.now() + deps.leaseMs)).catch(() => undefined);
      const heartbeat = setInterval(renew, Math.max(250, Math.floor(deps.leaseMs / 3)));
      heartbeat.unref();
      const format = claimed.format as ExportFormat;
      const fileName = `export-${id}.${extensionOf(format)}`;
      try {
        const project = await projectAt(claimed);
        if (!('version' in project)) return await finishFailed(claimed, project, started);
        const file = await renderExport(deps.renderers, project, format, claimed.options);
        const sizeBytes = await store(fileName, file.body);
        const finishedAt = new Date();
        const done = await repository.succeed(
          id,
          { fileName, downloadName: file.downloadName, contentType: file.contentType, sizeBytes },
          finishedAt,
          new Date(finishedAt.getTime() + EXPORT_LIFETIME_MS),
        );
        if (!done) {
          // Another process finished it meanwhile; this copy is not the one its row names.
          const row = await repository.find(id);
          if (row?.fileName !== fileName) await storage.delete(fileName);
          return 'skipped';
        }
        events.emit('jobDuration', claimed.format, 'succeeded', (Date.now() - started) / 1000);
        const row = await repository.find(id);
        if (row) await announce(row);
        return 'succeeded';
      } catch (error) {
        // A render pool, or the admission in front of one, had no room: waiting is the answer, not failing.
        if (error instanceof RenderError && error.reason === 'busy') {
          const now = Date.now();
          const retryAt = now + busyBackoffMs(now - claimed.createdAt.getTime());
          if (retryAt > claimed.createdAt.getTime() + deps.deadlineMs) {
            return await finishFailed(claimed, apiError(503, error.message), started);
          }
          await repository.wait(id, new Date(retryAt));
          return 'waiting';
        }
        // A 4xx is the design's own problem (preflight errors, a size the style cannot make): final.
        if (error instanceof HttpError && error.statusCode < 500) {
          return await finishFailed(claimed, attemptError(claimed, error), started);
        }
        if (options.lastAttempt || claimed.attempts >= deps.attempts) {
          return await finishFailed(claimed, apiError(500, EXPORT_MESSAGES.failed), started);
        }
        await repository.release(id, new Date());
        return 'retry';
      } finally {
        clearInterval(heartbeat);
      }
    },

    /** Fails an export whose queue job gave up (its workers stopped while holding it, past its attempts). */
    async giveUp(id: string): Promise<void> {
      const row = await repository.find(id);
      if (row && (row.status === 'queued' || row.status === 'running')) await failStopped(row, Math.max(1, row.attempts), Date.now());
    },

    /** Announces finished exports whose process died before it could (an announcement is idempotent per export). */
    async announceMissed(): Promise<number> {
      const rows = await repository.unannounced(new Date(Date.now() - ANNOUNCE_GRACE_MS), 100);
      for (const row of rows) await announce(row);
      return rows.length;
    },

    /** Removes exports (rows and files) whose lifetime is over; returns how many. */
    async removeExpired(removeFiles: (names: string[]) => Promise<unknown>): Promise<number> {
      let removed = 0;
      for (;;) {
        const { count, fileNames } = await repository.deleteExpired(new Date(), 100);
        await removeFiles(fileNames);
        removed += count;
        if (count < 100) return removed;
      }
    },
  };
}

export type ExportService = ReturnType<typeof createExportService>;
