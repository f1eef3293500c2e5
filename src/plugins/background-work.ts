// Start-up jobs that must never hold up readiness: removing files a crash left in the deletion
// outbox, then backfilling the metadata and thumbnails of assets stored before they existed.
// They start once the app is ready, run while it answers, and are stopped (between two files)
// when it closes. app.backgroundWork.idle() resolves when they are done (tests wait on it).
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export interface BackgroundWork {
  /** Resolves once the start-up jobs have finished (or stopped); never rejects. */
  idle(): Promise<void>;
}

async function backgroundWorkPlugin(app: FastifyInstance) {
  const controller = new AbortController();
  let running: Promise<void> = Promise.resolve();

  const run = async () => {
    const { fileJanitor, assets } = app.services;
    try {
      const drained = await fileJanitor.drain(controller.signal);
      if (drained.removed + drained.failed > 0) app.log.info({ drained }, 'removed files left in the deletion outbox');
    } catch (error) {
      app.log.warn({ err: error }, 'file deletion drain failed; the next start-up retries');
    }
    try {
      const backfill = await assets.backfill(controller.signal);
      if (backfill.filled + backfill.unreadable + backfill.skipped > 0) app.log.info({ backfill }, 'asset metadata backfill finished');
    } catch (error) {
      app.log.warn({ err: error }, 'asset metadata backfill stopped; the next start-up resumes it');
    }
  };

  app.decorate('backgroundWork', { idle: () => running } satisfies BackgroundWork);
  app.addHook('onReady', async () => {
    // Not awaited: readiness never waits for these.
    running = run();
  });
  app.addHook('onClose', async () => {
    controller.abort();
    await running;
  });
}

export default fp(backgroundWorkPlugin, { name: 'background-work', dependencies: ['services'] });
