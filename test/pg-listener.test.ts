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

describe.runIf(dbKind === 'postgres')('the change listener through an outage', { timeout: 60_000 }, () => {
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
      await expect.poll(() => sockets.size, { timeout: 10_000 }).toBeGreaterThan(0);
      refusing = true;
      for (const s of sockets) s.destroy();
      // Its retries wait 0.5, 1 and 2 s of real time: three refused, an outage of some seconds.
      await expect.poll(() => refused, { timeout: 20_000, interval: 100 }).toBeGreaterThanOrEqual(3);
      expect(said('change listener').map((l) => [l.level, l.msg])).toEqual([
        [40, 'change listener lost its connection; reconnecting'],
      ]);
      refusing = false;
      await expect.poll(() => said('listens again').length, { timeout: 20_000, interval: 100 }).toBe(1);
      const [back] = said('listens again');
      expect([back.level, back.failures, back.msg]).toEqual([
        30,
        refused,
        `change listener listens again after ${refused} failed tries`,
      ]);
    } finally {
      await t.close();
      await database.cleanup();
    }
  });
});
