import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../src/db/connect.ts';
import { NAMED_MAX } from '../src/db/prepared.ts';
import { writeTransaction } from '../src/db/transaction.ts';
import { publish } from '../src/db/event-log.ts';
import type { Db } from '../src/db/schema.ts';
import { migrations } from '../src/db/migrations/index.ts';
import { MigrationError, migrateToLatest } from '../src/db/migrator.ts';
import { startApp } from './helpers/app.ts';
import { createTestDatabase, dbKind } from './helpers/database.ts';
import { failedStart } from './helpers/start-fails.ts';
import { recordingProxy } from './helpers/wire.ts';

describe.runIf(dbKind === 'sqlite')('SQLite settings (checked at start-up)', () => {
  it('runs in WAL with foreign keys on, a busy timeout of at least 5 s, synchronous FULL and a 4 MiB page cache', async () => {
    const { sqlite, db } = openDatabase(`sqlite:${(await createTestDatabase()).url.slice(7)}`);
    try {
      expect(sqlite!.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(sqlite!.pragma('foreign_keys', { simple: true })).toBe(1);
      expect(Number(sqlite!.pragma('busy_timeout', { simple: true }))).toBeGreaterThanOrEqual(5000);
      expect(sqlite!.pragma('synchronous', { simple: true })).toBe(2); // FULL
      // A 4 MiB page cache (KiB when negative), not the driver's 16 MiB: the memory budget.
      expect(sqlite!.pragma('cache_size', { simple: true })).toBe(-4000);
    } finally {
      await db.destroy();
    }
  });
});

describe.runIf(dbKind === 'postgres')(
  'PostgreSQL settings and prepared statements (db/connect.ts, db/prepared.ts)',
  () => {
    /** Statements this session prepared whose text holds `marker`. */
    const preparedWith = async (conn: Db, marker: string) => {
      const { rows } = await sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements
      where statement like ${`%${marker}%`}`.execute(conn);
      return rows[0]?.n;
    };

    it("JIT is off on the service's connections, also when the address carries options of its own", async () => {
      const database = await createTestDatabase();
      // The tests' address sets the search path in its own `options` (helpers/database.ts).
      expect(new URL(database.url).searchParams.get('options')).toContain('search_path');
      const again = openDatabase(database.url, { poolSize: 1 });
      try {
        for (const db of [database.db, again.db]) {
          const { rows } = await sql<{ jit: string }>`show jit`.execute(db);
          expect(rows[0]?.jit).toBe('off');
        }
        const { rows } = await sql<{ search_path: string }>`show search_path`.execute(again.db);
        expect(rows[0]?.search_path).toBe(database.pgSchema);
      } finally {
        await again.db.destroy();
        await database.cleanup();
      }
    });

    it('a text that recurs with parameters is prepared once on its connection; one run once, or without parameters, is not', async () => {
      const database = await createTestDatabase();
      try {
        await database.db.connection().execute(async (conn) => {
          for (let i = 0; i < 3; i++) {
            const { rows } = await sql<{
              x: number;
            }>`select ${i}::int + 1 as x, 'marker_recurs' as m`.execute(conn);
            expect(rows[0]?.x).toBe(i + 1);
            await sql`select 'marker_plain' as m`.execute(conn);
          }
          await sql`select ${1}::int as x, 'marker_once' as m`.execute(conn);
          expect(await preparedWith(conn, 'marker_recurs')).toBe(1);
          expect(await preparedWith(conn, 'marker_once')).toBe(0);
          expect(await preparedWith(conn, 'marker_plain')).toBe(0);
        });
      } finally {
        await database.cleanup();
      }
    });

    it("a kept `select *` whose table another instance's migration changed fails once: its connection is let go, and the next query runs", async () => {
      const database = await createTestDatabase();
      const one = openDatabase(database.url, { poolSize: 1 });
      try {
        await sql`create table kept (id integer)`.execute(database.db);
        await sql`insert into kept values (1)`.execute(database.db);
        const read = () =>
          sql<Record<string, unknown>>`select * from kept where id = ${1}`.execute(one.db).then(
            ({ rows }) => Object.keys(rows[0] ?? {}).length,
            (err: { code?: string }) => err.code,
          );
        // Named on the second run, and kept by the pool's one connection.
        expect([await read(), await read()]).toEqual([1, 1]);
        await sql`alter table kept add column more integer`.execute(database.db);
        expect([await read(), await read(), await read()]).toEqual(['0A000', 2, 2]);
      } finally {
        await one.db.destroy();
        await database.cleanup();
      }
    });

    it("a group's BEGIN goes out with its first query, and its staged events with its COMMIT: pipelined, a round trip each", async () => {
      const database = await createTestDatabase();
      await migrateToLatest(database.db);
      const target = new URL(database.url);
      const wire = await recordingProxy({ host: target.hostname, port: Number(target.port || 5432) });
      const proxied = new URL(database.url);
      proxied.hostname = '127.0.0.1';
      proxied.port = String(wire.port);
      const via = openDatabase(proxied.toString(), { poolSize: 1 });
      try {
        await writeTransaction(
          via,
          async (trx) => {
            await sql`select 'marker_first' as m`.execute(trx);
            publish(trx, [{ type: 'rating', streamer_id: 424242 }]);
          },
          { grouped: true },
        );
        // Sent before PostgreSQL's answer to the savepoint, and to the staged events (set_config
        // answers the value it set), reached the client.
        expect(wire.at('client', 'marker_first')).toBeGreaterThan(-1);
        expect(wire.at('client', 'marker_first')).toBeLessThan(wire.at('server', 'SAVEPOINT'));
        expect(wire.at('client', 'append_staged_events')).toBeGreaterThan(-1);
        expect(wire.at('client', 'append_staged_events')).toBeLessThan(wire.at('server', '424242'));
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from event_log
          where streamer_id = ${424242}`.execute(database.db);
        expect(rows[0]?.n).toBe(1);
      } finally {
        await via.db.destroy();
        await wire.close();
        await database.cleanup();
      }
    });

    it(`at most ${NAMED_MAX} texts are prepared; the others still run, unnamed`, async () => {
      const database = await createTestDatabase();
      try {
        await database.db.connection().execute(async (conn) => {
          for (let k = 0; k < NAMED_MAX + 10; k++) {
            for (let i = 0; i < 2; i++) {
              const { rows } = await sql<{
                x: number;
              }>`select ${k}::int as x, ${sql.lit(`marker_many_${k}`)} as m`.execute(conn);
              expect(rows[0]?.x).toBe(k);
            }
          }
          expect(await preparedWith(conn, 'marker_many_')).toBe(NAMED_MAX);
        });
      } finally {
        await database.cleanup();
      }
    });
  },
);

