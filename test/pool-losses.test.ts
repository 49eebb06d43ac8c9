/**
 * pg_terminate_backend of a service's backends (or PostgreSQL's restart) closes every pooled
 * connection at once: each was a warning of its own, up to the pool's 10 for one event. Now the
 * first is the warning, and the count is said once, at info, when the pool connects again.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config/config.ts';
import { connectionLosses, prepareDatabase } from '../src/server.ts';
import { createMigratedDatabase, dbKind } from './helpers/database.ts';

describe.runIf(dbKind === 'postgres')("the pool's lost connections", { timeout: 60_000 }, () => {
  it('four connections terminated together: one warning, then one line with the count as the pool reconnects', async () => {
    const test = await createMigratedDatabase();
    const lines: [string, unknown, string][] = [];
    const log = {
      warn: (obj: unknown, msg?: string) => void lines.push(['warn', obj, msg ?? '']),
      info: (obj: unknown, msg?: string) => void lines.push(['info', obj, msg ?? '']),
    };
    const config = parseConfig({
      DATABASE_URL: test.url,
      ADMIN_PASSWORD: '',
      SESSION_SECRET: 'pool-losses-secret-0123456789abcdefghij',
    });
    const { database } = await prepareDatabase(
      config,
      () => undefined,
      connectionLosses(() => log),
    );
    try {
      // Four connections held at once, then idle in the pool.
      let started = 0;
      let go = () => {};
      const together = new Promise<void>((resolve) => (go = resolve));
      await Promise.all(
        Array.from({ length: 4 }, () =>
          database.db.connection().execute(async (c) => {
            await sql`select 1`.execute(c);
            if (++started === 4) go();
            await together;
          }),
        ),
      );
      expect(database.pool!.idleCount).toBe(4);
      const ended = await sql<{ n: number }>`
        select count(pg_terminate_backend(pid))::int as n from pg_stat_activity
        where datname = current_database() and application_name = 'streamer-rating'`.execute(test.db);
      expect(ended.rows[0]!.n).toBe(4);
      await expect.poll(() => database.pool!.totalCount).toBe(0);
      expect(lines.map(([level, , msg]) => [level, msg])).toEqual([
        ['warn', 'database connection lost; the pool replaces it'],
      ]);
      // The next query connects: the burst is said once, with its count.
      await sql`select 1`.execute(database.db);
      expect(lines.slice(1)).toEqual([
        ['info', { lost: 4 }, 'database connections lost together: 4; the pool connected again'],
      ]);
      // A single loss later is a warning again, and no count follows it.
      await sql`select pg_terminate_backend(pid) from pg_stat_activity
        where datname = current_database() and application_name = 'streamer-rating'`.execute(test.db);
      await expect.poll(() => database.pool!.totalCount).toBe(0);
      await sql`select 1`.execute(database.db);
      expect(lines.map(([level]) => level)).toEqual(['warn', 'info', 'warn']);
    } finally {
      await database.db.destroy();
      await test.cleanup();
    }
  });
});
