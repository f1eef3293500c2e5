// Opens the database (or takes the one given), applies pending migrations before the server
// listens, exposes it as app.db, and closes it last on shutdown.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import { openDatabase, type Database } from '../db/database.js';
import { migrate } from '../db/migrator.js';

export interface DatabasePluginOptions {
  config: Config;
  /** A database opened by the caller; it stays open when the app closes unless ownsDatabase. */
  database?: Database;
  ownsDatabase?: boolean;
}

async function databasePlugin(app: FastifyInstance, { config, database, ownsDatabase }: DatabasePluginOptions) {
  const owned = !database || ownsDatabase === true;
  const db =
    database ??
    (await openDatabase(config.database, {
      onBackgroundError: (error) => app.log.warn({ err: error }, 'database connection error'),
    }, { port: config.port, command: 'the service' }));
  try {
    const { applied } = await db.withSession((session) => migrate(session));
    if (applied.length > 0) app.log.info({ applied }, 'applied database migrations');
  } catch (error) {
    if (owned) await db.close();
    throw error;
  }
  app.decorate('db', db);
  if (owned) app.addHook('onClose', () => db.close());
}

export default fp(databasePlugin, { name: 'database' });
