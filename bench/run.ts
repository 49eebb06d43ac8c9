/**
 * Load benchmark: the real service on a fresh SQLite database filled with the demo data,
 * driven by autocannon over loopback. Prints requests per second, latency percentiles,
 * status counts and the process's memory, for the hot read paths and comment posting.
 * Run with `npm run bench` (about a minute).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { buildApp } from '../src/app.ts';
import { fillDemo } from '../src/cli/demo.ts';
import { parseConfig } from '../src/config.ts';
import { openDatabase } from '../src/db/connect.ts';
import { migrateToLatest } from '../src/db/migrator.ts';

const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);

const dir = mkdtempSync(join(tmpdir(), 'bench-'));
const config = parseConfig({
  DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`,
  ADMIN_PASSWORD: 'bench-password',
  RATE_LIMIT: 'off',
  LOG_LEVEL: 'warn',
  PORT: '0',
});
const { db } = openDatabase(config.databaseUrl);
await migrateToLatest(db);
await fillDemo(db, new Date());
const app = await buildApp({ config, db });
await app.listen({ host: '127.0.0.1', port: 0 });
const { port } = app.server.address() as { port: number };
const base = `http://127.0.0.1:${port}`;
const streamerId = (await db.selectFrom('streamers').select('id').executeTakeFirstOrThrow()).id;

interface Case {
  name: string;
  path: string;
  method?: 'GET' | 'POST';
  body?: string;
  /** Minimum requests per second on this 2-core machine; below it the run fails. */
  target: number;
}
const cases: Case[] = [
  { name: 'public ranking', path: '/api/streamers', target: 1500 },
  { name: 'comments of a streamer', path: `/api/comments?streamer_id=${streamerId}`, target: 1500 },
  { name: 'web page', path: '/', target: 3000 },
  { name: 'health', path: '/healthz', target: 3000 },
  {
    name: 'post a comment',
    path: '/api/comments',
    method: 'POST',
    body: JSON.stringify({ streamer_id: streamerId, body: 'benchmark comment' }),
    target: 200,
  },
];

const rows: string[] = [];
let failed = false;
for (const c of cases) {
  const r = await autocannon({
    url: base + c.path,
    method: c.method ?? 'GET',
    body: c.body,
    headers: c.body ? { 'content-type': 'application/json' } : {},
    connections: CONNECTIONS,
    duration: DURATION,
  });
  const rss = process.memoryUsage().rss / 2 ** 20;
  const ok = r.non2xx === 0 && r.errors === 0 && r.timeouts === 0 && r.requests.average >= c.target;
  if (!ok) failed = true;
  rows.push(
    `${c.name.padEnd(24)} ${r.requests.average.toFixed(0).padStart(7)} req/s  (target ${c.target}, ratio ${(r.requests.average / c.target).toFixed(2)})` +
      `  p50 ${r.latency.p50} ms  p99 ${r.latency.p99} ms  non-2xx ${r.non2xx}  errors ${r.errors}  timeouts ${r.timeouts}  rss ${rss.toFixed(0)} MiB  ${ok ? 'ok' : 'BELOW TARGET'}`,
  );
  console.log(rows.at(-1));
}

await app.close();
await db.destroy();
rmSync(dir, { recursive: true, force: true });
console.log(`\n${CONNECTIONS} connections, ${DURATION} s per case, SQLite, Node ${process.version}`);
console.log(rows.join('\n'));
process.exit(failed ? 1 : 0);
