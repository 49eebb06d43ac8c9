/**
 * `npm run bench:solver`: how long the page's challenge solver (web/src/lib/challenge.ts, the
 * very module the page loads) takes in Debian's chromium on challenges handed out by the
 * service, with the CPU slowed 4 times (CDP `Emulation.setCPUThrottlingRate`) to stand for a
 * mid-range phone. Each solution is posted back as a guest comment under `guest_challenge:
 * always` and must be accepted. Prints the median, p90 and slowest solve time and the maxnumber
 * in force (shared/rules.ts `CHALLENGE`), from which that figure is chosen (docs/benchmarks.md).
 *
 * Knobs: SOLVER_RUNS (challenges solved, default 40), SOLVER_THROTTLE (default 4).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { chromium } from 'playwright-core';
import { CHALLENGE } from '../src/shared/rules.ts';
import { ADMIN_PASSWORD, ROOT, Service } from '../test/helpers/service.ts';
import { ensureBuilt } from './build.ts';

const runs = Number(process.env.SOLVER_RUNS ?? 40);
const throttle = Number(process.env.SOLVER_THROTTLE ?? 4);

/** The page's solver as one script that puts `solve` on `window.pageSolver`. */
async function solverScript(): Promise<string> {
  const out = await build({
    entryPoints: [join(ROOT, 'web/src/lib/challenge.ts')],
    bundle: true,
    write: false,
    format: 'iife',
    globalName: 'pageSolver',
    platform: 'browser',
    target: 'es2022',
  });
  return out.outputFiles[0]!.text;
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

ensureBuilt((line) => console.log(`  ${line}`));
const dir = mkdtempSync(join(tmpdir(), 'bench-solver-'));
const service = await Service.start({
  name: 'service',
  from: 'dist',
  databaseUrl: `sqlite:${join(dir, 'bench.db')}`,
  cwd: dir,
  env: { ADMIN_PASSWORD, RATE_LIMIT: 'off' },
});
const base = `http://127.0.0.1:${service.port}`;
const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'],
});
try {
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: base },
    body: JSON.stringify({ password: ADMIN_PASSWORD }),
  });
  const cookie = login.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  const asAdmin = (path: string, method: string, body: object) =>
    fetch(`${base}${path}`, {
      method,
      headers: { 'content-type': 'application/json', origin: base, cookie },
      body: JSON.stringify(body),
    });
  await asAdmin('/api/settings', 'PUT', { guest_challenge: 'always' });
  const streamer = (await (await asAdmin('/api/streamers', 'POST', { name: 'Solver Stage' })).json()) as {
    id: number;
  };

  const page = await (await browser.newContext({ bypassCSP: true })).newPage();
  await page.goto(`${base}/healthz`); // a secure context (localhost) for crypto.subtle
  await page.addScriptTag({ content: await solverScript() });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: throttle });

  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const challenge = await (await fetch(`${base}/api/challenge`)).json();
    const { ms, altcha } = await page.evaluate(async (c) => {
      const solver = (window as unknown as { pageSolver: typeof import('../web/src/lib/challenge.ts') })
        .pageSolver;
      const started = performance.now();
      const altcha = await solver.solve(c, () => {});
      return { ms: performance.now() - started, altcha };
    }, challenge);
    const posted = await fetch(`${base}/api/comments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base },
      body: JSON.stringify({ streamer_id: streamer.id, body: `solved ${i}`, altcha }),
    });
    if (posted.status !== 201)
      throw new Error(`solution ${i} refused: ${posted.status} ${await posted.text()}`);
    times.push(ms);
  }
  times.sort((a, b) => a - b);
  const f = (ms: number) => `${Math.round(ms)} ms`;
  console.log(
    `page solver, chromium, CPU throttled ${throttle}x, maxnumber ${CHALLENGE.maxnumber}, ${runs} challenges: ` +
      `median ${f(percentile(times, 50))}, p90 ${f(percentile(times, 90))}, slowest ${f(times.at(-1)!)}`,
  );
} finally {
  await browser.close();
  await service.stop();
  rmSync(dir, { recursive: true, force: true });
}
