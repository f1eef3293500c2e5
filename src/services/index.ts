// Composition root of the service layer: wires repositories and helpers into the services the
// routes call.
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import { createApiKeySealer } from '../lib/api-key-crypto.js';
import { createPasswordHasher } from '../lib/passwords.js';
import { createRepositories } from '../repositories/index.js';
import { createStorage, type SelectedStorage } from '../storage/index.js';
import { createAccountService } from './accounts.js';
import { createAdminService } from './admin.js';
import { createApiKeyService } from './api-keys.js';
import { createAssetService } from './assets.js';
import { createAuthService } from './auth.js';
import { createDielineService } from './dielines.js';
import { createFileJanitor } from './file-janitor.js';
import { createPrintService } from './print.js';
import { createModelService } from './models.js';
import { createPrintTextureSource } from './project-texture.js';
import { createMockupService } from './mockups.js';
import { createProjectService } from './projects.js';
import { createShareService } from './shares.js';
import { createViewerFiles } from './viewer-files.js';

/** storage: the local disk, or the S3 bucket when S3_BUCKET is set (src/storage/select.ts). */
export function createServices(config: Config, db: Database, selected: SelectedStorage = createStorage(config)) {
  const repositories = createRepositories(db);
  const { storage } = selected;
  // One hasher (and so one bcrypt queue) for every service that hashes or checks passwords.
  const passwordHasher = createPasswordHasher(config.bcryptCost);
  const fileJanitor = createFileJanitor(repositories.fileDeletions, storage);
  const print = createPrintService(repositories.assets, storage, config.publicBaseUrl);
  const models = createModelService(createPrintTextureSource(print));
  const viewerFiles = createViewerFiles();
  const sealer = createApiKeySealer(config.apiKeySecret);
  const projects = createProjectService(repositories.projects);
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
    assets: createAssetService(repositories.assets, storage, fileJanitor),
    fileJanitor,
    dielines: createDielineService(),
    print,
    models,
    viewerFiles,
    /** Null unless MOCKUP_ENABLED: then GET /projects/:id/mockup exists. */
    mockups: config.mockup ? createMockupService(config.mockup, models, viewerFiles) : null,
  };
}

export type Services = ReturnType<typeof createServices>;
