// Composition root of the service layer: wires repositories and helpers into the services the
// routes call.
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import { createSecretSealer } from '../lib/secret-sealer.js';
import { createListCursors } from '../lib/cursors.js';
import { createPasswordHasher } from '../lib/passwords.js';
import { createRepositories } from '../repositories/index.js';
import { createRenderer } from '../render/index.js';
import { createStorage, type SelectedStorage } from '../storage/index.js';
import { createAccountService } from './accounts.js';
import { createAdminService } from './admin.js';
import { createApiKeyService } from './api-keys.js';
import { createAssetService } from './assets.js';
import { createBarcodeService } from './barcodes.js';
import { createAuthService } from './auth.js';
import { createDielineService } from './dielines.js';
import { createExportService, createSignedDownloadLinks } from './exports.js';
import { createFileJanitor } from './file-janitor.js';
import { createFontService } from './fonts.js';
import { createIdempotencyService } from './idempotency.js';
import { createPrintService } from './print.js';
import { createModelService } from './models.js';
import { createMockupService } from './mockups.js';
import { createProjectService } from './projects.js';
import { createShareService } from './shares.js';
import { createSheetLayoutService } from './sheet-layouts.js';
import { createPrintAdmission } from './print-admission.js';
import { createViewerFiles } from './viewer-files.js';
import { createWebhookService } from './webhooks.js';

/** storage: the local disk, or the S3 bucket when S3_BUCKET is set (src/storage/select.ts). */
export function createServices(config: Config, db: Database, selected: SelectedStorage = createStorage(config)) {
  const repositories = createRepositories(db);
  const { storage } = selected;
  // One hasher (and so one bcrypt queue) for every service that hashes or checks passwords.
  const passwordHasher = createPasswordHasher(config.bcryptCost);
  const fileJanitor = createFileJanitor(repositories.fileDeletions, storage);
  // The child processes every render runs in; closed (their children killed) with the app.
  const renderer = createRenderer(config.render);
  const printAdmission = createPrintAdmission(config.render.accountQueue);
  const fonts = createFontService(repositories.fonts, storage, fileJanitor);
  const print = createPrintService(
    repositories.assets,
    storage,
    config.publicBaseUrl,
    renderer,
    printAdmission,
    fonts,
    config.printImageCache,
  );
  const models = createModelService(print);
  const viewerFiles = createViewerFiles();
  // Developer keys, webhook secrets and share tokens are sealed alike (each row's id as authenticated data).
  const sealer = createSecretSealer(config.apiKeySecret);
  const listCursors = createListCursors(config.jwtSecret);
  const webhooks = createWebhookService(
    repositories.webhooks,
    sealer,
    { allowPrivate: config.webhooks.allowPrivate, production: config.production },
    listCursors,
  );
  const projects = createProjectService(repositories.projects, fileJanitor, webhooks.projectChanged);
  const dielines = createDielineService();
  const downloadLinks = createSignedDownloadLinks(config.apiKeySecret, config.publicBaseUrl);
  const exports = createExportService({
    repository: repositories.exports,
    projects,
    renderers: { print, models, dielines },
    storage,
    // Object storage hands out its own presigned URLs; the local disk's files are served by the service.
    links: storage.presign
      ? {
          urlFor: (row) =>
            storage.presign!(row.fileName, row.expiresAt, {
              fileName: row.downloadName ?? row.fileName,
              contentType: row.contentType ?? 'application/octet-stream',
            }),
        }
      : downloadLinks,
    cursors: listCursors,
    attempts: config.exports.attempts,
    leaseMs: config.exports.leaseMs,
    deadlineMs: config.exports.deadlineMs,
    announce: webhooks.exportFinished,
  });
  const assets = createAssetService(repositories.assets, storage, fileJanitor, renderer, fonts.ownerFonts);
  return {
    passwordHasher,
    storage,
    closeStorage: selected.close,
    auth: createAuthService(repositories.users, passwordHasher),
    accounts: createAccountService(repositories.users, passwordHasher, fileJanitor),
    admin: createAdminService(repositories.users, config.jwtSecret),
    apiKeys: createApiKeyService(repositories.apiKeys, sealer),
    projects,
    shares: createShareService(repositories.shares, projects, sealer),
    assets,
    fonts,
    barcodes: createBarcodeService(assets, renderer),
    renderer,
    fileJanitor,
    dielines,
    sheetLayouts: createSheetLayoutService(renderer, printAdmission),
    print,
    models,
    viewerFiles,
    exports,
    downloadLinks,
    webhooks,
    /** Stored answers of creating requests sent with an Idempotency-Key. */
    idempotency: createIdempotencyService(repositories.idempotentRequests, sealer),
    /** Cursors of the account lists, keyed per list and account. */
    listCursors,
    /** The job runners' direct access (export claims, webhook message state). */
    jobRepositories: { exports: repositories.exports, webhooks: repositories.webhooks },
    webhookSealer: sealer,
    /** Null unless MOCKUP_ENABLED: then GET /projects/:id/mockup exists. */
    mockups: config.mockup ? createMockupService(config.mockup, models, viewerFiles, config.render.accountQueue) : null,
  };
}

export type Services = ReturnType<typeof createServices>;
