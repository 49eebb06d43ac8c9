/** The printed result: one table per database, then notes and a legend. */

export interface Row {
  path: string;
  service: string;
  serviceP99: string;
  ceiling: string;
  ceilingP99: string;
  ratio: string;
  target: string;
  ok: boolean;
  /** A miss here makes the run exit non-zero. */
  enforced: boolean;
  /** Why a row missed beyond its figures (not compressed, no ETag, lost writes, ...). */
  notes: string[];
}

export const DASH = '—';

export function rps(value: number): string {
  return `${Math.round(value).toLocaleString('en-US')}`;
}

/** Milliseconds (autocannon's latencies have a resolution of 1 ms, wrk's of 1 µs). */
export function ms(value: number): string {
  if (value < 1) return '< 1 ms';
  if (value >= 1000) return `${(value / 1000).toFixed(2)} s`;
  return value < 10 ? `${value.toFixed(1)} ms` : `${Math.round(value)} ms`;
}

export function ratio(value: number): string {
  return `${value.toFixed(2)}x`;
}

function verdict(row: Row): string {
  if (row.ok) return 'ok';
  return row.enforced ? 'MISS' : 'miss*';
}

export function table(title: string, rows: readonly Row[]): string {
  const header = [
    'path',
    'service req/s',
    'service p99',
    'ceiling req/s',
    'ceiling p99',
    'ratio',
    'target',
    'ok/MISS',
  ];
  const cells = rows.map((r) => [
    r.path,
    r.service,
    r.serviceP99,
    r.ceiling,
    r.ceilingP99,
    r.ratio,
    r.target,
    verdict(r),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (c: string[]) => `| ${c.map((v, i) => v.padEnd(widths[i]!)).join(' | ')} |`;
  const out = [title, '', line(header), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`];
  out.push(...cells.map(line));
  const notes = rows.flatMap((r) => r.notes.map((n) => `  - ${r.path}: ${n}`));
  if (notes.length > 0) out.push('', 'Notes:', ...notes);
  return out.join('\n');
}

export const LEGEND = `What the figures mean:
  service req/s  answers with the expected status per second over the measured window (a warm-up
                 before it is not counted), from the load generator in its own process: wrk
                 (one thread) when installed, else autocannon, whose JavaScript HTTP parser is
                 then the limit on small answers (the generator is named below the table)
  p99            99th-percentile latency seen by the load generator
  ceiling        a bare Fastify process from this project's node_modules that gives the same answer
                 with the least work (the service's own bytes precomputed, those bytes brotli-
                 compressed, {ok:true}, one INSERT + fsync per request, inserts group-committed
                 every 2 ms), measured just before the service, in the same run, on the same machine
  ratio          service req/s / ceiling req/s; for the cold start, service time / ceiling time
  target         issue 9's goal; a MISS on SQLite makes the run exit 1, and so does a lost write on
                 either database; miss* is informative only (PostgreSQL, stretch goals)
  cold start     spawn of \`node dist/src/main.js\` on the existing database to its first 200 on
                 /healthz (median of 3); ceiling: bare Fastify + the same database driver
  peak RSS       VmHWM of the service processes from /proc/<pid>/status, the highest of the run
Absolute figures depend on the machine and on whatever else runs on it; compare the ratios.`;
