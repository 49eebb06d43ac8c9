import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { AnswerCache } from '../cache/answers.ts';
import { watchChanges } from '../db/other-instances.ts';
import type { DbContext } from '../db/context.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The answers kept in memory (cache/answers.ts): lists, comments, pages, images, the API document. */
    answers: AnswerCache;
  }
}

/**
 * Bytes kept for answers: the biggest (10,000 comments, all three forms) is about 4 MB, a
 * streamer's page with its first view about 60 KB, a share card about 35 KB.
 */
export const ANSWER_CACHE_BYTES = 64 * 2 ** 20;

/**
 * The answer cache, and the watcher that tells this instance about other instances' changes
 * (PostgreSQL LISTEN, or SQLite's data_version) so its kept answers follow them; each move of
 * the content version also wakes the event log's reader (events/tail.ts).
 */
export const answerCachePlugin = fp(
  async (app: FastifyInstance, opts: { database: DbContext; postgresUrl: string | null }) => {
    app.decorate('answers', new AnswerCache(opts.database.changes, ANSWER_CACHE_BYTES, app.clock));
    const watcher = watchChanges(opts.database, opts.postgresUrl, app.log, app.clock);
    app.addHook('onClose', async () => {
      app.answers.stop();
      await watcher.stop();
    });
    // Listening before the first answer is kept: a change another instance makes from now on moves
    // the version (a database that does not answer yet is retried beside the start).
    await watcher.ready;
  },
  { name: 'answer-cache' },
);
