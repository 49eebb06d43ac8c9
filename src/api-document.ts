import { buildApp } from './app.ts';
import { parseConfig } from './config/config.ts';
import { openDatabase } from './db/connect.ts';
import { migrateToLatest } from './db/migrator.ts';

/**
 * The API document of a service with the default settings (and `env`), without listening:
 * an app on an empty in-memory database, asked for its document. The page's client is
 * generated from it (scripts/generate-client.ts).
 */
export async function apiDocument(env: Record<string, string> = {}): Promise<Record<string, unknown>> {
  const database = openDatabase('sqlite::memory:');
  const { db } = database;
  try {
    await migrateToLatest(db);
    const config = parseConfig({
      DATABASE_URL: 'sqlite::memory:',
      SESSION_SECRET: 'document-generation-only-0123456789',
      ADMIN_PASSWORD: 'document-generation-only',
      LIVE_SYNC_SECONDS: '0',
      LOG_LEVEL: 'silent',
      ...env,
    });
    const app = await buildApp({ config, database });
    await app.ready();
    const doc = app.swagger() as Record<string, unknown>;
    await app.close();
    return doc;
  } finally {
    await db.destroy();
  }
}
