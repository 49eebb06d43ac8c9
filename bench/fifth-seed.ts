/**
 * The fifth wave's rows need data no visitor makes in minutes through the API: 10,000 users
 * who follow, subscribe to push and confirmed an address, a million votes, 10,000 schedules.
 * They are written here straight into the service's database while no service runs on it, in
 * set statements (INSERT ... SELECT over the rows already there) that read the same on SQLite
 * and PostgreSQL, as bench/history-round.ts writes its streamers. What the rows measure (the
 * answers, the go-live, the digest) then goes through the service's own paths.
 */
import { sql } from 'kysely';
import { openDatabase } from '../src/db/connect.ts';
import type { DbContext } from '../src/db/context.ts';
import type { Db } from '../src/db/schema.ts';
import { streamerRow } from '../test/helpers/rows.ts';

/** The users' logins: `benchuser1` ... `benchuser10000`. */
export const USERS = 10_000;
const USER_PREFIX = 'benchuser';
/** Rows one INSERT carries (within SQLite's and PostgreSQL's parameter limits). */
const CHUNK = 1000;

/** Opens the run's database, runs `fn`, closes it. */
export async function withDatabase<T>(url: string, fn: (db: Db, ctx: DbContext) => Promise<T>): Promise<T> {
  const database = openDatabase(url);
  try {
    const value = await fn(database.db, database);
    await analyzeAfterSeeding(database);
    return value;
  } finally {
    await database.db.destroy();
  }
}

