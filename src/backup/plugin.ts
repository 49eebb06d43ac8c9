import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { SqliteDatabase } from '../db/sqlite-driver.ts';
import { HOUR } from '../lib/clock.ts';
import { BackupScheduler } from './scheduler.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Scheduled backups (backup/scheduler.ts); null without BACKUP_DIR. */
    backups: BackupScheduler | null;
  }
}

/**
 * Scheduled backups when BACKUP_DIR is set (config.ts allows it only for a SQLite file): the
 * directory is created when the app is ready (a start fails when it cannot be), the ticks
 * stop and the lease is handed back on close.
 */
export const backupPlugin = fp(
  async (app: FastifyInstance, opts: { sqlite?: SqliteDatabase }) => {
    const { config, db, clock } = app;
    const { backup } = config;
    if (backup === null || !opts.sqlite) {
      app.decorate('backups', null);
      return;
    }
    const scheduler = new BackupScheduler({
      db,
      sqlite: opts.sqlite,
      databaseFile: config.databaseUrl.slice('sqlite:'.length),
      dir: backup.dir,
      intervalMs: backup.everyHours * HOUR,
      keep: backup.keep,
      clock,
      log: app.log.child({ module: 'backup' }),
    });
    app.decorate('backups', scheduler);
    app.metrics?.watchBackups(async () => (await scheduler.set.list()).at(-1)?.at ?? null);
    app.log.info(
      `scheduled backups: every ${backup.everyHours} h into ${backup.dir}, keeping ${backup.keep}`,
    );
    app.addHook('onReady', async () => scheduler.start());
    app.addHook('onClose', async () => scheduler.stop());
  },
  { name: 'backups' },
);
