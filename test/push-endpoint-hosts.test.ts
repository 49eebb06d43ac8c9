/**
 * Migration 050: push endpoints stored before stop 101 kept their host as the browser wrote
 * it, so one device could be two rows (`FCM.googleapis.com`, `fcm.googleapis.com`). The
 * migration lowers the stored hosts, and of the rows that become one endpoint keeps the newest.
 */
import { describe, expect, it } from 'vitest';
import { migrateToLatest } from '../src/db/migrator.ts';
import { createTestDatabase, type TestDatabase } from './helpers/database.ts';
import { migrateBefore } from './helpers/migrations.ts';

const MIGRATION = '050-push-endpoint-hosts';

/** A user as the schema before the migration holds one. */
async function userRow(db: TestDatabase['db'], login: string): Promise<number> {
  const { id } = await db
    .insertInto('users')
    .values({
      provider: 'provider_a',
      provider_id: login,
      login,
      display_name: login,
      avatar: '',
      last_seen: '2026-01-01T00:00:00.000Z',
      created_at: '2026-01-01T00:00:00.000Z',
      login_key: login,
      display_key: login,
      login_fold: login,
      display_fold: login,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

describe('migration 050: push endpoints with capitals in their host', () => {
  it('are stored with the host lower-cased, the path as given; of two rows that become one, the newest stays', async () => {
    const d = await createTestDatabase();
    try {
      const db = d.db;
      await migrateBefore(db, MIGRATION);
      const [alice, bob] = [await userRow(db, 'alice'), await userRow(db, 'bob')];
      const subscription = async (user_id: number, endpoint: string, day: number) => {
        const origin = new URL(endpoint).origin;
        const created_at = `2026-01-0${day}T00:00:00.000Z`;
        const values = { user_id, endpoint, origin, p256dh: 'p', auth: 'a', kinds: ' live ', created_at };
        return (
          await db.insertInto('push_subscriptions').values(values).returning('id').executeTakeFirstOrThrow()
        ).id;
      };
      // One device subscribed with capitals, then (after stop 101) again in lower case, by bob.
      const oldOne = await subscription(alice, 'https://FCM.googleapis.com/fcm/send/One:AbC', 1);
      const newOne = await subscription(bob, 'https://fcm.googleapis.com/fcm/send/One:AbC', 2);
      // The other way round: the row in capitals is the newest.
      const oldTwo = await subscription(alice, 'https://fcm.googleapis.com/fcm/send/Two', 1);
      const newTwo = await subscription(alice, 'https://FCM.GoogleApis.com/fcm/send/Two', 3);
      // Alone: only its host changes.
      const alone = await subscription(bob, 'https://Updates.Push.Services.Mozilla.com/wpush/v2/XyZ', 1);
      const untouched = await subscription(bob, 'https://fcm.googleapis.com/fcm/send/Three', 1);
      // A message still to send to a row that goes goes with it.
      await db
        .insertInto('push_outbox')
        .values({
          subscription_id: oldOne,
          payload: '{}',
          not_before: '2026-01-01T00:00:00.000Z',
          created_at: '2026-01-01T00:00:00.000Z',
        })
        .execute();

      expect(await migrateToLatest(db)).toContain(MIGRATION);
      const rows = await db
        .selectFrom('push_subscriptions')
        .select(['id', 'user_id', 'endpoint'])
        .orderBy('id')
        .execute();
      expect(rows).toEqual([
        { id: newOne, user_id: bob, endpoint: 'https://fcm.googleapis.com/fcm/send/One:AbC' },
        { id: newTwo, user_id: alice, endpoint: 'https://fcm.googleapis.com/fcm/send/Two' },
        { id: alone, user_id: bob, endpoint: 'https://updates.push.services.mozilla.com/wpush/v2/XyZ' },
        { id: untouched, user_id: bob, endpoint: 'https://fcm.googleapis.com/fcm/send/Three' },
      ]);
      expect([oldOne, oldTwo].some((id) => rows.some((r) => r.id === id))).toBe(false);
      expect(await db.selectFrom('push_outbox').select('id').execute()).toEqual([]);
    } finally {
      await d.cleanup();
    }
  });
});
