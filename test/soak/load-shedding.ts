/**
 * Load shedding on the real event loop (docs/decisions.md "Overload"). The tests set the
 * delay load shedding reads (test/runtime.test.ts); here the service runs in its own process
 * and its loop is really held: SIGSTOP freezes the whole process for longer than
 * MAX_EVENT_LOOP_DELAY_MS. One freeze is a pause and never sheds; two in a row (the second
 * once the sample after the first is taken, and before the next one, 250 ms later) answer 503
 * with Retry-After, and once the loop runs freely again the service answers 200.
 *
 * A sample reads the loop's delay histogram, which misses a stall whose end the sampling
 * timer reaches first (the reset drops the histogram's pending measure; the sample then reads
 * the calm part before the stall): two freezes in a row are tried up to TRIES times.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { createDatabase } from './lib/database.ts';
import { Service } from '../helpers/service.ts';
import { Findings, isMain, runScript, type Verdict } from './lib/verdict.ts';

const LIMIT_MS = 100;
const FREEZE_MS = 3000;
const TRIES = 5;

/** Holds the process (and so its event loop) still for `ms`. */
async function freeze(service: Service, ms: number): Promise<void> {
  process.kill(service.pid, 'SIGSTOP');
  try {
    await sleep(ms);
  } finally {
    process.kill(service.pid, 'SIGCONT');
  }
}

/**
 * Two requests one after the other: the second is read in a later turn of the service's
 * event loop than the first, after that turn's timers, so a sample that was due (the one
 * after a freeze) has been taken.
 */
async function turnsOfTheLoop(service: Service): Promise<void> {
  for (let i = 0; i < 2; i++) await (await fetch(`${service.url}/healthz`)).arrayBuffer();
}

/** The statuses of requests sent one after the other for `ms`, with their Retry-After. */
async function statusesFor(service: Service, ms: number): Promise<string[]> {
  const seen: string[] = [];
  const until = performance.now() + ms;
  while (performance.now() < until) {
    const res = await fetch(`${service.url}/api/streamers`);
    await res.arrayBuffer();
    seen.push(res.status === 503 ? `503 retry-after ${res.headers.get('retry-after')}` : String(res.status));
    await sleep(20);
  }
  return seen;
}

export async function loadShedding(): Promise<Verdict> {
  const name = 'load-shedding';
  const findings = new Findings();
  const database = await createDatabase('sqlite');
  let service: Service | undefined;
  const summary: string[] = [];
  try {
    service = await Service.start({
      databaseUrl: database.url,
      name,
      env: { MAX_EVENT_LOOP_DELAY_MS: String(LIMIT_MS) },
    });
    // Calm samples first: the start's own work may have left one over the limit.
    await statusesFor(service, 1000);
    await freeze(service, FREEZE_MS);
    const single = await statusesFor(service, 1000);
    findings.check(
      single.every((s) => s === '200'),
      () => `after one freeze: ${[...new Set(single)].join(', ')} (a single pause must never shed)`,
    );
    let double: string[] = [];
    let shed: string[] = [];
    let tries = 0;
    while (shed.length === 0 && tries < TRIES) {
      tries++;
      await freeze(service, FREEZE_MS);
      await turnsOfTheLoop(service);
      await freeze(service, FREEZE_MS);
      double = await statusesFor(service, 1000);
      shed = double.filter((s) => s.startsWith('503'));
    }
    findings.check(shed.length > 0, `after two freezes in a row, ${TRIES} times: no 503`);
    findings.check(
      shed.every((s) => s === '503 retry-after 5'),
      () => `503 without Retry-After 5: ${[...new Set(shed)].join(', ')}`,
    );
    const calm = await statusesFor(service, 1000);
    findings.check(calm.at(-1) === '200', () => `once the loop is free: ${calm.at(-1)}`);
    findings.check(service.alive, () => `the server died: ${service!.describeExit()}`);
    const once = single.filter((s) => s !== '200').length;
    summary.push(
      `after one ${FREEZE_MS} ms freeze ${once} of ${single.length} requests not 200, after two ${shed.length} of ${double.length} shed (try ${tries})`,
    );
  } catch (err) {
    findings.crashed(err, service ? [service] : []);
  } finally {
    if (service?.alive) process.kill(service.pid, 'SIGCONT');
    await service?.stop();
    await database.cleanup();
  }
  return findings.verdict(name, `MAX_EVENT_LOOP_DELAY_MS=${LIMIT_MS}; ${summary.join('; ')}`);
}

if (isMain(import.meta.url)) await runScript('load-shedding', loadShedding);
