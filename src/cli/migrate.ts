// `npm run db:migrate`: applies pending migrations to the configured database and exits.
import { ConfigError, loadConfig, withDotenv } from '../config.js';
import { openDatabase } from '../db/database.js';
import { migrate } from '../db/migrator.js';

try {
  const config = loadConfig(withDotenv(process.env).env);
  const database = await openDatabase(config.database, {}, { command: 'npm run db:migrate' });
  try {
    const { applied } = await database.withSession((session) => migrate(session));
    console.log(applied.length ? `Applied ${applied.length} migration(s): ${applied.join(', ')}` : 'Database is up to date.');
  } finally {
    await database.close();
  }
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : `Migration failed: ${(error as Error).message}`);
  process.exitCode = 1;
}