describe('migrations', () => {
  it('run once: a second run applies nothing', async () => {
    const database = await createTestDatabase();
    try {
      expect(await migrateToLatest(database.db)).toEqual(Object.keys(migrations).sort());
      expect(await migrateToLatest(database.db)).toEqual([]);
    } finally {
      await database.cleanup();
    }
  });

  it('a failing migration throws a MigrationError that names it', async () => {
    const database = await createTestDatabase();
    try {
      await database.db.schema.createTable('streamers').addColumn('x', 'integer').execute();
      await expect(migrateToLatest(database.db)).rejects.toThrow(MigrationError);
      await expect(migrateToLatest(database.db)).rejects.toThrow(/001-initial/);
    } finally {
      await database.cleanup();
    }
  });

  it('a failed migration stops the server start with a clear message and a non-zero exit', async () => {
    const database = await createTestDatabase();
    try {
      await database.db.schema.createTable('streamers').addColumn('x', 'integer').execute();
      const run = await failedStart(database);
      expect(run.status).toBe(1);
      // A JSON log line like every other (issue 30, item 13), not plain text on stderr.
      const fatal = run.lines.filter((l) => l.level === 60);
      expect(fatal).toEqual([
        expect.objectContaining({ msg: expect.stringMatching(/Database migration "001-initial" failed/) }),
      ]);
    } finally {
      await database.cleanup();
    }
  });
});

describe.runIf(dbKind === 'postgres')('PostgreSQL connection failures', () => {
  /** Terminates this test database's connections (all, or only those running pg_sleep). */
  const terminate = async (schema: string, busyOnly: boolean) => {
    const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
    await admin.connect();
    try {
      const { rowCount } = await admin.query(
        `select pg_terminate_backend(pid) from pg_stat_activity
         where application_name = $1 and (not $2 or (state = 'active' and query ilike '%pg_sleep%'))`,
        [schema, busyOnly],
      );
      return rowCount ?? 0;
    } finally {
      await admin.end();
    }
  };

  it('terminated idle connections do not crash the process; the next request succeeds or gets a clean 503', async () => {
    const app = await startApp();
    try {
      await Promise.all(Array.from({ length: 4 }, () => app.client().get('/api/streamers')));
      expect(await terminate(app.database.pgSchema!, false)).toBeGreaterThan(0);
      // The terminations have reached the pool: it dropped every idle client they broke.
      await expect.poll(() => app.database.pool!.idleCount, { timeout: 10_000 }).toBe(0);
      const res = await app.client().get('/api/streamers');
      expect([200, 503]).toContain(res.status);
      if (res.status === 503) expect(res.headers.get('retry-after')).toBeTruthy();
      const again = await app.client().get('/healthz');
      expect(again.status).toBe(200);
    } finally {
      await app.close();
    }
  });

  it('a busy connection terminated mid-query does not crash the process', async () => {
    const app = await startApp();
    try {
      const slow = sql`select pg_sleep(5)`.execute(app.db).then(
        () => 'finished',
        (err: Error) => err.message,
      );
      // Terminated once PostgreSQL runs it.
      await expect
        .poll(() => terminate(app.database.pgSchema!, true), { timeout: 10_000 })
        .toBeGreaterThan(0);
      expect(await slow).toMatch(/terminat|connection/i);
      const res = await app.client().get('/api/streamers');
      expect([200, 503]).toContain(res.status);
      expect((await app.client().get('/api/streamers')).status).toBe(200);
    } finally {
      await app.close();
    }
  });
});
