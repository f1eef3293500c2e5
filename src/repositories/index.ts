// The repository layer: the only code that talks to Prisma. Every per-account query takes the
// owner's id as a parameter.
import type { PrismaClient } from '../generated/prisma/client.js';
import { createApiKeyRepository } from './api-keys.js';
import { createAssetRepository } from './assets.js';
import { createFileDeletionRepository } from './file-deletions.js';
import { createProjectRepository } from './projects.js';
import { createUserRepository } from './users.js';

export function createRepositories(prisma: PrismaClient) {
  return {
    users: createUserRepository(prisma),
    apiKeys: createApiKeyRepository(prisma),
    projects: createProjectRepository(prisma),
    assets: createAssetRepository(prisma),
    fileDeletions: createFileDeletionRepository(prisma),
  };
}

export type Repositories = ReturnType<typeof createRepositories>;
