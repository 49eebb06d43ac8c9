/**
 * A ceiling: a bare Fastify app from the project's own node_modules doing the least work that
 * gives the same answer as the service, run as its own process. Configured by environment:
 *
 * - CEILING_MODE=static: answers every GET with the bytes of CEILING_FILE (as a string, or as
 *   a Buffer with `content-encoding: br` when CEILING_ENCODING=br, or when CEILING_BUFFER=1, or
 *   when CEILING_TYPE names a type other than JSON, such as `image/png`), with CEILING_ETAG as its ETag and 304 to a
 *   matching If-None-Match.
 * - CEILING_MODE=ok: answers every GET with `{ok:true}`.
 * - CEILING_HEADERS (static, ok): a JSON object of headers sent with every answer as well: the
 *   service's own answer's (security, caching, Vary), so that the ceiling's answer is the
 *   service's header for header and never the cheaper for being shorter.
 * - CEILING_MODE=insert: POST /api/comments inserts one row per request and answers 201
 *   after its commit (SQLite: WAL, synchronous=FULL, so one fsync per request).
 * - CEILING_MODE=group-commit: the same, but rows wait at most 2 ms and are inserted together
 *   in one transaction; each request is answered after that commit.
 * - CEILING_MODE=health: opens CEILING_DATABASE_URL and answers GET /healthz with
 *   `{ok:true}` after `select 1` (the cold-start ceiling).
 *
 * The driver is imported only when the mode needs it, so the cold start pays for what a
 * bare service on that database pays for and nothing else.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import type { CeilingMode } from './protocol.ts';
// The driver the service uses on this Node.js (a static import: tsc rewrites its path).
import { sqliteDriver } from '../src/db/sqlite-driver.ts';

interface Row {
  streamer_id: number;
  author: string;
  body: string;
  created_at: string;
}

interface Store {
  ping: () => Promise<void>;
  insert: (row: Row) => Promise<number>;
  /** All rows in one transaction; the ids in the rows' order. */
  insertMany: (rows: Row[]) => Promise<number[]>;
}

const TABLE = 'bench_ceiling_comments';

async function openSqlite(file: string, withTable: boolean): Promise<Store> {
  const sqlite = new (sqliteDriver())(file);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('busy_timeout = 5000');
  const ping = sqlite.prepare('select 1');
  if (!withTable) return { ping: async () => void ping.get(), insert: nope, insertMany: nope };
  sqlite.exec(
    `create table if not exists ${TABLE} (id integer primary key, streamer_id integer not null,
      user_id integer, author text not null, body text not null, is_admin integer not null default 0,
      created_at text not null);
     create index if not exists ${TABLE}_streamer on ${TABLE} (streamer_id, created_at);`,
  );
  const insert = sqlite.prepare(
    `insert into ${TABLE} (streamer_id, author, body, created_at)
     values (@streamer_id, @author, @body, @created_at)`,
  );
  const many = sqlite.transaction((rows: Row[]) =>
    rows.map((row) => Number(insert.run(row).lastInsertRowid)),
  );
  return {
    ping: async () => void ping.get(),
    insert: async (row) => Number(insert.run(row).lastInsertRowid),
    insertMany: async (rows) => many(rows),
  };
}

async function openPostgres(url: string, withTable: boolean): Promise<Store> {
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  pool.on('error', () => {});
  const ping = async () => void (await pool.query('select 1'));
  if (!withTable) return { ping, insert: nope, insertMany: nope };
  await pool.query(
    `create table if not exists ${TABLE} (id serial primary key, streamer_id integer not null,
      user_id integer, author text not null, body text not null, is_admin integer not null default 0,
      created_at text not null)`,
  );
  await pool.query(`create index if not exists ${TABLE}_streamer on ${TABLE} (streamer_id, created_at)`);
  const columns = `${TABLE} (streamer_id, author, body, created_at)`;
  return {
    ping,
    insert: async (row) => {
      const result = await pool.query<{ id: number }>(
        `insert into ${columns} values ($1, $2, $3, $4) returning id`,
        [row.streamer_id, row.author, row.body, row.created_at],
      );
      return result.rows[0]!.id;
    },
    // One multi-row INSERT is one transaction and one commit.
    insertMany: async (rows) => {
      const values = rows.map((_, i) => `($${4 * i + 1}, $${4 * i + 2}, $${4 * i + 3}, $${4 * i + 4})`);
      const params = rows.flatMap((r) => [r.streamer_id, r.author, r.body, r.created_at]);
      const result = await pool.query<{ id: number }>(
        `insert into ${columns} values ${values.join(', ')} returning id`,
        params,
      );
      return result.rows.map((r) => r.id);
    },
  };
}

