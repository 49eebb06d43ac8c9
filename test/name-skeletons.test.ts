/**
 * Issue 30, item 6: names fold with the confusable skeleton. Users who signed in before keep
 * the folds of their time in the database until migration 011 makes them again; afterwards a
 * guest cannot take their names with look-alike letters either. Issue 45, item 9: the folds
 * drop invisible characters and meet the skeleton of either letter case (`i` folds as `l`);
 * migration 026 makes them again. Stop 69: the skeleton of the letters as written comes before
 * that of their lower case (Cyrillic capitals pass for Latin ones); migration 041 makes the
 * users' and the held words' folds again. Stop 82: the fold drops symbols (`ModMax ✓` is
 * `ModMax`); migration 042 makes the users' folds again.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../src/db/migrator.ts';
import { migrations } from '../src/db/migrations/index.ts';
import { foldName } from '../src/lib/names.ts';
import { startApp, type TestApp } from './helpers/app.ts';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';
import { migrateBefore, migratorOf } from './helpers/migrations.ts';
import { streamerRow } from './helpers/rows.ts';

const database = await createTestDatabase();
const later = await createTestDatabase();
const latest = await createTestDatabase();
afterAll(async () => {
  await database.cleanup();
  await later.cleanup();
  await latest.cleanup();
});

/** A user `mod_max` as an older fold stored them: `displayFold` as it made it. */
async function oldUser(db: TestDatabase['db'], providerId: string, displayName: string, displayFold: string) {
  const { id } = await db
    .insertInto('users')
    .values({
      provider: 'provider_a',
      provider_id: providerId,
      login: 'mod_max',
      display_name: displayName,
      avatar: '',
      last_seen: '2026-01-01T00:00:00.000Z',
      created_at: '2026-01-01T00:00:00.000Z',
      login_key: 'mod_max',
      display_key: displayName.toLowerCase(),
      login_fold: foldName('mod_max'),
      display_fold: displayFold,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

/** The stored `display_fold` of user `id`. */
const displayFoldOf = async (db: TestDatabase['db'], id: number) =>
  (await db.selectFrom('users').select('display_fold').where('id', '=', id).executeTakeFirstOrThrow())
    .display_fold;

/** Each of `authors` as a guest's name on a new streamer's page: 400 `name_reserved`. The streamer. */
async function refusedAsGuest(t: TestApp, authors: string[]): Promise<number> {
  const sid = await t.streamer();
  for (const author of authors) {
    const res = await t.client().post('/api/comments', { streamer_id: sid, body: 'a guest comment', author });
    expect([author, res.status, res.body.code]).toEqual([author, 400, 'name_reserved']);
  }
  return sid;
}

describe('migration 011: the stored folds of names', () => {
  it('users stored with the old folds get the skeleton folds, and their look-alikes are refused', async () => {
    const before = await (await migratorOf(database.db)).migrateTo('010-reaching-out');
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
    expect(row.display_fold).toBe('dornlnlkrnaly');

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

describe('migration 026: folds without invisible characters, of either letter case', () => {
  it('users stored with the folds of before get the new ones, and a guest cannot pass for them', async () => {
    const names = Object.keys(migrations);
    const previous = names[names.indexOf('026-name-folds-of-either-case') - 1]!;
    expect((await (await migratorOf(later.db)).migrateTo(previous)).error).toBeUndefined();
    // What the fold of the fourth wave stored: `I` lower-cased to `i`, fillers kept.
    const user = (provider_id: string, login: string, display_name: string, folds: [string, string]) =>
      later.db
        .insertInto('users')
        .values({
          provider: 'provider_a',
          provider_id,
          login,
          display_name,
          avatar: '',
          last_seen: '2026-01-01T00:00:00.000Z',
          created_at: '2026-01-01T00:00:00.000Z',
          login_key: login.toLowerCase(),
          display_key: display_name.toLowerCase(),
          login_fold: folds[0],
          display_fold: folds[1],
        })
        .returning('id')
        .executeTakeFirstOrThrow();
    const agraelus = await user('old-26-1', 'agraelus', 'AgraeIus', ['agraelus', 'agraeius']);
    const filler = await user('old-26-2', 'nikola_k', '\u3164Nikola\u3164', [
      'nlkolak',
      '\u3164nikola\u3164',
    ]);

    expect(await migrateToLatest(later.db)).toContain('026-name-folds-of-either-case');
    const folds = await later.db
      .selectFrom('users')
      .select(['id', 'login_fold', 'display_fold'])
      .where('id', 'in', [agraelus.id, filler.id])
      .orderBy('id')
      .execute();
    expect(folds).toEqual([
      { id: agraelus.id, login_fold: 'agraelus', display_fold: 'agraelus' },
      { id: filler.id, login_fold: foldName('nikola_k'), display_fold: 'nlkola' },
    ]);

    const t = await startApp({}, { database: later });
    try {
      const sid = await t.streamer();
      for (const author of ['AgraeIus', 'AGRAE1US', 'Nikola', 'NIKOLA']) {
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

describe('migration 041: folds of look-alike capitals', () => {
  it('users and held words stored with the folds of before get the new ones: МоdМах is ModMax, ВОТ is bot', async () => {
    await migrateBefore(latest.db, '041-name-folds-of-capitals');
    // What the fold of before stored: the lower case's skeleton (Cyrillic `м` is `ʍ`, `в` is `ʙ`).
    const id = await oldUser(latest.db, 'old-41-1', '\u041c\u043ed\u041c\u0430\u0445', '\u028dod\u028dax');
    await latest.db
      .insertInto('hold_words')
      .values({ position: 0, word: '\u0412\u041e\u0422', fold: '\u0299o\u1d1b' })
      .execute();

    expect(await migrateToLatest(latest.db)).toContain('041-name-folds-of-capitals');
    expect(await displayFoldOf(latest.db, id)).toBe('rnodrnax');
    const word = await latest.db.selectFrom('hold_words').select('fold').executeTakeFirstOrThrow();
    expect(word.fold).toBe('bot');

    const t = await startApp({}, { database: latest });
    try {
      const sid = await refusedAsGuest(t, ['ModMax', 'MODMAX']);
      const held = await t.client().post('/api/comments', { streamer_id: sid, body: 'a Bot wrote this' });
      expect(held.status).toBe(201);
      expect(
        (
          await t.db
            .selectFrom('comments')
            .select('pending')
            .where('id', '=', held.body.id)
            .executeTakeFirstOrThrow()
        ).pending,
      ).toBe(1);
    } finally {
      await t.close();
    }
  });
});

describe('migration 042: folds without symbols', () => {
  it("a user stored with a symbol in their name's fold gets it without: ModMax ✓ is ModMax", async () => {
    const db = await createTestDatabase();
    try {
      await migrateBefore(db.db, '042-name-folds-without-symbols');
      // What the fold of before stored: the check mark kept.
      const id = await oldUser(db.db, 'old-42-1', 'ModMax \u2713', 'rnodrnax\u2713');

      expect(await migrateToLatest(db.db)).toContain('042-name-folds-without-symbols');
      expect(await displayFoldOf(db.db, id)).toBe('rnodrnax');
    } finally {
      await db.cleanup();
    }
  });
});

describe('migration 045: streamer names folded as every name is', () => {
  it('streamers whose names already fold alike stay; the oldest holds the fold, and a look-alike is refused', async () => {
    const db = await createTestDatabase();
    try {
      await migrateBefore(db.db, '045-streamer-name-folds');
      const streamer = (name: string) => streamerRow(name, '2026-01-01T00:00:00.000Z');
      // Cyrillic А; two names of symbols only, which fold to nothing.
      const rows = ['Alpha', '\u0410lpha', '\u2605\u2605', '\u2726\u2726', 'Beta'];
      for (const name of rows) await db.db.insertInto('streamers').values(streamer(name)).execute();

      expect(await migrateToLatest(db.db)).toContain('045-streamer-name-folds');
      const folds = await db.db.selectFrom('streamers').select(['name', 'name_fold']).orderBy('id').execute();
      expect(folds).toEqual([
        { name: 'Alpha', name_fold: 'alpha' },
        { name: '\u0410lpha', name_fold: null },
        { name: '\u2605\u2605', name_fold: null },
        { name: '\u2726\u2726', name_fold: null },
        { name: 'Beta', name_fold: 'beta' },
      ]);

      const t = await startApp({}, { database: db });
      try {
        const admin = await t.admin();
        for (const name of ['ALPHA.', 'B\u0435ta']) {
          const res = await admin.post('/api/streamers?admin=1', { name });
          expect([name, res.status, res.body.code]).toEqual([name, 409, 'streamer_exists']);
        }
        expect((await admin.post('/api/streamers?admin=1', { name: '\u2736\u2736' })).status).toBe(201);
      } finally {
        await t.close();
      }
    } finally {
      await db.cleanup();
    }
  });
});

describe('migration 047: team names folded as every name is', () => {
  it('teams whose names already fold alike stay; the oldest holds the fold, and a look-alike is refused', async () => {
    const db = await createTestDatabase();
    try {
      await migrateBefore(db.db, '047-team-name-folds');
      const created_at = '2026-01-01T00:00:00.000Z';
      for (const name of ['Night Owls', 'night owls', '\u2605\u2605', 'Day Crew'])
        await db.db.insertInto('rater_groups').values({ name, created_at }).execute();

      expect(await migrateToLatest(db.db)).toContain('047-team-name-folds');
      const folds = await db.db
        .selectFrom('rater_groups')
        .select(['name', 'name_fold'])
        .orderBy('id')
        .execute();
      expect(folds).toEqual([
        { name: 'Night Owls', name_fold: foldName('Night Owls') },
        { name: 'night owls', name_fold: null },
        { name: '\u2605\u2605', name_fold: null },
        { name: 'Day Crew', name_fold: foldName('Day Crew') },
      ]);

      const t = await startApp({}, { database: db });
      try {
        const admin = await t.admin();
        const res = await admin.post('/api/rater_groups', { name: 'DAY CREW' });
        expect([res.status, res.body.code]).toEqual([409, 'group_name_exists']);
        expect((await admin.post('/api/rater_groups', { name: '\u2736\u2736' })).status).toBe(201);
      } finally {
        await t.close();
      }
    } finally {
      await db.cleanup();
    }
  });
});

describe('migration 046: small capitals', () => {
  it('users, held words and streamers stored with the folds of before get the new ones: ᴍᴏᴅᴍᴀx is ModMax', async () => {
    const db = await createTestDatabase();
    try {
      await migrateBefore(db.db, '046-name-folds-of-small-capitals');
      // What the fold of before stored: the small capitals kept, `ᴍ` as the turned `ʍ`.
      const id = await oldUser(
        db.db,
        'old-46-1',
        '\u1d0d\u1d0f\u1d05\u1d0d\u1d00x',
        '\u028do\u1d05\u028d\u1d00x',
      );
      await db.db
        .insertInto('hold_words')
        .values({ position: 0, word: '\u0299\u1d0f\u1d1b', fold: '\u0299ot' })
        .execute();
      const at = '2026-01-01T00:00:00.000Z';
      await db.db
        .insertInto('streamers')
        .values(streamerRow('Alpha', at, { name_fold: 'alpha' }))
        .execute();
      // ᴀʟᴘʜᴀ: its fold of before, its own.
      await db.db
        .insertInto('streamers')
        .values(streamerRow('\u1d00\u029fp\u029c\u1d00', at, { name_fold: '\u1d00\u029fp\u029c\u1d00' }))
        .execute();

      expect(await migrateToLatest(db.db)).toContain('046-name-folds-of-small-capitals');
      expect(await displayFoldOf(db.db, id)).toBe('rnodrnax');
      expect((await db.db.selectFrom('hold_words').select('fold').executeTakeFirstOrThrow()).fold).toBe(
        'bot',
      );
      const folds = await db.db.selectFrom('streamers').select(['name', 'name_fold']).orderBy('id').execute();
      expect(folds.map((f) => f.name_fold)).toEqual(['alpha', null]);

      const t = await startApp({}, { database: db });
      try {
        await refusedAsGuest(t, ['ModMax', '\u1d00\u1d05\u1d0d\u026a\u0274']);
        const admin = await t.admin();
        const taken = await admin.post('/api/streamers?admin=1', { name: '\u1d00\u029f\u1d18\u029c\u1d00' });
        expect([taken.status, taken.body.code]).toEqual([409, 'streamer_exists']);
      } finally {
        await t.close();
      }
    } finally {
      await db.cleanup();
    }
  });
});

describe('migration 048: one address block per guest tag (stop 96)', () => {
  it('of a tag blocked twice, the block that ends last stays; a third block of the tag is refused by the index', async () => {
    const db = await createTestDatabase();
    try {
      await migrateBefore(db.db, '048-one-block-per-guest');
      const block = (guest_tag: string, expires_at: string) =>
        db.db
          .insertInto('address_blocks')
          .values({ guest_tag, expires_at, created_at: '2026-01-01T00:00:00.000Z', created_by: 'admin' })
          .returning('id')
          .executeTakeFirstOrThrow();
      const a1 = await block('aaaa', '2026-03-01T00:00:00.000Z');
      const a2 = await block('aaaa', '2026-02-01T00:00:00.000Z');
      const b1 = await block('bbbb', '2026-02-01T00:00:00.000Z');
      const b2 = await block('bbbb', '2026-02-01T00:00:00.000Z');
      expect(await migrateToLatest(db.db)).toContain('048-one-block-per-guest');
      const left = await db.db.selectFrom('address_blocks').select('id').orderBy('id').execute();
      expect(left.map((r) => r.id)).toEqual([a1.id, b2.id]);
      expect([a2.id, b1.id].some((id) => left.some((r) => r.id === id))).toBe(false);
      await expect(block('aaaa', '2026-04-01T00:00:00.000Z')).rejects.toThrow();
    } finally {
      await db.cleanup();
    }
  });
});

describe('migration 049: folds without signs of several letters', () => {
  it('a user, a streamer and a team stored with a ™ in their folds get it without: Alice™ is Alice', async () => {
    const db = await createTestDatabase();
    try {
      await migrateBefore(db.db, '049-name-folds-without-signs');
      // What the fold of before stored: ™ unified into TM, which stayed.
      const id = await oldUser(db.db, 'old-49-1', 'Alice\u2122', 'allcetrn');
      await db.db
        .insertInto('streamers')
        .values({ ...streamerRow('Alpha\u2122', '2026-01-01T00:00:00.000Z'), name_fold: 'alphatrn' })
        .execute();
      expect(await migrateToLatest(db.db)).toContain('049-name-folds-without-signs');
      expect(await displayFoldOf(db.db, id)).toBe('allce');
      const streamer = await db.db.selectFrom('streamers').select('name_fold').executeTakeFirstOrThrow();
      expect(streamer.name_fold).toBe('alpha');
    } finally {
      await db.cleanup();
    }
  });
});
