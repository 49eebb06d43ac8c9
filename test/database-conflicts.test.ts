import { afterAll, describe, expect, it } from 'vitest';
import { isConflict } from '../src/db/dialect.ts';
import { failureOf } from '../src/db/failures.ts';
import { startApp } from './helpers/app.ts';

/**
 * A write that loses a race on PostgreSQL (a deadlock, 40P01, say a pin racing a bulk hide; or
 * a serialization failure, 40001) was rolled back and works when sent again: it answers 503
 * with `Retry-After` like the database's other passing failures, never 500, and changes nothing.
 */
const TOKEN = 'metrics-token-0123456789abcdef';
const t = await startApp({ METRICS_TOKEN: TOKEN });
afterAll(() => t.close());
const pool = t.database.pool;

const conflicts = async () => {
  const text = await (
    await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })
  ).text();
  return Number(/^db_errors_total\{kind="conflict"\} (\d+)$/m.exec(text)?.[1] ?? 'NaN');
};

describe('a write that loses a race', () => {
  it('PostgreSQL names it by its codes: deadlock 40P01 and serialization failure 40001', () => {
    expect(isConflict({ code: '40P01' })).toBe(true);
    expect(isConflict({ code: '40001' })).toBe(true);
    expect(isConflict({ code: '23505' })).toBe(false);
    expect(isConflict(new Error('x'))).toBe(false);
    expect(failureOf({ code: '40P01' })).toBe('conflict');
  });

  it.skipIf(!pool)(
    'a pin that deadlocks with another transaction answers 503 with Retry-After, pins nothing, and is counted',
    async () => {
      const admin = await t.admin();
      const sid = await t.streamer();
      const posted = await t.client().post('/api/comments', { streamer_id: sid, body: 'about to be pinned' });
      expect(posted.status, posted.text).toBe(201);
      const id = posted.body.id as number;
      const before = await conflicts();
      // Another transaction holds the comment's row; the pin locks the streamer (its order, the
      // streamer's delete's), then waits for the comment; the other then asks for the streamer:
      // a real deadlock, which no write of the service makes with another. The other waits far
      // longer before it looks for deadlocks, so PostgreSQL aborts the pin's transaction.
      const other = await pool!.connect();
      try {
        await other.query('begin');
        await other.query(`set local deadlock_timeout = '60s'`);
        await other.query('select 1 from comments where id = $1 for update', [id]);
        const pinning = admin.put(`/api/comments?id=${id}&pin=1`, { pinned: true });
        // Until the pin waits for the comment's row (a condition, not a wall-clock wait).
        const { rows } = await other.query('select pg_backend_pid() as pid');
        const otherPid = (rows[0] as { pid: number }).pid;
        for (;;) {
          const waiting = await pool!.query(
            `select count(*)::int as n from pg_stat_activity
             where datname = current_database() and wait_event_type = 'Lock' and pid <> $1`,
            [otherPid],
          );
          if ((waiting.rows[0] as { n: number }).n > 0) break;
          await new Promise((resolve) => setImmediate(resolve));
        }
        const locking = other.query('select 1 from streamers where id = $1 for update', [sid]);
        const res = await pinning;
        await locking;
        expect(res.status, res.text).toBe(503);
        expect(res.headers.get('retry-after')).toBe('5');
        expect(res.body).toEqual({ error: 'Service unavailable', code: 'service_unavailable' });
      } finally {
        await other.query('rollback');
        other.release();
      }
      const row = await t.db.selectFrom('comments').select('pinned').where('id', '=', id).executeTakeFirst();
      expect(row?.pinned).toBe(0);
      expect((await conflicts()) - before).toBe(1);
      expect(t.logs.some((l) => l.includes('database conflict') && l.includes('40P01'))).toBe(true);
      // Sent again, it works.
      expect((await admin.put(`/api/comments?id=${id}&pin=1`, { pinned: true })).status).toBe(200);
    },
  );
});
