// The repository layer: the only code that talks to Prisma (its client, or on the hot paths its
// driver adapter). Every per-account query takes the owner's id as a parameter.
import type { Database } from '../db/database.js';
import { createApiKeyRepository } from './api-keys.js';
import { createAssetRepository } from './assets.js';
import { createExportRepository } from './exports.js';
import { createFileDeletionRepository } from './file-deletions.js';
import { createFontRepository } from './fonts.js';
import { createProjectRepository } from './projects.js';
import { createShareRepository } from './shares.js';
import { createUserRepository } from './users.js';
import { createWebhookRepository } from './webhooks.js';

export function createRepositories({ prisma, sql }: Pick<Database, 'prisma' | 'sql'>) {
  return {
    users: createUserRepository(prisma, sql),
    apiKeys: createApiKeyRepository(prisma),
    projects: createProjectRepository(prisma, sql),
    assets: createAssetRepository(prisma),
    fonts: createFontRepository(prisma),
    fileDeletions: createFileDeletionRepository(prisma),
    exports: createExportRepository(prisma),
    webhooks: createWebhookRepository(prisma),
    shares: createShareRepository(prisma),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
