import type { Kysely } from 'kysely';

/**
 * A push endpoint's host is stored as its URL reads it, in lower case (stop 101), but the rows
 * stored before kept the host as the browser sent it: `https://FCM.googleapis.com/fcm/send/x`
 * and `https://fcm.googleapis.com/fcm/send/x` could be two rows, one device told twice. Each
 * endpoint is made again as that rule makes a new one (the row's `origin`, which has always been
 * the URL's, then the endpoint after its host); of the rows that become one endpoint, the newest
 * (the last subscribed) stays and the others go, with their messages still to send.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations see the schema of their time
export async function up(db: Kysely<any>): Promise<void> {
  const rows = (await db
    .selectFrom('push_subscriptions')
    .select(['id', 'endpoint', 'origin'])
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute()) as { id: number; endpoint: string; origin: string }[];
  const taken = new Set<string>();
  const gone: number[] = [];
  const renamed: { id: number; endpoint: string }[] = [];
  for (const row of rows) {
    const endpoint = withHostAsRead(row.endpoint, row.origin);
    if (taken.has(endpoint)) gone.push(row.id);
    else if (endpoint !== row.endpoint) renamed.push({ id: row.id, endpoint });
    taken.add(endpoint);
  }
  // The older rows go first, so that no row takes a name another still holds; their messages
  // by hand, as SQLite's migrations run without the cascade (db/migrator.ts).
  for (let i = 0; i < gone.length; i += 500) {
    const ids = gone.slice(i, i + 500);
    await db.deleteFrom('push_outbox').where('subscription_id', 'in', ids).execute();
    await db.deleteFrom('push_subscriptions').where('id', 'in', ids).execute();
  }
  for (const { id, endpoint } of renamed) {
    await db.updateTable('push_subscriptions').set({ endpoint }).where('id', '=', id).execute();
  }
}

/** The endpoint with its scheme and host as its origin (the URL's) writes them, the rest as given. */
function withHostAsRead(endpoint: string, origin: string): string {
  const authority = /^[a-z][a-z\d+.-]*:\/\/[^/\\?#]*/i.exec(endpoint)?.[0];
  return authority === undefined ? endpoint : origin + endpoint.slice(authority.length);
}
