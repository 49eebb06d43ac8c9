import { type Kysely, sql } from 'kysely';
import { foldCase } from '../../shared/rules.ts';
import { addChecks } from '../dialect.ts';

/**
 * Invariants move into the database, so that concurrent requests and several instances
 * cannot break them: CHECK constraints on scores, rewards, roles and flags; at most one
 * owner per team (a partial unique index); case-folded login keys made by the service, the
 * same on both databases; sessions that know their user (one indexed lookup per request);
 * and the shared rate-limit counters.
 */

const SCORES = ['s', 'g', 'a', 'v', 'n', 'ns', 'o'];
const scoreChecks = Object.fromEntries(SCORES.map((k) => [`${k}_range`, `"${k}" between 0 and 10`]));
const flag = (column: string) => `"${column}" in (0, 1)`;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  // Folded keys for what is compared without regard to case.
  await db.schema
    .alterTable('users')
    .addColumn('login_key', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('display_key', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  const users = await db.selectFrom('users').select(['id', 'login', 'display_name']).execute();
  for (const u of users as { id: number; login: string; display_name: string }[]) {
    await db
      .updateTable('users')
      .set({ login_key: foldCase(u.login), display_key: foldCase(u.display_name) })
      .where('id', '=', u.id)
      .execute();
  }
  await db.schema.dropIndex('users_login_idx').execute();
  await db.schema.createIndex('users_login_key_idx').on('users').columns(['provider', 'login_key']).execute();

  // The session row names its user, so loading a session and its viewer is one lookup.
  await db.schema
    .alterTable('sessions')
    .addColumn('user_id', 'integer', (c) => c.references('users.id').onDelete('cascade'))
    .execute();
  await db.schema.createIndex('sessions_user_idx').on('sessions').column('user_id').execute();
  const sessions = (await db.selectFrom('sessions').select(['id', 'data']).execute()) as {
    id: string;
    data: string;
  }[];
  for (const s of sessions) {
    const userId = (JSON.parse(s.data) as { oauth_user?: { id?: unknown } }).oauth_user?.id;
    if (typeof userId !== 'number') continue;
    const exists = await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
    await db
      .updateTable('sessions')
      .set({ user_id: exists ? userId : null })
      .where('id', '=', s.id)
      .execute();
  }

  // At most one owner per team. Older versions could leave two after concurrent requests:
  // the most recently added stays owner.
  const owners = (await db
    .selectFrom('rater_group_members')
    .select(['id', 'group_id'])
    .where('role', '=', 'owner')
    .orderBy('added_at', 'desc')
    .orderBy('id', 'desc')
    .execute()) as { id: number; group_id: number }[];
  const seen = new Set<number>();
  for (const o of owners) {
    if (seen.has(o.group_id)) {
      await db.updateTable('rater_group_members').set({ role: 'rater' }).where('id', '=', o.id).execute();
    }
    seen.add(o.group_id);
  }

  await addChecks(db, 'users', {
    users_provider_check: `"provider" in ('provider_a', 'provider_b')`,
    users_banned_check: `"banned" is null or "banned" in (0, 1)`,
  });
  await addChecks(db, 'streamers', {
    streamers_platform_check: `"platform" in ('provider_a', 'provider_b')`,
    streamers_status_check: `"status" in ('live', 'offline')`,
    streamers_added_by_check: `"added_by" in ('admin', 'viewer')`,
    streamers_evaluated_check: flag('evaluated'),
    streamers_locked_check: flag('community_locked'),
  });
  await addChecks(db, 'ratings', {
    ...prefixed('ratings', scoreChecks),
    ratings_reward_range: `"reward" between 0 and 130`,
  });
  await addChecks(db, 'community_ratings', prefixed('community_ratings', scoreChecks));
  await addChecks(db, 'rater_group_members', {
    members_role_check: `"role" in ('owner', 'rater')`,
  });
  await addChecks(db, 'comments', { comments_is_admin_check: flag('is_admin') });

  await sql`create unique index members_one_owner on rater_group_members (group_id) where role = 'owner'`.execute(
    db,
  );

  // Rate-limit counters that every instance sees (fixed windows per key).
  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .addColumn('reset_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rate_limits_reset_idx').on('rate_limits').column('reset_at').execute();
}

function prefixed(table: string, checks: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(checks).map(([name, expr]) => [`${table}_${name}`, expr]));
}
