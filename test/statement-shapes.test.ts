import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { refusedByRows, type SqlRule } from '../src/db/sql-rules.ts';
import { insertSizes, SQLITE_EVENTS_PER_INSERT, stageEvents } from '../src/db/event-log.ts';
import { dbKind } from './helpers/database.ts';
import { R } from './helpers/streamers.ts';
import { setVotes } from '../src/votes/queries.ts';
import { voicesQuery } from '../src/catalogue/speaks-for.ts';
import { useApp } from './helpers/app.ts';

/**
 * SQLite keeps a prepared statement for each SQL text (db/connect.ts), so a statement whose text
 * grows with the size of a group (the rules asked of a group of posts, the log's rows of a
 * group's events) is kept once per size: under 200 connections posting, 20 MiB of the service's
 * memory. A group is written as one of a few texts instead.
 */
const t = await useApp();

/** The SQL texts SQLite is asked to prepare while `run` runs (a text kept from before is not asked again). */
async function prepared(run: () => Promise<void>): Promise<string[]> {
  const sqlite = t.database.sqlite!;
  const texts: string[] = [];
  const prepare = sqlite.prepare.bind(sqlite);
  sqlite.prepare = (text: string) => {
    texts.push(text);
    return prepare(text);
  };
  try {
    await run();
  } finally {
    sqlite.prepare = prepare;
  }
  return texts;
}

describe('sizes', () => {
  it('the log is appended in the largest powers of two that add up to the count, at most SQLITE_EVENTS_PER_INSERT each', () => {
    expect(insertSizes(0)).toEqual([]);
    expect(insertSizes(1)).toEqual([1]);
    expect(insertSizes(89)).toEqual([64, 16, 8, 1]);
    expect(insertSizes(1200)).toEqual([SQLITE_EVENTS_PER_INSERT, SQLITE_EVENTS_PER_INSERT, 128, 32, 16]);
  });
});

describe.runIf(dbKind === 'sqlite')('groups of every size on SQLite', () => {
  it("the rules of a group are asked in the text of the next power of two: groups of 5 to 8 share one, and each row's answer is its own", async () => {
    const rule: SqlRule<'a'> = { error: 'invalid_input', refuses: (v) => sql`${v.a} = 1` };
    const answers: boolean[][] = [];
    const texts = await prepared(async () => {
      for (let size = 5; size <= 8; size++) {
        const rows = Array.from({ length: size }, (_, i) => ({ values: { a: i % 2 }, asks: () => true }));
        const refused = await refusedByRows(t.db, [rule], { a: 'integer' }, rows);
        answers.push(refused.map((errors) => errors.has('invalid_input')));
      }
    });
    expect(texts).toHaveLength(1);
    expect(answers.map((a) => a.length)).toEqual([5, 6, 7, 8]);
    for (const a of answers) expect(a).toEqual(a.map((_, i) => i % 2 === 1));
  });

  it('the events of groups of 5 to 12 are appended with four texts (rows of 1, 2, 4 and 8), in order', async () => {
    const before = Number(
      (
        await t.db
          .selectFrom('event_log')
          .select((eb) => eb.fn.max('id').as('id'))
          .executeTakeFirst()
      )?.id ?? 0,
    );
    const at = t.clock.now().toISOString();
    const texts = await prepared(async () => {
      for (let size = 5; size <= 12; size++) {
        const events = Array.from({ length: size }, (_, i) => ({
          type: 'rating' as const,
          streamer_id: size * 100 + i,
        }));
        await stageEvents(t.db, events, at);
      }
    });
    expect(texts.filter((text) => text.includes('event_log')).length).toBeLessThanOrEqual(4);
    const rows = await t.db
      .selectFrom('event_log')
      .select(['id', 'streamer_id'])
      .where('id', '>', before)
      .orderBy('id')
      .execute();
    const expected = Array.from({ length: 8 }, (_, k) => k + 5).flatMap((size) =>
      Array.from({ length: size }, (_, i) => size * 100 + i),
    );
    expect(rows.map((r) => r.streamer_id)).toEqual(expected);
  });
});

describe.runIf(dbKind === 'postgres')('groups of every size on PostgreSQL', () => {
  it("a group's votes, its removals and the users its streamers' channels could be are one prepared text each, for groups of 1 to 3", async () => {
    const streamers = await Promise.all([1, 2, 3].map(() => t.streamer(undefined, R(5))));
    const user = await t.user();
    const at = t.clock.now().toISOString();
    const kept = await t.db.connection().execute(async (conn) => {
      // Twice each size: a text is prepared on its second run (db/prepared.ts).
      for (const _ of [1, 2]) {
        for (let size = 1; size <= 3; size++) {
          const group = streamers
            .slice(0, size)
            .map((streamerId) => ({ streamerId, userId: user.id, now: at }));
          await setVotes(
            conn,
            group.map((v) => ({ ...v, value: 5 })),
          );
          await setVotes(
            conn,
            group.map((v) => ({ ...v, value: 0 })),
          );
          await voicesQuery(conn, ['one', 'two', 'three'].slice(0, size)).execute();
        }
      }
      const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(
        conn,
      );
      return rows.map((r) => r.statement);
    });
    for (const start of ['insert into votes', 'delete from votes', 'select "id", "provider"']) {
      expect(kept.filter((text) => text.trimStart().startsWith(start)).length, start).toBe(1);
    }
  });
});
