/**
 * db/write-together.ts: a batch's independent writes, on PostgreSQL one statement that Kysely
 * builds from them (its parameters numbered by Kysely, no text rewritten), on SQLite one after
 * another. The sync tests (live-sync*, stream-history) run it with the real writes.
 */
import { CompiledQuery, sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { writeTogether } from '../src/db/write-together.ts';
import { createTestDatabase } from './helpers/database.ts';

describe('writeTogether', () => {
  it('runs each write once with its own parameters; text that looks like a placeholder is left as written', async () => {
    const database = await createTestDatabase();
    try {
      const { db } = database;
      await sql`create table together (id integer primary key, note text not null)`.execute(db);
      await sql`insert into together (id, note) values (1, 'one'), (2, 'two')`.execute(db);
      await db.transaction().execute(async (trx) => {
        await writeTogether(trx, [
          sql`update together set note = ${'first'} || ' $1' where id = ${1}`,
          sql`insert into together (id, note) values (${3}, ${'third $2'})`,
          CompiledQuery.raw("insert into together (id, note) values (4, 'fourth $1')", []),
          sql`update together set note = ${'second'} where id = ${2}`,
        ]);
      });
      const { rows } = await sql<{ id: number; note: string }>`
        select id, note from together order by id`.execute(db);
      expect(rows).toEqual([
        { id: 1, note: 'first $1' },
        { id: 2, note: 'second' },
        { id: 3, note: 'third $2' },
        { id: 4, note: 'fourth $1' },
      ]);
    } finally {
      await database.cleanup();
    }
  });
});
