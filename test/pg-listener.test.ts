/**
 * The change listener (db/other-instances.ts) through an outage of its PostgreSQL: it said
 * every retry (every 10 s for as long as the outage lasted) and nothing when it listened
 * again, so the log never told whether other instances' changes reached this one again (an
 * operator's bad day). Now: the loss once, the retries quiet, the end once with the count.
 */
import { createServer, connect, type Socket } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { startApp } from './helpers/app.ts';
import { createMigratedDatabase, dbKind } from './helpers/database.ts';

describe.runIf(dbKind === 'postgres')('the change listener through an outage', () => {
  const sockets = new Set<Socket>();
  let refusing = false;
  let refused = 0;
  // A TCP relay to PostgreSQL that the test can cut: the listener's connection goes through it.
  const relay = createServer((client) => {
    if (refusing) {
      refused++;
      return void client.destroy();
    }
    const server = connect(5432, '127.0.0.1');
    for (const s of [client, server]) {
      sockets.add(s);
      s.on('error', () => undefined);
      s.on('close', () => (client.destroy(), server.destroy(), sockets.delete(s)));
    }
    client.pipe(server).pipe(client);
  });
  afterAll(() => relay.close());

  it('says the loss once, not each retry, and once that it listens again, with the failed tries', async () => {
    const url = new URL(process.env.TEST_DATABASE_URL ?? '');
    expect([url.hostname, url.port || '5432']).toEqual(['127.0.0.1', '5432']);
    await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
    const database = await createMigratedDatabase();
    const relayed = new URL(database.url);
    relayed.port = String((relay.address() as { port: number }).port);
    const t = await startApp({ DATABASE_URL: relayed.toString() }, { database });
    try {
      const said = (text: string) => t.logs.filter((l) => l.includes(text)).map((l) => JSON.parse(l));
      await expect.poll(() => sockets.size).toBeGreaterThan(0);
      // Its pauses are the app's clock's: each ends when the test moves the clock past it.
      t.clock.holdSleeps = true;
      let pause = t.clock.nextSleep();
      refusing = true;
      for (const s of sockets) s.destroy();
      // Three tries refused, each after a pause twice the one before: an outage of some seconds.
      for (const [tries, ms] of [
        [1, 500],
        [2, 1000],
        [3, 2000],
      ] as const) {
        expect(await pause).toBe(ms);
        pause = t.clock.nextSleep();
        t.clock.advance(ms);
        await expect.poll(() => refused).toBe(tries);
      }
      expect(await pause).toBe(4000);
      expect(said('change listener').map((l) => [l.level, l.msg])).toEqual([
        [40, 'change listener lost its connection; reconnecting'],
      ]);
      refusing = false;
      t.clock.advance(4000);
      await expect.poll(() => said('listens again').length).toBe(1);
      const [back] = said('listens again');
      expect([back.level, back.failures, back.msg]).toEqual([
        30,
        3,
        'change listener listens again after 3 failed tries',
      ]);
    } finally {
      await t.close();
      await database.cleanup();
    }
  });
});
