/**
 * A database a newer version migrated, opened by this one (a version rolled back without the
 * backup made before the upgrade, an instance left on the old version): the start and the
 * command-line tool say so and what to do, instead of Kysely's "corrupted migrations:
 * previously executed migration ... is missing", and change nothing.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { cli } from './helpers/cli.ts';
import { createMigratedDatabase } from './helpers/database.ts';
import { failedStart } from './helpers/start-fails.ts';

const NEWER = '999-from-a-newer-version';
const SAID = `the database was written by a newer version (migration ${NEWER} is unknown to this one): start that version, or restore the backup made before the upgrade (docs/deploy.md "Upgrades")`;

describe('a database written by a newer version', { timeout: 60_000 }, () => {
  it('the start is one fatal line that says so, exit 1; migrate says the same; nothing changes', async () => {
    const database = await createMigratedDatabase();
    try {
      await sql`insert into kysely_migration (name, timestamp) values (${NEWER}, ${new Date().toISOString()})`.execute(
        database.db,
      );
      const names = async () =>
        (await sql<{ name: string }>`select name from kysely_migration order by name`.execute(database.db))
          .rows;
      const before = await names();
      const run = await failedStart(database);
      expect(run.status).toBe(1);
      expect(run.lines.map((l) => [l.level, l.msg])).toEqual([[60, `the service cannot start: ${SAID}`]]);
      const tool = cli(database, ['migrate']);
      expect([tool.code, tool.err]).toEqual([1, `Error: ${SAID}\n`]);
      expect(await names()).toEqual(before);
    } finally {
      await database.cleanup();
    }
  });
});