/** Rows of a table, or of the bench users. */
async function count(
  db: Db,
  table:
    | 'users'
    | 'streamers'
    | 'push_subscriptions'
    | 'votes'
    | 'mail_settings'
    | 'comment_likes'
    | 'schedule_segments',
  where = sql`1 = 1`,
): Promise<number> {
  const { rows } = await sql<{
    n: number | string;
  }>`select count(*) as n from ${sql.table(table)} where ${where}`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

const BENCH_LOGINS = sql`login like ${`${USER_PREFIX}%`}`;

/** The bench users' ids, lowest first; made once (later calls find them). */
export async function benchUsers(db: Db, at: string): Promise<number[]> {
  const have = await count(db, 'users', BENCH_LOGINS);
  for (let k = have; k < USERS; k += CHUNK) {
    await db
      .insertInto('users')
      .values(
        Array.from({ length: Math.min(CHUNK, USERS - k) }, (_, i) => {
          const login = `${USER_PREFIX}${k + i + 1}`;
          return {
            provider: 'provider_a' as const,
            provider_id: `bench-${k + i + 1}`,
            login,
            display_name: `Bench User ${k + i + 1}`,
            login_key: login,
            display_key: `bench user ${k + i + 1}`,
            avatar: '',
            last_seen: at,
            created_at: at,
          };
        }),
      )
      .execute();
  }
  const rows = await db
    .selectFrom('users')
    .select('id')
    .where('login', 'like', `${USER_PREFIX}%`)
    .orderBy('id')
    .execute();
  return rows.map((r) => r.id);
}

const benchUserIds = (db: Db, first = USERS) =>
  db.selectFrom('users').select('id').where('login', 'like', `${USER_PREFIX}%`).orderBy('id').limit(first);

/** Every bench user follows each of `streamerIds` (one statement a streamer). */
export async function seedFollows(db: Db, streamerIds: number[], at: string): Promise<void> {
  for (const streamerId of streamerIds) {
    await db
      .insertInto('follows')
      .columns(['user_id', 'streamer_id', 'created_at'])
      .expression((eb) =>
        eb
          .selectFrom('users')
          .select((e) => ['id', e.val(streamerId).as('streamer_id'), e.val(at).as('created_at')])
          .where('login', 'like', `${USER_PREFIX}%`),
      )
      .execute();
  }
}

/**
 * One push subscription per bench user, `<serviceUrl><user id>`, asking for `live`. The keys
 * are one device's, the same for all (the service encrypts each message anew all the same).
 */
export async function seedSubscriptions(
  db: Db,
  serviceUrl: string,
  keys: { p256dh: string; auth: string },
  at: string,
): Promise<number> {
  const origin = new URL(serviceUrl).origin;
  await db
    .insertInto('push_subscriptions')
    .columns(['user_id', 'endpoint', 'origin', 'p256dh', 'auth', 'kinds', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('users')
        .select((e) => [
          'id',
          sql<string>`${serviceUrl} || cast(${sql.ref('id')} as text)`.as('endpoint'),
          e.val(origin).as('origin'),
          e.val(keys.p256dh).as('p256dh'),
          e.val(keys.auth).as('auth'),
          e.val(' live ').as('kinds'),
          e.val(at).as('created_at'),
        ])
        .where('login', 'like', `${USER_PREFIX}%`),
    )
    .execute();
  return count(db, 'push_subscriptions');
}

/** A confirmed address and the weekly digest for every bench user: `benchuser<id>@example.test`. */
export async function seedMailUsers(db: Db, at: string): Promise<number> {
  await db
    .insertInto('mail_settings')
    .columns(['user_id', 'email', 'digest', 'updated_at'])
    .expression((eb) =>
      eb
        .selectFrom('users')
        .select((e) => [
          'id',
          sql<string>`'bench' || cast(${sql.ref('id')} as text) || '@example.test'`.as('email'),
          e.val('weekly').as('digest'),
          e.val(at).as('updated_at'),
        ])
        .where('login', 'like', `${USER_PREFIX}%`),
    )
    .execute();
  return count(db, 'mail_settings', sql`digest = 'weekly' and email is not null`);
}

/**
 * A vote of each of the first `voters` bench users on every streamer (1,000 x 1,000 = a
 * million): one INSERT ... SELECT over users x streamers, scores spread 1-10 by the ids.
 */
export async function seedVotes(db: Db, voters: number, at: string): Promise<number> {
  const ids = (await benchUserIds(db, voters).execute()).map((r) => r.id);
  const last = ids.at(-1) ?? 0;
  await db
    .insertInto('votes')
    .columns(['streamer_id', 'user_id', 'score', 'updated_at'])
    .expression((eb) =>
      eb
        .selectFrom('streamers as s')
        .innerJoin('users as u', (join) => join.on(sql<boolean>`1 = 1`))
        .select((e) => [
          's.id',
          'u.id as user_id',
          sql<number>`(${sql.ref('s.id')} * 7 + ${sql.ref('u.id')} * 13) % 10 + 1`.as('score'),
          e.val(at).as('updated_at'),
        ])
        .where('u.login', 'like', `${USER_PREFIX}%`)
        .where('u.id', '<=', last),
    )
    .execute();
  return count(db, 'votes');
}

/** Likes on a streamer's comments from the first 20 bench users: comment k gets k mod 21 (0-20). */
export async function seedLikes(db: Db, streamerId: number, at: string): Promise<number> {
  const ids = (await benchUserIds(db, 20).execute()).map((r) => r.id);
  await db
    .insertInto('comment_likes')
    .columns(['comment_id', 'user_id', 'created_at'])
    .expression((eb) =>
      eb
        .selectFrom('comments as c')
        .innerJoin('users as u', (join) => join.on(sql<boolean>`1 = 1`))
        .select((e) => ['c.id', 'u.id as user_id', e.val(at).as('created_at')])
        .where('c.streamer_id', '=', streamerId)
        .where('u.id', 'in', ids)
        .where(sql<boolean>`${sql.ref('u.id')} - ${ids[0] ?? 0} < ${sql.ref('c.id')} % 21`),
    )
    .execute();
  return count(db, 'comment_likes');
}

/**
 * Rated streamers in the Public view up to `total` (copies of the first streamer's rating),
 * and 5 schedule segments each over the next 7 days, from `from`.
 */
export async function seedSchedules(db: Db, total: number, from: number, at: string): Promise<number> {
  const have = await count(db, 'streamers');
  for (let k = have; k < total; k += CHUNK) {
    await db
      .insertInto('streamers')
      .values(
        Array.from({ length: Math.min(CHUNK, total - k) }, (_, i) =>
          streamerRow(`Scheduled ${k + i + 1}`, at, {
            provider_a: `scheduled_${k + i + 1}`,
            game: 'Just Chatting',
            evaluated: 1,
          }),
        ),
      )
      .execute();
  }
  const first = await db
    .selectFrom('ratings')
    .selectAll()
    .orderBy('streamer_id')
    .limit(1)
    .executeTakeFirstOrThrow();
  await db
    .insertInto('ratings')
    .columns(['streamer_id', 's', 'g', 'a', 'v', 'n', 'ns', 'o', 'reward', 'notes', 'updated_at'])
    .expression((eb) =>
      eb
        .selectFrom('streamers')
        .select((e) => [
          'id',
          e.val(first.s).as('s'),
          e.val(first.g).as('g'),
          e.val(first.a).as('a'),
          e.val(first.v).as('v'),
          e.val(first.n).as('n'),
          e.val(first.ns).as('ns'),
          e.val(first.o).as('o'),
          e.val(first.reward).as('reward'),
          e.val(null).as('notes'),
          e.val(at).as('updated_at'),
        ])
        .where((w) =>
          w.not(
            w.exists(
              w
                .selectFrom('ratings as r')
                .select('r.streamer_id')
                .whereRef('r.streamer_id', '=', 'streamers.id'),
            ),
          ),
        ),
    )
    .execute();
  const ids = (await db.selectFrom('streamers').select('id').orderBy('id').limit(total).execute()).map(
    (r) => r.id,
  );
  await db
    .insertInto('schedules')
    .columns(['streamer_id', 'source', 'read_at'])
    .expression((eb) =>
      eb
        .selectFrom('streamers')
        .select((e) => ['id', e.val('provider').as('source'), e.val(at).as('read_at')])
        .where('id', 'in', ids),
    )
    .onConflict((oc) => oc.doNothing())
    .execute();
  // Earlier rows' services may have read the stand-in's schedules (whole hours, as some of these
  // are): this row's figures are of exactly these 5 segments a streamer.
  await db.deleteFrom('schedule_segments').execute();
  const HOUR = 3600_000;
  for (let k = 0; k < ids.length; k += CHUNK / 5) {
    const rows = ids.slice(k, k + CHUNK / 5).flatMap((id) =>
      Array.from({ length: 5 }, (_, j) => {
        // Spread over the week, each streamer at its own hour of the day.
        const start = from + (j * 32 + (id % 24)) * HOUR + (id % 60) * 60_000;
        return {
          streamer_id: id,
          start_at: new Date(start).toISOString(),
          end_at: new Date(start + 3 * HOUR).toISOString(),
          uid: `bench-${id}-${j}`,
          title: `Stream ${j + 1} of the week`,
          game: 'Just Chatting',
          canceled: 0,
        };
      }),
    );
    await db.insertInto('schedule_segments').values(rows).execute();
  }
  return count(db, 'schedule_segments');
}

/**
 * PostgreSQL: the statistics brought up to date after a seeding, as autovacuum (on at
 * PostgreSQL's defaults) would within a minute. This machine's server runs with `autovacuum =
 * off` (CI's config), and the service's statements are planned once per connection
 * (db/prepared.ts): planned over the statistics of empty tables, they were measured, not the
 * service.
 */
export async function analyzeAfterSeeding(database: DbContext): Promise<void> {
  if (database.kind === 'postgres') await sql`analyze`.execute(database.db);
}
