/**
 * Issue 30, item 6: names fold with the confusable skeleton. Users who signed in before keep
 * the folds of their time in the database until migration 011 makes them again; afterwards a
 * guest cannot take their names with look-alike letters either.
 */
import { Migrator, sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../src/db/migrator.ts';
import { migrations } from '../src/db/migrations/index.ts';
import { foldName } from '../src/lib/names.ts';
import { startApp } from './helpers/app.ts';
import { createTestDatabase, dbKind } from './helpers/database.ts';

const database = await createTestDatabase();
afterAll(() => database.cleanup());

describe('migration 011: the stored folds of names', () => {
  it('users stored with the old folds get the skeleton folds, and their look-alikes are refused', async () => {
    const schema =
      dbKind === 'sqlite'
        ? undefined
        : (await sql<{ schema: string }>`select current_schema() as schema`.execute(database.db)).rows[0]
            ?.schema;
    const migrator = new Migrator({
      db: database.db,
      provider: { getMigrations: async () => migrations },
      ...(schema ? { migrationTableSchema: schema } : {}),
    });
    const before = await migrator.migrateTo('010-reaching-out');
    expect(before.error).toBeUndefined();
    // What the fold of the third wave stored: lower case, one space, no diacritics.
    const { id } = await database.db
      .insertInto('users')
      .values({
        provider: 'provider_a',
        provider_id: 'old-1',
        login: 'dominik_m',
        display_name: 'Dominik Malý',
        avatar: '',
        last_seen: '2026-01-01T00:00:00.000Z',
        created_at: '2026-01-01T00:00:00.000Z',
        login_key: 'dominik_m',
        display_key: 'dominik malý',
        login_fold: 'dominik_m',
        display_fold: 'dominik maly',
      })
      .returning('id')
      .executeTakeFirstOrThrow();

    expect((await migrateToLatest(database.db))[0]).toBe('011-name-skeletons');
    const row = await database.db
      .selectFrom('users')
      .select(['login_fold', 'display_fold'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ login_fold: foldName('dominik_m'), display_fold: foldName('Dominik Malý') });
    expect(row.display_fold).toBe('dorninikrnaly');

    const t = await startApp({}, { database });
    try {
      const sid = await t.streamer();
      for (const author of ['D\u043eminik Mal\u00fd', 'dominik.maly', 'Dominik_M']) {
        const res = await t
          .client()
          .post('/api/comments', { streamer_id: sid, body: 'a guest comment', author });
        expect([author, res.status, res.body.code]).toEqual([author, 400, 'name_reserved']);
      }
    } finally {
      await t.close();
    }
  });
});
