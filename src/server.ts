import { setTimeout as sleep } from 'node:timers/promises';
import { sql } from 'kysely';
import { buildApp } from './app.ts';
import { generateAdminPasswordIfNone, noteEnvironmentPassword } from './auth/admin-password.ts';
import type { Config } from './config/config.ts';
import { openDatabase } from './db/connect.ts';
import { isUnavailable } from './db/dialect.ts';
import { migrateToLatest } from './db/migrator.ts';
import type { Db } from './db/schema.ts';

/**
 * Waits for the database to answer, retrying with a growing pause (up to 10 s), so that a
 * service started before PostgreSQL (a reboot, a restart of both) comes up when it does.
 * Errors that are not about reachability (bad password, unknown database) stop the start.
 */
export async function waitForDatabase(db: Db, warn: (message: string) => void): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      await sql`select 1`.execute(db);
      return;
    } catch (err) {
      if (!isUnavailable(err)) throw err;
      const delay = Math.min(10_000, 500 * 2 ** (attempt - 1));
      warn(
        `database not reachable (${err instanceof Error ? err.message : String(err)}); retrying in ${delay / 1000} s`,
      );
      await sleep(delay);
    }
  }
}

export async function startServer(config: Config): Promise<void> {
  let logPoolError: (err: Error) => void = (err) => console.error('database client error:', err.message);
  const database = openDatabase(config.databaseUrl, { onPoolError: (err) => logPoolError(err) });
  const { db } = database;
  await waitForDatabase(db, (message) => console.warn(message));
  await migrateToLatest(db);
  const generated = await generateAdminPasswordIfNone(db, config);
  await noteEnvironmentPassword(database, config);

  const app = await buildApp({ config, database });
  logPoolError = (err) => app.log.warn({ err }, 'database connection lost; the pool replaces it');

  const shutdown = async (signal: string) => {
    app.log.info(`${signal} received, shutting down`);
    await app.close();
    await db.destroy();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ host: config.host, port: config.port });
  if (generated) {
    console.log(
      [
        '',
        '  ================================================================',
        '  Administrator password (generated on first start, shown once):',
        `      ${generated}`,
        '  Change it with: npx streamer-rating admin-password',
        '  ================================================================',
        '',
      ].join('\n'),
    );
  }
  console.log(`Streamer rating is listening on ${config.baseUrl}`);
}
