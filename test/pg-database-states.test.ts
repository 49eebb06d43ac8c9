import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/connect.ts';
import { isUnavailable } from '../src/db/dialect.ts';
import { startApp, type TestApp } from './helpers/app.ts';
import { dbKind } from './helpers/database.ts';

/**
 * An operator's bad day on PostgreSQL beyond a lost connection (test/faults/pg-outage.test.ts):
 * the service's database made read-only (a failover's standby), closed to connections, renamed
 * away. Each is a 503 with Retry-After for /healthz and for a write, never a 500, and the
 * service is back once the database is. On a database of this test's own, made and dropped
 * here, so that nothing else on the server sees it.
 */
describe.runIf(dbKind === 'postgres')('the database refuses the service in an operator’s ways', () => {
  it('read-only, not accepting connections, renamed: 503 with Retry-After; back: 200 and 201', async () => {
    const base = process.env.TEST_DATABASE_URL ?? '';
    const name = `states_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
    const server = new pg.Client({ connectionString: base });
    await server.connect();
    await server.query(`create database ${name}`);
    const address = new URL(base);
    address.pathname = `/${name}`;
    const opened = openDatabase(address.toString(), { poolSize: 3, applicationName: name });
    let t: TestApp | undefined;
    try {
      t = await startApp({}, { database: { ...opened, url: address.toString(), cleanup: async () => {} } });
      const app = t;
      const sid = await app.streamer('Bad Day');
      // The service's connections end; the next ones meet the database as it is now. Every one
      // that began before the change: one whose start was under way when the change committed is
      // not yet in pg_stat_activity at the first look (the service's own timers open them), and
      // pg_terminate_backend only signals; so again, waiting, until none of them is left.
      const endConnections = async () => {
        const { rows } = await server.query<{ now: Date }>('select clock_timestamp() as now');
        const changed = rows[0]?.now;
        // Two empty looks in a row: a start under way shows in pg_stat_activity a moment after
        // it has read the database's settings.
        for (let empty = 0; empty < 2;) {
          const left = await server.query(
            `select pg_terminate_backend(pid, 1000) from pg_stat_activity
              where datname = $1 and backend_start <= $2 and pid <> pg_backend_pid()`,
            [name, changed],
          );
          empty = left.rowCount === 0 ? empty + 1 : 0;
        }
      };
      let n = 0;
      // Writes first: a connection the server ended fails the first query that meets it, which
      // would answer 503 whatever the database's state; /healthz then twice, on live connections.
      const answers = async () => {
        const posts = [];
        for (let i = 0; i < 3; i++)
          posts.push(await app.client().post('/api/comments', { streamer_id: sid, body: `Comment ${++n}` }));
        const health = [];
        for (let i = 0; i < 2; i++) {
          app.clock.advance(1000); // past the health check's 100 ms of trust in its last answer
          health.push(await app.client().get('/healthz'));
        }
        return { health, posts };
      };
      const refused = async (what: string) => {
        const { health, posts } = await answers();
        for (const post of posts) {
          expect([what, post.status, post.body.code]).toEqual([what, 503, 'service_unavailable']);
          expect(post.headers.get('retry-after')).not.toBeNull();
        }
        for (const h of health)
          expect([what, h.status, h.headers.get('retry-after')]).toEqual([what, 503, '5']);
      };
      // Which check failed, as `?detail=1` says it (on a live connection: after `refused`'s).
      const failed = async () => {
        app.clock.advance(1000);
        const detail = await app.client().get('/healthz?detail=1');
        return [detail.status, detail.body.failed] as const;
      };
      const back = async (what: string) => {
        // A connection the server ended answers its next query with a clean 503 until the pool
        // lets it go: the service is back once a whole round goes through.
        await expect
          .poll(async () => {
            const { health, posts } = await answers();
            return [what, ...posts.map((p) => p.status), ...health.map((h) => h.status)];
          })
          .toEqual([what, 201, 201, 201, 200, 200]);
      };

      await server.query(`alter database ${name} set default_transaction_read_only = on`);
      await endConnections();
      await refused('read-only');
      expect(await failed()).toEqual([503, 'read_only']);
      await server.query(`alter database ${name} reset default_transaction_read_only`);
      await endConnections();
      await back('writable again');

      await server.query(`alter database ${name} allow_connections false`);
      await endConnections();
      await refused('not accepting connections');
      expect(await failed()).toEqual([503, 'unavailable']);
      await server.query(`alter database ${name} rename to ${name}_away`);
      await refused('renamed away');
      await server.query(`alter database ${name}_away rename to ${name}`);
      await server.query(`alter database ${name} allow_connections true`);
      await back('back');
    } finally {
      await t?.close();
      await opened.db.destroy().catch(() => undefined);
      await server.query(`drop database if exists ${name}_away with (force)`);
      await server.query(`drop database if exists ${name} with (force)`);
      await server.end();
    }
  });
});

describe('refusals that pass', () => {
  it('a changed password or a database dropped under a connection is unavailable too (trust auth here makes neither)', () => {
    for (const code of ['28000', '28P01', '57P04', '3D000', '25006'])
      expect([code, isUnavailable({ code, message: 'refused' })]).toEqual([code, true]);
    // 55000 only as the refusal of connections: the code has other uses.
    expect(
      isUnavailable({ code: '55000', message: 'database "x" is not currently accepting connections' }),
    ).toBe(true);
    expect(isUnavailable({ code: '55000', message: 'lock file exists' })).toBe(false);
  });
});
