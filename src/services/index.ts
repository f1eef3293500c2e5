// Composition root of the service layer: wires repositories and helpers into the services the
// routes call.
import type { Config } from '../config.js';
import type { Database } from '../db/database.js';
import { createPasswordHasher } from '../lib/passwords.js';
import { createRepositories } from '../repositories/index.js';
import { createAuthService } from './auth.js';

export function createServices(config: Config, db: Database) {
  const repositories = createRepositories(db.prisma);
  return {
    auth: createAuthService(repositories.users, createPasswordHasher(config.bcryptCost)),
  };
}

export type Services = ReturnType<typeof createServices>;
