// The repository layer: the only code that talks to the database, through the Prisma client for
// the simple cases and SQL through driver-sql.ts where a statement must carry a condition the
// client cannot express (and on the project hot paths). Every per-account query takes the owner's
// id as a parameter.
import type { Database } from '../db/database.js';
import { createApiKeyRepository } from './api-keys.js';
import { createAssetRepository } from './assets.js';
import { createExportRepository } from './exports.js';
import { createFileDeletionRepository } from './file-deletions.js';
import { createFontRepository } from './fonts.js';
import { createIdempotentRequestRepository } from './idempotent-requests.js';
import { createProjectRepository } from './projects.js';
import { createShareRepository } from './shares.js';
import { createUserRepository } from './users.js';
import { createWebhookRepository } from './webhooks.js';

export function createRepositories({ prisma, sql }: Pick<Database, 'prisma' | 'sql'>) {
  return {
    users: createUserRepository(prisma, sql),
    apiKeys: createApiKeyRepository(prisma, sql),
    projects: createProjectRepository(sql),
    assets: createAssetRepository(prisma, sql),
    fonts: createFontRepository(prisma, sql),
    fileDeletions: createFileDeletionRepository(prisma),
    exports: createExportRepository(prisma, sql),
    webhooks: createWebhookRepository(prisma, sql),
    shares: createShareRepository(prisma),
    idempotentRequests: createIdempotentRequestRepository(sql),
  };
}
