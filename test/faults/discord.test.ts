import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '../helpers/client.ts';
import { dbKind } from '../helpers/database.ts';
import { type FakeDiscord, startFakeDiscord } from '../helpers/fake-discord.ts';
import { createDatabase, type SoakDatabase } from '../soak/lib/database.ts';
import { ADMIN_PASSWORD, Service } from '../helpers/service.ts';

/**
 * Discord's outbox with real service processes (DECISIONS.md "Reaching out"; SECURITY.md 36):
 * several instances send each event once, and a service killed with events queued sends them
 * after its restart, still once, without sending again what was in flight when it died.
 */

let discord: FakeDiscord;
beforeAll(async () => {
  discord = await startFakeDiscord();
});
afterAll(() => discord.close());

const env = () => ({ DISCORD_API_URL: discord.apiUrl, DISCORD_TIMEOUT_MS: '2000' });

async function adminOf(service: Service): Promise<Client> {
  const admin = new Client(service.url);
  const res = await admin.post('/api/auth/login', { password: ADMIN_PASSWORD });
  if (res.status !== 200) throw new Error(`login failed: ${res.status}`);
  return admin;
}

const titles = (id: string) =>
  discord.delivered(id).map((p) => (p.body as { embeds: { title: string }[] }).embeds[0]?.title);

/**
 * One more suggestion, waited for until it reaches every webhook: the sender has looked at the
 * outbox again after what came before, so a second send of any of it would have gone out by
 * then (each webhook's messages go oldest first).
 */
async function lookedAgain(service: Service, name: string, hooks: { id: string }[]): Promise<void> {
  expect((await new Client(service.url).post('/api/streamers', { name })).status).toBe(201);
  for (const hook of hooks) {
    await expect.poll(() => titles(hook.id).includes(name), { timeout: 20_000, interval: 200 }).toBe(true);
  }
}

describe(`Discord with several service processes on one ${dbKind} database`, () => {
  let database: SoakDatabase;
  const services: Service[] = [];
  beforeAll(async () => {
    database = await createDatabase(dbKind);
  });
  afterAll(async () => {
    await Promise.all(services.map((s) => s.kill9()));
    await database.cleanup();
  });

  it('three instances: each event reaches each webhook once', async () => {
    const first = await Service.start({ databaseUrl: database.url, env: env() });
    services.push(first);
    services.push(
      ...(await Promise.all([1, 2].map(() => Service.start({ databaseUrl: database.url, env: env() })))),
    );
    const a = discord.webhook();
    const b = discord.webhook();
    const admin = await adminOf(first);
    expect(
      (await admin.put('/api/settings', { discord_webhooks: [{ url: a.url }, { url: b.url }] })).status,
    ).toBe(200);
    // Suggestions to every instance at once.
    const names = Array.from({ length: 9 }, (_, i) => `Fan Pick ${i}`);
    const answers = await Promise.all(
      names.map((name, i) => new Client(services[i % 3]!.url).post('/api/streamers', { name })),
    );
    expect(answers.map((r) => r.status)).toEqual(names.map(() => 201));
    for (const hook of [a, b]) {
      await expect.poll(() => titles(hook.id).length, { timeout: 20_000, interval: 200 }).toBe(9);
    }
    // The sender looks again, twice, through different instances: nothing arrives twice.
    for (const [i, service] of services.slice(1).entries()) {
      await lookedAgain(service, `Later Pick ${i}`, [a, b]);
    }
    const later = ['Later Pick 0', 'Later Pick 1'];
    for (const hook of [a, b]) expect(titles(hook.id).sort()).toEqual([...names, ...later].sort());
    expect(discord.posts.every((p) => p.status === 204)).toBe(true);
    await Promise.all(services.splice(0).map((s) => s.stop()));
  }, 120_000);

  it('killed with SIGKILL while a message is in flight and others are queued: after the restart the queued ones arrive once, the one in flight is not sent again', async () => {
    discord.reset();
    const service = await Service.start({ databaseUrl: database.url, env: env() });
    services.push(service);
    const hook = discord.webhook();
    const admin = await adminOf(service);
    await admin.put('/api/settings', { discord_webhooks: [{ url: hook.url, events: ['suggested'] }] });
    const [shown] = (await admin.get('/api/settings')).body.discord_webhooks as { id: number }[];
    // The test message goes first and Discord never answers it; the suggestions queue behind it.
    discord.script(hook.id, ['hang']);
    const test = await admin.post('/api/settings/discord/test', { id: shown!.id });
    expect(test.status).toBe(202);
    await expect.poll(() => discord.hanging(), { timeout: 10_000 }).toBe(1);
    const names = ['Queued One', 'Queued Two', 'Queued Three'];
    for (const name of names)
      expect((await new Client(service.url).post('/api/streamers', { name })).status).toBe(201);
    await service.kill9();
    expect(titles(hook.id)).toEqual([]);

    const again = await Service.start({ databaseUrl: database.url, port: service.port, env: env() });
    services.push(again);
    // The dead holder's lease expires first (10 s), then the queue is sent.
    await expect.poll(() => titles(hook.id).length, { timeout: 30_000, interval: 200 }).toBe(3);
    const admin2 = await adminOf(again);
    await expect
      .poll(
        async () =>
          (await admin2.get(`/api/settings/discord/test?delivery_id=${test.body.delivery_id}`)).body.state,
        {
          timeout: 30_000,
        },
      )
      .toBe('unknown');
    // The sender looks again: the message that hung is not sent again.
    await lookedAgain(again, 'Later One', [hook]);
    expect(titles(hook.id)).toEqual([...names, 'Later One']);
    // One post of the test message (the one that hung), none after the restart.
    expect(discord.posts.filter((p) => p.id === hook.id).map((p) => p.status)).toEqual([
      0, 204, 204, 204, 204,
    ]);
    await again.stop();
  }, 120_000);
});
