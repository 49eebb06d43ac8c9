import { existsSync } from 'node:fs';
import { buildApp } from './app.ts';
import { generateAdminPasswordIfNone } from './auth/admin-password.ts';
import { type Config, parseConfig } from './config.ts';
import { openDatabase } from './db/connect.ts';
import { migrateToLatest } from './db/migrator.ts';

/** Loads `.env` from the working directory, if there is one; the environment wins. */
export function loadDotEnv(file = '.env'): void {
  if (existsSync(file)) process.loadEnvFile(file);
}

export async function startServer(config: Config): Promise<void> {
  let logPoolError: (err: Error) => void = (err) => console.error('database pool error:', err.message);
  const { db } = openDatabase(config.databaseUrl, { onPoolError: (err) => logPoolError(err) });
  await migrateToLatest(db);
  const generated = await generateAdminPasswordIfNone(db, config);

  const app = await buildApp({ config, db });
  logPoolError = (err) => app.log.error({ err }, 'idle database client error');

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

const isMain = import.meta.url === `file://${process.argv[1]}`;
if (isMain) {
  try {
    loadDotEnv();
    await startServer(parseConfig());
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  }
}
