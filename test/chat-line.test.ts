import { describe, expect, it } from 'vitest';
import { startApp, useApp } from './helpers/app.ts';
import { R } from './helpers/streamers.ts';

/** DECISIONS.md "Fifth wave" → "A line for the chat": `GET /bot/<platform>/<channel>.txt`. */
const t = await useApp();
const admin = await t.admin();
const base = t.config.baseUrl;

const get = (path: string, headers: Record<string, string> = {}) => fetch(`${t.url}${path}`, { headers });

/** A rated streamer with these channels. */
async function streamer(name: string, body: Record<string, unknown>, r = R(5)): Promise<number> {
  const res = await admin.post('/api/streamers?admin=1', { name, ...body });
  expect(res.status).toBe(201);
  expect((await admin.put(`/api/streamers?id=${res.body.id}`, { r, ...body })).status).toBe(200);
  return res.body.id;
}

async function vote(streamerId: number, scores: number[]): Promise<void> {
  for (const score of scores) {
    const c = await t.signedIn(await t.user());
    expect((await c.put(`/api/votes?streamer_id=${streamerId}`, { score })).status).toBe(200);
  }
}

const lineOf = async (path: string) => {
  const res = await get(path);
  return [res.status, await res.text()];
};

describe('the line', () => {
  it('says the total, the audience score with its votes and the page, in Czech and with lang=en in English', async () => {
    const id = await streamer(
      'Pepa Novák',
      { platform: 'provider_a', provider_a: 'PepaN' },
      { ...R(5), s: 7 },
    );
    await vote(id, [8, 7]);
    const res = await get('/bot/twitch/pepan.txt');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    expect(await res.text()).toBe(
      `Pepa Novák: 37/70 · publikum 7.5/10 (2 hlasů) · ${base}/s/${id}-pepa-novak`,
    );
    expect(await lineOf('/bot/twitch/pepan.txt?lang=en')).toEqual([
      200,
      `Pepa Novák: 37/70 · audience 7.5/10 (2 votes) · ${base}/s/${id}-pepa-novak`,
    ]);
    // Any other language is the site's, Czech.
    expect((await lineOf('/bot/twitch/pepan.txt?lang=de'))[1]).toContain('publikum 7.5/10 (2 hlasů)');
  });

  it('without votes says so', async () => {
    const id = await streamer('Tichý', { platform: 'provider_b', kick_name: 'tichy' });
    expect(await lineOf('/bot/kick/tichy.txt')).toEqual([
      200,
      `Tichý: 35/70 · publikum bez hlasů · ${base}/s/${id}-tichy`,
    ]);
    expect(await lineOf('/bot/kick/tichy.txt?lang=en')).toEqual([
      200,
      `Tichý: 35/70 · audience no votes yet · ${base}/s/${id}-tichy`,
    ]);
  });

  it('has an ETag and 304, and follows a new rating or vote', async () => {
    const id = await streamer('Měnivý', { platform: 'provider_a', provider_a: 'menivy' });
    const first = await get('/bot/twitch/menivy.txt');
    const etag = first.headers.get('etag')!;
    expect(etag).toMatch(/^"/);
    expect((await get('/bot/twitch/menivy.txt', { 'if-none-match': etag })).status).toBe(304);
    await admin.put(`/api/streamers?id=${id}`, { r: R(6), provider_a: 'menivy' });
    const after = await get('/bot/twitch/menivy.txt', { 'if-none-match': etag });
    expect(after.status).toBe(200);
    expect(await after.text()).toMatch(/^Měnivý: 42\/70 · publikum bez hlasů · /);
    await vote(id, [3]);
    expect((await lineOf('/bot/twitch/menivy.txt'))[1]).toContain('· publikum 3/10 (1 hlasů) ·');
  });
});

describe('the channel', () => {
  it('is folded: letter case and white space around it do not matter', async () => {
    const id = await streamer('Folder', { platform: 'provider_a', provider_a: 'FoldMe' });
    for (const channel of ['foldme', 'FOLDME', 'FoldMe', '%20foldme%20']) {
      const [status, line] = await lineOf(`/bot/twitch/${channel}.txt`);
      expect([channel, status, String(line).startsWith('Folder: 35/70')]).toEqual([channel, 200, true]);
    }
    expect((await lineOf(`/bot/twitch/foldme.txt`))[1]).toContain(`/s/${id}-folder`);
  });

  it("is the streamer's name lower-cased without white space or diacritics when no login is stored", async () => {
    await streamer('Jirka Král', { platform: 'provider_a' });
    expect((await lineOf('/bot/twitch/jirkakral.txt'))[0]).toBe(200);
    expect((await lineOf('/bot/twitch/Jirka%20Kr%C3%A1l.txt'))[0]).toBe(404);
  });

  it("is the streamer's own platform's, and also a channel stored for the other platform", async () => {
    await streamer('Kicker', { platform: 'provider_b', kick_name: 'kickguy' });
    expect((await lineOf('/bot/kick/kickguy.txt'))[0]).toBe(200);
    expect((await lineOf('/bot/twitch/kickguy.txt'))[0]).toBe(404);
    // On Twitch, with its Kick channel stored too: found on both.
    await streamer('Both Ways', { platform: 'provider_a', provider_a: 'bothtw', kick_name: 'bothkick' });
    expect((await lineOf('/bot/twitch/bothtw.txt'))[1]).toMatch(/^Both Ways: /);
    expect((await lineOf('/bot/kick/bothkick.txt'))[1]).toMatch(/^Both Ways: /);
    // A streamer whose own platform has the channel wins over one that has it stored for the other.
    await streamer('Shared Twitch', { platform: 'provider_a', provider_a: 'shared', kick_name: 'shared' });
    await streamer('Shared Kick', { platform: 'provider_b', kick_name: 'shared' });
    expect((await lineOf('/bot/kick/shared.txt'))[1]).toMatch(/^Shared Kick: /);
    expect((await lineOf('/bot/twitch/shared.txt'))[1]).toMatch(/^Shared Twitch: /);
  });
});

describe('not found', () => {
  it('unknown, outside the Public view, another platform or not .txt: 404 with the line Streamer not found', async () => {
    const unrated = await admin.post('/api/streamers?admin=1', { name: 'Unrated', provider_a: 'unrated' });
    expect(unrated.status).toBe(201);
    const zeroed = await streamer('Zeroed', { platform: 'provider_a', provider_a: 'zeroed' });
    await admin.put(`/api/streamers?id=${zeroed}`, { r: R(0), provider_a: 'zeroed' });
    await streamer('Youtuber', { platform: 'provider_a', provider_a: 'youtuber' });
    for (const path of [
      '/bot/twitch/nobody-here.txt',
      '/bot/twitch/unrated.txt',
      '/bot/twitch/zeroed.txt',
      '/bot/youtube/youtuber.txt',
      '/bot/Twitch/youtuber.txt',
      '/bot/twitch/youtuber.json',
      '/bot/twitch/youtuber',
      '/bot/twitch/constructor.txt',
      '/bot/constructor/youtuber.txt',
      // Addresses no route can read: too long for the router, or not UTF-8 (a conformance sweep).
      `/bot/twitch/${'a'.repeat(150)}.txt`,
      `/bot/twitch/${'a'.repeat(200)}.txt`,
      `/bot/twitch/${'a'.repeat(2000)}.txt`,
      `/bot/${'t'.repeat(300)}/youtuber.txt`,
      '/bot/twitch/%ff.txt',
      '/bot/%ff/youtuber.txt',
      '/bot/twitch/you%tuber.txt',
    ]) {
      const res = await get(path);
      expect([path, res.status, res.headers.get('content-type'), await res.text()]).toEqual([
        path,
        404,
        'text/plain; charset=utf-8',
        'Streamer not found',
      ]);
    }
    expect((await lineOf('/bot/twitch/youtuber.txt'))[0]).toBe(200);
  });
});

describe('the length', () => {
  it('is at most 400 characters: a long name is cut so the address stays whole', async () => {
    const longBase = `https://${'a'.repeat(60)}.${'b'.repeat(60)}.${'c'.repeat(60)}.${'d'.repeat(60)}.example`;
    const o = await startApp({ BASE_URL: longBase });
    try {
      const oAdmin = await o.admin();
      const name = `Ž${'x'.repeat(98)}ý`;
      const id = (await oAdmin.post('/api/streamers?admin=1', { name, provider_a: 'longone' })).body.id;
      await oAdmin.put(`/api/streamers?id=${id}`, { r: R(5), provider_a: 'longone' });
      const line = await (await fetch(`${o.url}/bot/twitch/longone.txt`)).text();
      const address = `${longBase}/s/${id}-z${'x'.repeat(59)}`;
      expect([...line].length).toBe(400);
      expect(line.endsWith(`: 35/70 · publikum bez hlasů · ${address}`)).toBe(true);
      expect(line.startsWith('Žxxx')).toBe(true);
      expect(line).toContain('x…: 35/70');
      // A short name fits whole.
      const short = (await oAdmin.post('/api/streamers?admin=1', { name: 'Krátký', provider_a: 'kratky' }))
        .body.id;
      await oAdmin.put(`/api/streamers?id=${short}`, { r: R(5), provider_a: 'kratky' });
      const shortLine = await (await fetch(`${o.url}/bot/twitch/kratky.txt`)).text();
      expect(shortLine).toBe(`Krátký: 35/70 · publikum bez hlasů · ${longBase}/s/${short}-kratky`);
    } finally {
      await o.close();
    }
  });
});

describe('before routing', () => {
  it('answers a kept line as the route does, and follows a new channel at once', async () => {
    const fast = await startApp({}, { logLevel: 'warn' });
    try {
      const boss = await fast.admin();
      const created = await boss.post('/api/streamers?admin=1', {
        name: 'Rychlý',
        platform: 'provider_a',
        provider_a: 'rychly',
      });
      const id = created.body.id as number;
      expect((await boss.put(`/api/streamers?id=${id}`, { r: R(5), provider_a: 'rychly' })).status).toBe(200);
      const ask = async (path: string) => {
        const before = fast.app.earlyAnswers.served;
        const res = await fetch(fast.url + path);
        const headers = [...res.headers.entries()].filter(
          ([k]) => !['date', 'connection', 'keep-alive'].includes(k),
        );
        return {
          early: fast.app.earlyAnswers.served > before,
          status: res.status,
          headers,
          text: await res.text(),
        };
      };
      // The route makes the line; asked again, it is written before routing, alike.
      const routed = await ask('/bot/twitch/rychly.txt?lang=en');
      const early = await ask('/bot/twitch/rychly.txt?lang=en');
      expect([routed.early, early.early]).toEqual([false, true]);
      expect(early).toEqual({ ...routed, early: true });
      expect(early.text).toMatch(/^Rychlý: 35\/70 · audience no votes yet · /);
      expect((await ask('/bot/twitch/rychly.txt')).text).toContain('publikum bez hlasů');
      // Another channel: the old address is no longer this streamer's, the new one is.
      const moved = await boss.put(`/api/streamers?id=${id}`, { r: R(5), provider_a: 'novy_kanal' });
      expect(moved.status).toBe(200);
      // The new address's line is made again (under the same streamer and language) before
      // the old address is asked: the old one must not find it.
      for (let i = 0; i < 2; i++) {
        const now = await ask('/bot/twitch/novy_kanal.txt?lang=en');
        expect([now.early, now.text.startsWith('Rychlý: 35/70')]).toEqual([i > 0, true]);
        expect((await ask('/bot/twitch/rychly.txt?lang=en')).status).toBe(404);
      }
    } finally {
      await fast.close();
    }
  });
});
