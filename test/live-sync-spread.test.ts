import { afterAll, expect, it } from 'vitest';
import { writeTransaction } from '../src/db/transaction.ts';
import { insertStreamer } from '../src/streamers/queries.ts';
import { LivePoller } from '../src/sync/poller.ts';
import { providerB } from '../src/sync/provider-b.ts';
import { useApp } from './helpers/app.ts';
import { startFakeLive } from './helpers/fake-live.ts';

/**
 * A round of live sync as it runs in the service, spread over its interval (sync/poller.ts):
 * its batches wait on the app's clock, so the test moves them, and a stop in the middle of a
 * wait ends the round there. (The other live-sync tests run rounds with `runOnce`, unspread.)
 */
const fake = await startFakeLive();
afterAll(() => fake.close());
const t = await useApp(fake.env());

it("a round's batches go out as the app's clock reaches each one's time; a stop ends the round in its wait", async () => {
  // 60 Kick channels: three batches of at most 25, due at 0, 800/3 and 1,600/3 ms of a 1-s interval.
  await writeTransaction(t.database, async (trx) => {
    for (let i = 0; i < 60; i++)
      await insertStreamer(trx, {
        name: `Spread ${i}`,
        platform: 'provider_b',
        kick_name: `spread${i}`,
        provider_a: '',
        added_by: 'admin',
        submitter: '',
        created_at: t.clock.now().toISOString(),
      });
  });
  t.clock.freeze();
  t.clock.holdSleeps = true;
  const poller = new LivePoller({
    database: t.database,
    clock: t.clock,
    log: t.app.log,
    providers: [providerB(t.app.config, t.clock)],
    intervalMs: 1000,
    random: () => 0,
  });
  const batches = () => fake.callsTo(fake.b, '/channels').length;

  let slept = t.clock.nextSleep();
  poller.start();
  // The first batch at once; the second waits for its time on the app's clock.
  expect(await slept).toBeCloseTo(800 / 3);
  expect(batches()).toBe(1);

  slept = t.clock.nextSleep();
  t.clock.advance(100);
  await new Promise(setImmediate);
  expect(batches()).toBe(1);
  t.clock.advance(167);
  // Due at 266.7 ms: out once the clock passed it, and the third waits for its own time.
  expect(await slept).toBeCloseTo(1600 / 3 - 267);
  expect(batches()).toBe(2);

  // Stopped in the third batch's wait: the round ends there, the wait cut short (moving the
  // clock past the third batch's time would otherwise send it).
  const stopping = poller.stop();
  t.clock.advance(1000);
  await stopping;
  expect(batches()).toBe(2);
  expect(fake.callsTo(fake.b, '/channels').flatMap((q) => q.getAll('slug'))).toHaveLength(50);
}, 30_000);
