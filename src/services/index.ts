// Composition root of the service layer: wires repositories and helpers into the services the
// routes call.
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import { createApiKeySealer } from '../lib/api-key-crypto.js';
import { createPasswordHasher } from '../lib/passwords.js';
import { createRepositories } from '../repositories/index.js';
import { createLocalDiskStorage } from '../storage/index.js';
import { createApiKeyService } from './api-keys.js';
import { createAssetService } from './assets.js';
import { createAuthService } from './auth.js';
import { createDielineService } from './dielines.js';
import { createModelService } from './models.js';
import { createBackgroundTextureSource } from './project-texture.js';
import { createProjectService } from './projects.js';

export function createServices(config: Config, db: Database) {
  const repositories = createRepositories(db.prisma);
  return {
    auth: createAuthService(repositories.users, createPasswordHasher(config.bcryptCost)),
    apiKeys: createApiKeyService(repositories.apiKeys, createApiKeySealer(config.apiKeySecret)),
    projects: createProjectService(repositories.projects),
    assets: createAssetService(repositories.assets, createLocalDiskStorage(config.uploadDir)),
    dielines: createDielineService(),
    models: createModelService(createBackgroundTextureSource()),
  };
}

export type Services = ReturnType<typeof createServices>;
