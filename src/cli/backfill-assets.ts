// `npm run assets:backfill`: reads the metadata and makes the thumbnails of assets stored before
// they existed, on the configured database and upload directory, then lists every stored SVG the
// cost model refuses (renders leave it out, preflight reports SVG_TOO_COSTLY), and exits. The server
// does the first part in the background at every start-up; this runs it alone (resumable: a second
// run carries on where an interrupted one stopped).
import { ConfigError, loadConfig } from '../config.js';
import { openDatabase } from '../db/database.js';
import { migrate } from '../db/migrator.js';
import { createServices } from '../services/index.js';

try {
  const config = loadConfig();
  const database = await openDatabase(config.database, {}, { command: 'npm run assets:backfill' });
  try {
    await database.withSession((session) => migrate(session));
    const controller = new AbortController();
    process.once('SIGINT', () => controller.abort());
    process.once('SIGTERM', () => controller.abort());
    const services = createServices(config, database);
    try {
      const { filled, unreadable, skipped } = await services.assets.backfill(controller.signal);
      console.log(`Backfill: ${filled} filled, ${unreadable} unreadable (kept without metadata), ${skipped} without a file here.`);
      const costly = await services.assets.findCostlySvgs(controller.signal);
      for (const svg of costly) {
        console.log(`SVG over the cost model: asset ${svg.id} of account ${svg.userId} (${svg.name}): ${svg.reason}.`);
      }
      const count = `${costly.length} stored SVG${costly.length === 1 ? '' : 's'}`;
      console.log(`Cost model: ${count} left out of renders (preflight SVG_TOO_COSTLY).`);
    } finally {
      // The render children end with the command.
      await services.renderer.close();
    }
  } finally {
    await database.close();
  }
} catch (error) {
  console.error(error instanceof ConfigError ? error.message : `Backfill failed: ${(error as Error).message}`);
  process.exitCode = 1;
}
