import type { Db } from '../db/schema.ts';

/**
 * One poller across instances: a row in the database that names its holder until it
 * expires. The holder renews it well within its lifetime; when the holder dies, the row
 * expires and the next instance that asks takes it. One upsert, the same on SQLite and
 * PostgreSQL: it changes the row only when this instance holds it or it has expired.
 */
export async function takeLease(
  db: Db,
  name: string,
  holder: string,
  now: Date,
  ttlMs: number,
): Promise<boolean> {
  const expires_at = new Date(now.getTime() + ttlMs).toISOString();
  const row = await db
    .insertInto('sync_lease')
    .values({ name, holder, expires_at })
    .onConflict((oc) =>
      oc
        .column('name')
        .doUpdateSet({ holder, expires_at })
        .where((eb) =>
          eb.or([eb('sync_lease.holder', '=', holder), eb('sync_lease.expires_at', '<=', now.toISOString())]),
        ),
    )
    .returning('holder')
    .executeTakeFirst();
  return row !== undefined;
}

/** Hands the lease back at once (a clean stop), so another instance need not wait for it to expire. */
export async function releaseLease(db: Db, name: string, holder: string): Promise<void> {
  await db.deleteFrom('sync_lease').where('name', '=', name).where('holder', '=', holder).execute();
}