async function nope(): Promise<never> {
  throw new Error('this ceiling has no table');
}

function openStore(url: string, withTable: boolean): Promise<Store> {
  if (url.startsWith('sqlite:')) return openSqlite(url.slice('sqlite:'.length), withTable);
  return openPostgres(url, withTable);
}

/** Collects rows for at most 2 ms, then commits them together and answers each request. */
function groupCommit(store: Store): (row: Row) => Promise<number> {
  let queue: { row: Row; resolve: (id: number) => void; reject: (err: unknown) => void }[] = [];
  let timer: NodeJS.Timeout | null = null;
  const flush = async () => {
    timer = null;
    const batch = queue;
    queue = [];
    try {
      const ids = await store.insertMany(batch.map((p) => p.row));
      batch.forEach((p, i) => p.resolve(ids[i]!));
    } catch (err) {
      for (const p of batch) p.reject(err);
    }
  };
  return (row) =>
    new Promise((resolve, reject) => {
      queue.push({ row, resolve, reject });
      timer ??= setTimeout(() => void flush(), 2);
    });
}

const env = process.env;
const mode = env.CEILING_MODE as CeilingMode;
const app = Fastify({ logger: false });
const headers = JSON.parse(env.CEILING_HEADERS ?? '{}') as Record<string, string>;

switch (mode) {
  case 'static': {
    const file = env.CEILING_FILE ?? '';
    const br = env.CEILING_ENCODING === 'br';
    const binary =
      br ||
      env.CEILING_BUFFER === '1' ||
      (env.CEILING_TYPE !== undefined && !env.CEILING_TYPE.startsWith('application/json'));
    const payload: string | Buffer = binary ? readFileSync(file) : readFileSync(file, 'utf8');
    const etag = env.CEILING_ETAG ?? '';
    app.get('/*', (request, reply) => {
      reply.headers(headers);
      if (etag && request.headers['if-none-match'] === etag) {
        reply.code(304).header('etag', etag).send();
        return;
      }
      reply.header('content-type', env.CEILING_TYPE ?? 'application/json; charset=utf-8');
      if (etag) reply.header('etag', etag);
      if (br) reply.header('content-encoding', 'br');
      reply.send(payload);
    });
    break;
  }
  case 'ok':
    app.get('/*', async (_request, reply) => {
      reply.headers(headers);
      return { ok: true };
    });
    break;
  case 'health': {
    const store = await openStore(env.CEILING_DATABASE_URL ?? '', false);
    app.get('/healthz', async () => {
      await store.ping();
      return { ok: true };
    });
    break;
  }
  case 'insert':
  case 'group-commit': {
    const store = await openStore(env.CEILING_DATABASE_URL ?? '', true);
    const insert = mode === 'insert' ? store.insert : groupCommit(store);
    app.get('/healthz', async () => ({ ok: true }));
    app.post('/api/comments', async (request, reply) => {
      const input = request.body as { streamer_id?: unknown; body?: unknown };
      if (typeof input?.streamer_id !== 'number' || typeof input.body !== 'string') {
        return reply.code(400).send({ error: 'Bad request' });
      }
      const row = {
        streamer_id: input.streamer_id,
        author: 'Anonym',
        body: input.body,
        created_at: new Date().toISOString(),
      };
      const id = await insert(row);
      return reply
        .code(201)
        .send({ id, author: row.author, body: row.body, is_admin: false, created_at: row.created_at });
    });
    break;
  }
  default:
    throw new Error(`unknown CEILING_MODE ${String(mode)}`);
}

await app.listen({ host: '127.0.0.1', port: Number(env.PORT) });
// The line the harness waits for (test/helpers/service.ts), as it does for the service's.
console.log(`ceiling listening on 127.0.0.1:${env.PORT}`);
const stop = () => void app.close().then(() => process.exit(0));
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
