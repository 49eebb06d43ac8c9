import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { RenderCache } from '../cache/rendered.ts';
import { watchChanges } from '../db/changes.ts';
import type { DbContext } from '../db/context.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Answers rendered once per content change (the streamer views, comment lists). */
    renderCache: RenderCache;
  }
}

/** Bytes kept for rendered answers; the biggest (10,000 comments, all forms) is about 4 MB. */
export const RENDER_CACHE_BYTES = 48 * 2 ** 20;

/**
 * The cache of rendered answers, and the watcher that tells this instance about other
 * instances' changes (PostgreSQL LISTEN, or SQLite's data_version) so its cache follows.
 */
export const renderCachePlugin = fp(
  async (app: FastifyInstance, opts: { database: DbContext; postgresUrl: string | null }) => {
    app.decorate('renderCache', new RenderCache(RENDER_CACHE_BYTES));
    const watcher = watchChanges(opts.database, opts.postgresUrl, (err, message) =>
      app.log.warn({ err }, message),
    );
    app.addHook('onClose', async () => watcher.stop());
  },
  { name: 'render-cache' },
);
