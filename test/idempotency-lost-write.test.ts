import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { useApp } from './helpers/app.ts';
import { dbKind } from './helpers/database.ts';

/**
 * Issue 45 item 20: an instance that loses its database in the middle of a keyed write has
 * stored nothing, its key included (the key's row is written in the operation's own
 * transaction): a retry with the same key runs the operation, at once, not 409 for a minute.
 */
const t = await useApp();
const admin = await t.admin();

describe.runIf(dbKind === 'postgres')('a keyed write whose connection dies before its commit', () => {
  it('leaves no claim: the retry with the same key is a fresh write, stored once', async () => {
    const name = 'Lost Mid Write';
    const key = `lost-${process.pid}-${Date.now()}`;
    // The write stops inside its transaction, after its insert, until its backend is ended.
    await sql
      .raw(
        `create function hold_write() returns trigger language plpgsql as $$
         begin if new.name = '${name}' then perform pg_sleep(60); end if; return new; end $$`,
      )
      .execute(t.db);
    await sql
      .raw('create trigger hold_write after insert on streamers for each row execute function hold_write()')
      .execute(t.db);
    const first = admin.post('/api/streamers?admin=1', { name }, { headers: { 'idempotency-key': key } });
    let held: number | undefined;
    await expect
      .poll(async () => {
        const rows = await sql<{ pid: number }>`select pid from pg_stat_activity
          where datname = current_database() and wait_event = 'PgSleep' and pid <> pg_backend_pid()`.execute(
          t.db,
        );
        held = rows.rows[0]?.pid;
        return held;
      })
      .toBeDefined();
    // The database goes away under the write, as for an instance that lost it.
    await sql`select pg_terminate_backend(${held})`.execute(t.db);
    const failed = await first;
    expect(failed.status).toBeGreaterThanOrEqual(500);
    await sql.raw('drop trigger hold_write on streamers').execute(t.db);
    await sql.raw('drop function hold_write()').execute(t.db);
    const keys = await t.db.selectFrom('idempotency_keys').select('key').where('key', '=', key).execute();
    expect(keys).toEqual([]);

    const retried = await admin.post(
      '/api/streamers?admin=1',
      { name },
      { headers: { 'idempotency-key': key } },
    );
    expect(retried.status, retried.text).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    const replayed = await admin.post(
      '/api/streamers?admin=1',
      { name },
      { headers: { 'idempotency-key': key } },
    );
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.text).toBe(retried.text);
    const stored = await t.db.selectFrom('streamers').select('id').where('name', '=', name).execute();
    expect(stored).toHaveLength(1);
  });
});
