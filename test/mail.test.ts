import { afterAll, beforeEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { OutboxDeliverer } from '../src/delivery/deliverer.ts';
import { BUSY_REQUESTS_PER_SECOND } from '../src/lib/traffic.ts';
import { MAIL_GIVE_WAY_PER_SECOND } from '../src/mail/sender.ts';
import { startApp, type TestApp, useApp } from './helpers/app.ts';
import type { Client } from './helpers/client.ts';
import { startStream } from './helpers/live-start.ts';
import { writeTransaction } from '../src/db/transaction.ts';
import { streamerPath } from '../src/shared/rules.ts';
import { quoteOf } from '../src/mail/compose.ts';
import { DIGEST_BATCH, queueDigestBatch } from '../src/mail/digest.ts';
import { MAIL_LIMITS } from '../src/shared/mail.ts';
import { digestSlot } from '../src/mail/schedule.ts';
import { WORDS } from '../src/mail/words.ts';
import { ICON_LINK } from '../src/shared/site.ts';
import { decodeWords, type Received, startFakeSmtp } from './helpers/fake-smtp.ts';

// DECISIONS.md "Fifth wave" → "E-mail", against a real SMTP server on 127.0.0.1.
const smtp = await startFakeSmtp();
afterAll(() => smtp.close());
const MAIL_ENV = { SMTP_URL: smtp.url, MAIL_FROM: 'Hodnocení <noreply@example.org>', TZ: 'Europe/Prague' };
const t = await useApp(MAIL_ENV);
t.clock.freeze();
/** The administrator, signed in now (the tests move the clock past a session's life). */
const admin = () => t.admin();
const MINUTE = 60_000;

beforeEach(() => smtp.reset());

let seq = 0;
const person = async (opts: { banned?: boolean } = {}) => {
  const n = ++seq;
  const user = await t.user({ login: `mail${process.pid}x${n}`, display_name: `Mailer ${n}` }, opts);
  return { user, c: await t.signedIn(user), address: `m${n}.${process.pid}@example.org` };
};

/** Runs the senders as their timer would, the clock moved a second at a time, until `done`. */
async function until(done: () => boolean | Promise<boolean>, apps: TestApp[] = [t], limitMs = 20 * MINUTE) {
  for (let elapsed = 0; ; elapsed += 1000) {
    for (const a of apps) await a.app.mail!.look();
    for (const a of apps) await a.app.mail!.idle();
    if (await done()) return;
    if (elapsed >= limitMs) throw new Error('not done in time on the clock');
    for (const a of apps) a.clock.advance(elapsed < 10_000 ? 1000 : 15_000);
  }
}

/** A few more rounds, so that a second send would have happened. */
/**
 * Only the test's looks from now on, not the instance's timer (which, 31 s behind another
 * instance's clock, would share out that instance's rows). Returns the timer's looks.
 */
async function stopTheTimersLooks(): Promise<() => void> {
  await t.app.mail!.look();
  await t.app.mail!.idle();
  const timer = vi.spyOn(t.app.mail!, 'look').mockResolvedValue();
  onTestFinished(() => timer.mockRestore());
  return () => timer.mockRestore();
}

async function settle(apps: TestApp[] = [t]) {
  for (let i = 0; i < 3; i++) {
    for (const a of apps) await a.app.mail!.look();
    for (const a of apps) await a.app.mail!.idle();
  }
}

const linkIn = (m: Received, path: string) => {
  const found = new RegExp(`https?://[^\\s"<>]+(${path.replace('?', '\\?')}[^\\s"<>]+)`).exec(m.text);
  if (!found) throw new Error(`no ${path} link in ${m.text}`);
  return found[1]!.replace(/&amp;/g, '&');
};
const unsubscribeOf = (m: Received) => {
  const header = /^<([^>]+)>$/.exec(m.headers['list-unsubscribe'] ?? '');
  if (!header) throw new Error('no List-Unsubscribe');
  const u = new URL(header[1]!);
  return u.pathname + u.search;
};

/** Gives the user a confirmed address (and empties the fake's inbox). */
async function confirmed(p: Awaited<ReturnType<typeof person>>, lang?: 'cs' | 'en') {
  expect((await p.c.put('/api/account/email', { email: p.address, ...(lang ? { lang } : {}) })).status).toBe(
    200,
  );
  await until(() => smtp.to(p.address).length === 1);
  const res = await t.client().get(linkIn(smtp.to(p.address)[0]!, '/api/account/email/confirm?token='));
  expect(res.status).toBe(200);
  smtp.reset();
}

const me = async (c: Client) => (await c.get('/api/oauth/me')).body;

describe('the address and its confirmation', () => {
  it('the pages are told the site sends e-mail (GET /api/settings/operator: mail true), to anyone', async () => {
    expect((await t.client().get('/api/settings/operator')).body).toMatchObject({ mail: true });
  });

  it('a confirmation message with a link valid 24 hours; the address is used once confirmed; the link works once', async () => {
    const p = await person();
    expect(await me(p.c)).toMatchObject({ email: null, email_pending: false });
    const res = await p.c.put('/api/account/email', { email: p.address, lang: 'en' });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect(await me(p.c)).toMatchObject({ email: null, email_pending: true });
    await until(() => smtp.to(p.address).length === 1);
    const m = smtp.to(p.address)[0]!;
    expect(m.contentType).toBe('multipart/alternative');
    expect(m.parts.map((x) => x.contentType)).toEqual(['text/plain', 'text/html']);
    expect(decodeWords(m.headers.subject!)).toBe('Confirm your e-mail address');
    expect(m.headers['list-unsubscribe']).toMatch(
      /^<http:\/\/localhost:\d+\/api\/mail\/unsubscribe\?token=[\w-]+>$/,
    );
    expect(m.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    // Dark mode: the message says it has both schemes, and the dark one swaps background and text.
    expect(m.html).toContain('<meta name="color-scheme" content="light dark">');
    expect(m.html).toMatch(
      /@media \(prefers-color-scheme:dark\)\{body,\.c\{background:#[0-9a-f]{6}!important;color:#[0-9a-f]{6}!important\}/,
    );
    const link = linkIn(m, '/api/account/email/confirm?token=');
    // The link right after the sentence that asks for it; the footer says why this address got it
    // (someone typed it), in the reader's language with the site's name in it.
    const text = m.text.split(/\r?\n/);
    const asks = text.findIndex((l) => l.startsWith('This address was entered in an account.'));
    expect(text[asks + 2]).toMatch(
      /^Confirm the address: http:\/\/localhost:\d+\/api\/account\/email\/confirm\?token=/,
    );
    expect(text[asks + 4]).toBe('The link works for 24 hours.');
    expect(m.text).toContain(
      'You get this message because this address was entered in an account on this site.',
    );
    expect(m.text).not.toContain('you chose it');
    expect(m.text).toContain('Streamer rating · http://localhost:');
    expect(m.html).not.toContain('<li');
    const token = new URL(link, 'http://x').searchParams.get('token')!;
    // Stored as a digest only.
    const stored = await t.db
      .selectFrom('mail_tokens')
      .select('token_hash')
      .where('user_id', '=', p.user.id)
      .execute();
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.map((s) => s.token_hash)).not.toContain(token);
    const page = await t.client().get(link);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.text).toContain('Address confirmed');
    expect(page.text).toContain(ICON_LINK);
    expect(await me(p.c)).toMatchObject({ email: p.address, email_pending: false });
    const again = await t.client().get(link);
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ error: 'Invalid or expired link', code: 'invalid_link' });
    // The same address set again: the used link still does not confirm it.
    expect((await p.c.put('/api/account/email', { email: p.address })).status).toBe(200);
    expect((await t.client().get(link)).status).toBe(400);
    expect(await me(p.c)).toMatchObject({ email: p.address, email_pending: true });
  });

  it('a link older than 24 hours, or an unknown one: 400 Invalid or expired link, nothing confirmed', async () => {
    const p = await person();
    await p.c.put('/api/account/email', { email: p.address });
    await until(() => smtp.to(p.address).length === 1);
    const link = linkIn(smtp.to(p.address)[0]!, '/api/account/email/confirm?token=');
    t.clock.advance(24 * 60 * MINUTE + 1000);
    for (const l of [link, '/api/account/email/confirm?token=nope', '/api/account/email/confirm']) {
      const res = await t.client().get(l);
      expect(res.status, l).toBe(400);
      expect(res.body.code).toBe('invalid_link');
    }
    expect(await me(p.c)).toMatchObject({ email: null, email_pending: true });
    // Opened in a browser (a mail scanner may have used it first): the same 400 as a page that says
    // where to go, in the reader's language; the one-click unsubscription's page alike.
    const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
    const page = await t.client().get(link, { headers: { ...html, 'accept-language': 'en-GB,en;q=0.9' } });
    expect(page.status).toBe(400);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('cache-control')).toBe('no-store');
    expect(page.text).toContain('This link no longer works');
    expect(page.text).toContain('href="/your-data"');
    const cs = await t.client().get('/api/mail/unsubscribe?token=nope', { headers: html });
    expect(cs.status).toBe(400);
    expect(cs.text).toContain('Odkaz už neplatí');
    const posted = await t.client().post('/api/mail/unsubscribe?token=nope', {}, { headers: html });
    expect(posted.status).toBe(400);
    expect(posted.text).toContain('Odkaz už neplatí');
  });

  it('an address that is not one: 400 Invalid e-mail address, nothing stored or sent', async () => {
    const p = await person();
    const bad = [
      'plain',
      'two@at@example.org',
      'nodot@example',
      '@example.org',
      'a@.org',
      'a@example.org.',
      `${'a'.repeat(290)}@example.org`,
      'a@example.org\r\nBcc: victim@example.org',
      'a@example.org\nSubject: hi',
      'Evil <a@example.org>',
      'a b@example.org',
      'a@example.org, b@example.org',
      '',
      42,
      true,
    ];
    for (const email of bad) {
      const res = await p.c.put('/api/account/email', { email });
      expect(res.status, String(email)).toBe(400);
      expect(res.body).toEqual({ error: 'Invalid e-mail address', code: 'invalid_email' });
    }
    expect((await p.c.put('/api/account/email', {})).body.code).toBe('invalid_email');
    await settle();
    expect(smtp.messages).toHaveLength(0);
    expect(await me(p.c)).toMatchObject({ email: null, email_pending: false });
  });

  it('at most 5 confirmation messages per user in a day, then 429 Too many requests; the next day again', async () => {
    const p = await person();
    for (let i = 0; i < 5; i++) {
      expect((await p.c.put('/api/account/email', { email: `n${i}.${p.address}` })).status).toBe(200);
      await until(() => smtp.to(`n${i}.${p.address}`).length === 1);
    }
    const sixth = await p.c.put('/api/account/email', { email: p.address });
    expect(sixth.status).toBe(429);
    expect(sixth.body).toEqual({ error: 'Too many requests', code: 'too_many_requests' });
    await settle();
    expect(smtp.messages.filter((m) => m.to[0]!.endsWith(p.address))).toHaveLength(5);
    expect(await me(p.c)).toMatchObject({ email_pending: true });
    t.clock.advance(23 * 60 * MINUTE);
    expect((await p.c.put('/api/account/email', { email: p.address })).status).toBe(429);
    t.clock.advance(60 * MINUTE + 1000);
    expect((await p.c.put('/api/account/email', { email: p.address })).status).toBe(200);
  });

  it('a newer confirmation makes the older link useless; {email: null} removes the address', async () => {
    const p = await person();
    await p.c.put('/api/account/email', { email: `old.${p.address}` });
    await until(() => smtp.to(`old.${p.address}`).length === 1);
    await p.c.put('/api/account/email', { email: p.address });
    await until(() => smtp.to(p.address).length === 1);
    const old = await t
      .client()
      .get(linkIn(smtp.to(`old.${p.address}`)[0]!, '/api/account/email/confirm?token='));
    expect(old.status).toBe(400);
    expect(
      (await t.client().get(linkIn(smtp.to(p.address)[0]!, '/api/account/email/confirm?token='))).status,
    ).toBe(200);
    expect((await p.c.put('/api/account/email', { email: null })).body).toEqual({ ok: true });
    expect(await me(p.c)).toMatchObject({ email: null, email_pending: false });
  });

  it("a confirmation's unsubscribe link drops the address it went to, not one asked for since", async () => {
    const p = await person();
    await p.c.put('/api/account/email', { email: `first.${p.address}` });
    await until(() => smtp.to(`first.${p.address}`).length === 1);
    const first = smtp.to(`first.${p.address}`)[0]!;
    expect((await t.client().get(linkIn(first, '/api/account/email/confirm?token='))).status).toBe(200);
    await p.c.put('/api/account/email', { email: p.address });
    await until(() => smtp.to(p.address).length === 1);
    expect((await t.client().post(unsubscribeOf(first))).body).toEqual({ ok: true });
    expect(await me(p.c)).toMatchObject({ email: `first.${p.address}`, email_pending: true });
    expect((await t.client().post(unsubscribeOf(smtp.to(p.address)[0]!))).body).toEqual({ ok: true });
    expect(await me(p.c)).toMatchObject({ email: `first.${p.address}`, email_pending: false });
  });

  it('anonymous 401; banned 403 Účet je zablokován; timed out 403 Účet je dočasně omezen; nothing changes', async () => {
    const anon = t.client();
    expect((await anon.put('/api/account/email', { email: 'a@example.org' })).status).toBe(401);
    expect((await anon.put('/api/account/mail', { kinds: ['reply'] })).status).toBe(401);
    expect((await anon.get('/api/account/mail')).status).toBe(401);
    const banned = await person({ banned: true });
    for (const [path, body] of [
      ['/api/account/email', { email: banned.address }],
      ['/api/account/mail', { kinds: ['reply'], digest: 'weekly' }],
    ] as const) {
      const res = await banned.c.put(path, body);
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ error: 'Účet je zablokován', code: 'banned' });
    }
    const late = await person();
    await (await admin()).put(`/api/users?id=${late.user.id}`, { timeout_hours: 1 });
    for (const [path, body] of [
      ['/api/account/email', { email: late.address }],
      ['/api/account/mail', { kinds: ['reply'], digest: 'weekly' }],
    ] as const) {
      const res = await late.c.put(path, body);
      expect(res.status).toBe(403);
      expect(res.body).toMatchObject({ error: 'Účet je dočasně omezen', code: 'timed_out' });
    }
    await settle();
    expect(smtp.messages).toHaveLength(0);
    const rows = await t.db
      .selectFrom('mail_settings')
      .selectAll()
      .where('user_id', 'in', [banned.user.id, late.user.id])
      .execute();
    expect(rows).toEqual([]);
  });
});

describe('what is mailed', () => {
  it('GET answers the default {kinds: [], digest: "off"}; PUT keeps a valid choice; bad ones: 400, nothing changes', async () => {
    const p = await person();
    expect((await p.c.get('/api/account/mail')).body).toEqual({ kinds: [], digest: 'off' });
    expect(
      (await p.c.put('/api/account/mail', { kinds: ['rated', 'reply'], digest: 'weekly' })).body,
    ).toEqual({ ok: true });
    expect((await p.c.get('/api/account/mail')).body).toEqual({
      kinds: ['reply', 'rated'],
      digest: 'weekly',
    });
    for (const body of [
      { kinds: ['like'] },
      { kinds: 'reply' },
      { kinds: [1] },
      { digest: 'daily' },
      { digest: 1 },
    ]) {
      const res = await p.c.put('/api/account/mail', body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.code).toBe('invalid_field');
    }
    expect((await p.c.get('/api/account/mail')).body).toEqual({
      kinds: ['reply', 'rated'],
      digest: 'weekly',
    });
  });

  it('a reply: one well-formed message in the user’s language; more within 10 minutes are gathered into the next', async () => {
    const sid = await t.streamer(`Mail streamer ${process.pid}`);
    const p = await person();
    await confirmed(p, 'en');
    await p.c.put('/api/account/mail', { kinds: ['reply'], digest: 'off' });
    const other = await person();
    const top = (await p.c.post('/api/comments', { streamer_id: sid, body: 'my comment here' })).body
      .id as number;
    const replied = await other.c.post('/api/comments', {
      streamer_id: sid,
      body: 'an answer <b>',
      reply_to: top,
    });
    expect(replied.status).toBe(201);
    await until(() => smtp.to(p.address).length === 1);
    const first = smtp.to(p.address)[0]!;
    expect(first.contentType).toBe('multipart/alternative');
    expect(decodeWords(first.headers.subject!)).toBe(
      `Mailer ${seq} replied to you on Mail streamer ${process.pid}.`,
    );
    expect(first.text).toContain(`#c${replied.body.id}`);
    // The reply's words are quoted under its line, escaped in the HTML.
    expect(first.text).toContain(`#c${replied.body.id}\r\n  > an answer <b>\r\n`);
    expect(first.html).toMatch(/<blockquote class="q"[^>]*>an answer &lt;b&gt;<\/blockquote>/);
    expect(first.headers['list-unsubscribe-post']).toBe('List-Unsubscribe=One-Click');
    // Two more replies within the quiet 10 minutes: nothing until they pass, then one message with both.
    await other.c.post('/api/comments', { streamer_id: sid, body: 'second answer', reply_to: top });
    await other.c.post('/api/comments', { streamer_id: sid, body: 'third answer', reply_to: top });
    for (let i = 0; i < 5; i++) {
      await t.app.mail!.look();
      await t.app.mail!.idle();
      t.clock.advance(MINUTE);
    }
    expect(smtp.to(p.address)).toHaveLength(1);
    await until(() => smtp.to(p.address).length === 2);
    const second = smtp.to(p.address)[1]!;
    expect(decodeWords(second.headers.subject!)).toBe('2 updates from the ranking');
    // Czech counts in three forms (1 novinka, 2-4 novinky, 5 and more novinek).
    expect([2, 4, 5, 11, 22].map((n) => WORDS.cs.kindsSubject(n))).toEqual([
      '2 novinky ze žebříčku',
      '4 novinky ze žebříčku',
      '5 novinek ze žebříčku',
      '11 novinek ze žebříčku',
      '22 novinek ze žebříčku',
    ]);
    t.clock.advance(30 * MINUTE);
    await settle();
    expect(smtp.to(p.address)).toHaveLength(2);
  });

  it('a long reply is quoted on one line, cut at a word within 200 characters, with an ellipsis', () => {
    const words = 'slovo '.repeat(60);
    const quoted = quoteOf(`první\n\n  ${words}`);
    expect(quoted).toMatch(/^první slovo( slovo)+…$/);
    expect([...quoted].length).toBeLessThanOrEqual(MAIL_LIMITS.quoteMax + 1);
    expect([...quoted].length).toBeGreaterThan(MAIL_LIMITS.quoteMax - 7);
    // Letters outside the BMP count as one; a short comment is kept whole.
    expect(quoteOf('😀'.repeat(MAIL_LIMITS.quoteMax))).toBe('😀'.repeat(MAIL_LIMITS.quoteMax));
    expect(quoteOf(' krátká  odpověď ')).toBe('krátká odpověď');
  });

  it('live, mention and rated: one message each to whoever chose the kind, linking to what happened', async () => {
    const rating = { s: 5, g: 5, a: 5, v: 5, n: 5, ns: 5, o: 5 };
    const channel = `mailrated${process.pid}x${++seq}`;
    const name = `Mail live ${seq}`;
    const created = await (
      await admin()
    ).post('/api/streamers?admin=1', {
      name,
      platform: 'provider_a',
      provider_a: channel,
    });
    expect(created.status, created.text).toBe(201);
    const sid = created.body.id as number;
    const fan = await person();
    const named = await person();
    const bystander = await person();
    const voiceUser = await t.user({ provider: 'provider_a', login: channel });
    const voice = {
      user: voiceUser,
      c: await t.signedIn(voiceUser),
      address: `v${seq}.${process.pid}@example.org`,
    };
    const chosen: [typeof fan, string[]][] = [
      [fan, ['live']],
      [named, ['mention']],
      [voice, ['rated']],
      // Follows the streamer and is named, but chose the other kinds.
      [bystander, ['reply']],
    ];
    for (const [p, kinds] of chosen) {
      await confirmed(p, 'en');
      expect((await p.c.put('/api/account/mail', { kinds, digest: 'off' })).status).toBe(200);
    }
    // Rated: into the Public view, where it can be followed.
    expect((await (await admin()).put(`/api/streamers?id=${sid}`, { r: rating })).status).toBe(200);
    for (const p of [fan, bystander]) {
      expect((await p.c.put(`/api/follows?streamer_id=${sid}`, { follow: true })).status).toBe(200);
    }
    await startStream(t, sid);
    const other = await person();
    const said = await other.c.post('/api/comments', {
      streamer_id: sid,
      body: `hello @${named.user.login} and @${bystander.user.login}`,
    });
    expect(said.status, said.text).toBe(201);
    await until(() => [fan, named, voice].every((p) => smtp.to(p.address).length === 1));
    /** The subject, and the links to the site in the plain text. */
    const subjectAndLinks = (p: typeof fan) => {
      const m = smtp.to(p.address)[0]!;
      const links = [...m.text.matchAll(/https?:\/\/\S+/g)].map((l) => l[0]);
      return [decodeWords(m.headers.subject!), links.filter((l) => l.startsWith(t.config.baseUrl + '/s/'))];
    };
    const url = t.config.baseUrl + streamerPath(sid, name);
    expect(subjectAndLinks(fan)).toEqual([`${name} is live now.`, [url]]);
    expect(subjectAndLinks(named)).toEqual([
      `${other.user.display_name} mentioned you on ${name}.`,
      [`${url}#c${said.body.id}`],
    ]);
    expect(subjectAndLinks(voice)).toEqual([`${name} has a new rating.`, [url]]);
    t.clock.advance(30 * MINUTE);
    await settle();
    expect([fan, named, voice, bystander].map((p) => smtp.to(p.address).length)).toEqual([1, 1, 1, 0]);
  });

  it('kinds not chosen, or no confirmed address: nothing is mailed', async () => {
    const sid = await t.streamer();
    const p = await person();
    await confirmed(p);
    await p.c.put('/api/account/mail', { kinds: ['mention'], digest: 'off' });
    const q = await person();
    await q.c.put('/api/account/mail', { kinds: ['reply'], digest: 'off' });
    const other = await person();
    for (const x of [p, q]) {
      const top = (await x.c.post('/api/comments', { streamer_id: sid, body: 'a comment' })).body
        .id as number;
      await other.c.post('/api/comments', { streamer_id: sid, body: 'reply', reply_to: top });
    }
    await settle();
    t.clock.advance(11 * MINUTE);
    await settle();
    expect(smtp.messages).toHaveLength(0);
  });

  it('one click: POST to List-Unsubscribe with no session and a foreign origin turns that kind off; GET shows a button', async () => {
    const sid = await t.streamer();
    const p = await person();
    await confirmed(p);
    await p.c.put('/api/account/mail', { kinds: ['reply', 'live'], digest: 'weekly' });
    const other = await person();
    const top = (await p.c.post('/api/comments', { streamer_id: sid, body: 'a comment' })).body.id as number;
    await other.c.post('/api/comments', { streamer_id: sid, body: 'reply', reply_to: top });
    await until(() => smtp.to(p.address).length === 1);
    const target = unsubscribeOf(smtp.to(p.address)[0]!);
    const page = await t.client().get(target);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    // The page names what its button stops: the kinds its message told of.
    expect(page.text).toContain('<p>Přestat posílat tyto zprávy: odpovědi?</p>');
    expect(page.text).toMatch(
      /<form method="post" action="\/api\/mail\/unsubscribe\?token=[^"]+"><input[^>]*><button type="submit">Odhlásit<\/button>/,
    );
    const mailer = t.client({ origin: 'https://mail.example.net', 'sec-fetch-site': 'cross-site' });
    const res = await mailer.request('POST', target, { form: { 'List-Unsubscribe': 'One-Click' } });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ ok: true });
    expect((await p.c.get('/api/account/mail')).body).toEqual({ kinds: ['live'], digest: 'weekly' });
    expect(
      (await mailer.request('POST', target, { form: { 'List-Unsubscribe': 'One-Click' } })).body,
    ).toEqual({ ok: true });
    // RFC 8058 3.1: the body SHOULD be multipart/form-data (how Gmail and Yahoo send it).
    await p.c.put('/api/account/mail', { kinds: ['reply', 'live'], digest: 'weekly' });
    const boundary = '----oneclick7MA4YWxkTrZu0gW';
    const multipart = await mailer.request('POST', target, {
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body:
        `--${boundary}\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\n` +
        `One-Click\r\n--${boundary}--\r\n`,
    });
    expect(multipart.status, multipart.text).toBe(200);
    expect(multipart.body).toEqual({ ok: true });
    expect((await p.c.get('/api/account/mail')).body).toEqual({ kinds: ['live'], digest: 'weekly' });
    // Other routes still take only JSON and forms.
    const elsewhere = await p.c.request('PUT', '/api/account/mail', {
      headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: `--${boundary}--\r\n`,
    });
    expect(elsewhere.status).toBe(415);
    for (const bad of ['/api/mail/unsubscribe?token=nope', '/api/mail/unsubscribe']) {
      const r = await mailer.post(bad);
      expect(r.status).toBe(400);
      expect(r.body).toEqual({ error: 'Invalid or expired link', code: 'invalid_link' });
      expect((await t.client().get(bad)).status).toBe(400);
    }
  });
});

/** Moves the frozen clock to `iso`. */
function clockAt(iso: string) {
  const to = Date.parse(iso);
  expect(to).toBeGreaterThanOrEqual(t.clock.now().getTime());
  t.clock.advance(to - t.clock.now().getTime());
}

/**
 * A digest slot `days` on, the clock two days before it, a reader of the weekly digest (in
 * English) and a rated streamer named `name` (in the Public view, its rating the week's).
 */
async function weekAhead(days: number, name: string) {
  const slot = digestSlot(new Date(t.clock.now().getTime() + days * 24 * 60 * MINUTE), 'Europe/Prague');
  clockAt(new Date(slot.getTime() - 2 * 24 * 60 * MINUTE).toISOString());
  const reader = await person();
  await confirmed(reader, 'en');
  await reader.c.put('/api/account/mail', { kinds: [], digest: 'weekly' });
  const staff = await admin();
  const sid = (await staff.post('/api/streamers?admin=1', { name: `${name} ${process.pid}` })).body
    .id as number;
  await staff.put(`/api/streamers?id=${sid}`, { r: { s: 5, g: 5, a: 5, v: 5, n: 5, ns: 5, o: 5 } });
  return { slot, reader, sid };
}

describe('the weekly digest', () => {
  it('Monday 08:00 in TZ: the week’s new ratings, followed streamers’ streams and replies; once; nothing for an empty week', async () => {
    // A Monday a year on: Europe/Prague is UTC+1 in December, so 08:00 there is 07:00Z.
    const base = new Date(t.clock.now().getTime() + 365 * 24 * 60 * MINUTE);
    const monday = new Date(Date.UTC(base.getUTCFullYear(), base.getUTCMonth(), base.getUTCDate()));
    while (monday.getUTCDay() !== 1 || monday.getUTCMonth() < 10 || monday.getUTCMonth() > 11) {
      monday.setUTCDate(monday.getUTCDate() + 1);
    }
    const slot = new Date(monday.getTime() + 7 * 60 * MINUTE);
    clockAt(new Date(slot.getTime() - 3 * 24 * 60 * MINUTE).toISOString());
    const p = await person();
    await confirmed(p, 'en');
    await p.c.put('/api/account/mail', { kinds: [], digest: 'weekly' });
    const quiet = await person();
    await confirmed(quiet);
    const staff = await admin();
    const sid = (await staff.post('/api/streamers?admin=1', { name: `Digest streamer ${process.pid}` })).body
      .id as number;
    const rated = await staff.put(`/api/streamers?id=${sid}`, {
      r: { s: 5, g: 5, a: 5, v: 5, n: 5, ns: 5, o: 5 },
    });
    expect(rated.status, rated.text).toBe(200);
    await settle();
    clockAt(new Date(slot.getTime() - MINUTE).toISOString());
    await settle();
    expect(smtp.messages).toHaveLength(0);
    clockAt(slot.toISOString());
    await until(() => smtp.to(p.address).length === 1);
    const digest = smtp.to(p.address)[0]!;
    expect(decodeWords(digest.headers.subject!)).toBe('Your week in the ranking');
    expect(digest.contentType).toBe('multipart/alternative');
    expect(digest.text).toContain('New ratings');
    expect(digest.text).toContain(`Digest streamer ${process.pid}: 35/70`);
    // The week's days as Intl's British medium date writes them (mail/words.ts writes them itself).
    const day = (d: Date) =>
      new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' }).format(d);
    const weekBefore = new Date(slot.getTime() - 7 * 24 * 60 * MINUTE);
    expect(digest.text).toContain(`What happened from ${day(weekBefore)} to ${day(slot)}:`);
    // The zone those days are in is said (TZ: the test's service runs in Europe/Prague).
    expect(digest.text).toContain('Days are given in the Europe/Prague time zone.');
    expect(digest.html).toContain('Days are given in the Europe/Prague time zone.');
    expect(unsubscribeOf(digest)).toMatch(/^\/api\/mail\/unsubscribe\?token=/);
    t.clock.advance(60 * MINUTE);
    await settle();
    expect(smtp.to(p.address)).toHaveLength(1);
    expect(smtp.to(quiet.address)).toHaveLength(0);
    const sent = smtp.messages.length;
    // The next week has nothing new: nothing is sent.
    clockAt(new Date(slot.getTime() + 7 * 24 * 60 * MINUTE).toISOString());
    await settle();
    expect(smtp.messages).toHaveLength(sent);
    // One click turns the digest off.
    const res = await t.client().post(unsubscribeOf(digest));
    expect(res.body).toEqual({ ok: true });
    expect((await p.c.get('/api/account/mail')).body).toEqual({ kinds: [], digest: 'off' });
  });

  it('each reader’s own week: streams of the streamers they follow, replies to them, at most 20 of each', async () => {
    // A slot two years on, past the test above's.
    const slot = digestSlot(new Date(t.clock.now().getTime() + 730 * 24 * 60 * MINUTE), 'Europe/Prague');
    clockAt(new Date(slot.getTime() - 3 * 24 * 60 * MINUTE).toISOString());
    const reader = await person();
    const writer = await person();
    for (const p of [reader, writer]) {
      await confirmed(p, 'en');
      await p.c.put('/api/account/mail', { kinds: [], digest: 'weekly' });
    }
    const staff = await admin();
    const [followed, other] = await Promise.all(
      ['Followed', 'Unfollowed'].map(
        async (name) =>
          (await staff.post('/api/streamers?admin=1', { name: `${name} ${process.pid}` })).body.id as number,
      ),
    );
    // Rated, so both are in the Public view (their ratings are the week's too).
    for (const id of [followed, other]) {
      await staff.put(`/api/streamers?id=${id}`, { r: { s: 5, g: 5, a: 5, v: 5, n: 5, ns: 5, o: 5 } });
    }
    expect((await reader.c.put(`/api/follows?streamer_id=${followed}`, { follow: true })).status).toBe(200);
    const at = (m: number) => new Date(slot.getTime() - 2 * 24 * 60 * MINUTE + m * MINUTE).toISOString();
    await t.db
      .insertInto('streams')
      .values(
        [...Array.from({ length: 22 }, (_, i) => ({ id: followed!, i })), { id: other!, i: 30 }].map(
          ({ id, i }) => ({
            streamer_id: id,
            started_at: at(i * 2),
            last_seen_at: at(i * 2 + 1),
            ended_at: at(i * 2 + 1),
            title: `Stream ${i}`,
          }),
        ),
      )
      .execute();
    const top = (await writer.c.post('/api/comments', { streamer_id: other, body: 'my take' })).body
      .id as number;
    expect(
      (await reader.c.post('/api/comments', { streamer_id: other, body: 'an answer', reply_to: top })).status,
    ).toBe(201);
    clockAt(slot.toISOString());
    await until(() => smtp.to(reader.address).length === 1 && smtp.to(writer.address).length === 1);
    const read = smtp.to(reader.address)[0]!.text;
    expect(read).toContain('Streams of streamers you follow');
    expect(read.match(new RegExp(`Followed ${process.pid} \\(`, 'g'))).toHaveLength(20);
    expect(read).toContain('Stream 0');
    expect(read).not.toContain('Stream 20');
    expect(read).not.toContain(`Unfollowed ${process.pid} (`);
    expect(read).not.toContain('Replies to you');
    const written = smtp.to(writer.address)[0]!.text;
    expect(written).toContain('Replies to you');
    expect(written).toContain(reader.user.display_name);
    expect(written).not.toContain('Streams of streamers you follow');
  });
  it('the days it names are those of TZ, the zone its week is cut in: a stream at 00:30 on Monday there is Monday’s', async () => {
    const { slot, reader, sid } = await weekAhead(900, 'Night');
    expect((await reader.c.put(`/api/follows?streamer_id=${sid}`, { follow: true })).status).toBe(200);
    // Monday 00:30 in Prague, the slot's own day there: Sunday 23:30 in UTC.
    const local = (d: Date) =>
      new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'Europe/Prague' }).format(d);
    const night = new Date(slot.getTime() - 7.5 * 60 * MINUTE);
    expect(local(night)).toBe(local(slot));
    const at = (d: Date) => d.toISOString();
    await t.db
      .insertInto('streams')
      .values({
        streamer_id: sid,
        started_at: at(night),
        last_seen_at: at(slot),
        ended_at: at(slot),
        title: 'Late',
      })
      .execute();
    clockAt(slot.toISOString());
    await until(() => smtp.to(reader.address).length === 1);
    expect(smtp.to(reader.address)[0]!.text).toContain(`Night ${process.pid} (${local(slot)}): Late`);
  });

  it('queued as fast as it is sent: no batch while a batch’s worth of messages wait', async () => {
    const { slot, reader } = await weekAhead(1100, 'Week');
    // A batch's worth waiting (for a retry in a century).
    const waiting = Array.from({ length: DIGEST_BATCH }, (_, i) => ({
      user_id: reader.user.id,
      kind: 'confirm' as const,
      dedupe: `waiting:${i}`,
      recipient: 'waiting@example.org',
      payload: '{}',
      not_before: '2199-01-01T00:00:00.000Z',
      created_at: t.clock.now().toISOString(),
    }));
    await t.db.insertInto('mail_outbox').values(waiting).execute();
    clockAt(slot.toISOString());
    await settle();
    t.clock.advance(MINUTE);
    await settle();
    expect(smtp.to(reader.address)).toHaveLength(0);
    await t.db.deleteFrom('mail_outbox').where('dedupe', 'like', 'waiting:%').execute();
    await until(() => smtp.to(reader.address).length === 1);
  });

  it('a batch run again (another instance took the lease while it ran) queues each message once', async () => {
    const p = await person();
    await confirmed(p);
    await p.c.put('/api/account/mail', { kinds: [], digest: 'weekly' });
    const slot = {
      slot: '2199-01-06T07:00:00.000Z',
      from: '2198-12-30T07:00:00.000Z',
      through_user: p.user.id - 1,
    };
    const ratings = [{ streamer: 'Anyone', path: '/s/1', total: 7 }];
    const now = t.clock.now().toISOString();
    // Both runs, the count and the clean-up in one transaction: no sender sees these rows.
    const queued = await writeTransaction(
      t.database,
      async (trx) => {
        for (let run = 0; run < 2; run++) await queueDigestBatch(trx, 'key', slot, ratings, now);
        const rows = trx.deleteFrom('mail_outbox').where('dedupe', 'like', `digest:${slot.slot}%`);
        return (await rows.where('user_id', '=', p.user.id).returning('id').execute()).length;
      },
      'none',
    );
    expect(queued).toBe(1);
  });
});

describe('delivery', () => {
  const queueOne = async () => {
    const p = await person();
    await p.c.put('/api/account/email', { email: p.address });
    return p;
  };
  const row = async (userId: number) =>
    t.db
      .selectFrom('mail_outbox')
      .select(['state', 'attempts'])
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();

  it('a 4xx answer is tried again (3 more times at most), on the app’s clock', async () => {
    smtp.script(['temp', 'temp']);
    const p = await queueOne();
    await until(() => smtp.to(p.address).length === 1);
    expect(smtp.refused).toBe(2);
    expect(await row(p.user.id)).toEqual({ state: 'sent', attempts: 3 });
    smtp.reset();
    smtp.script(['temp', 'temp', 'temp', 'temp', 'temp']);
    const q = await queueOne();
    await until(async () => (await row(q.user.id)).state === 'failed');
    expect(smtp.refused).toBe(4);
    expect(smtp.messages).toHaveLength(0);
  });

  it('messages share a few kept connections, not one each (mail/sender.ts CONNECTIONS)', async () => {
    await settle();
    smtp.reset();
    const people = await Promise.all(Array.from({ length: 12 }, () => queueOne()));
    await until(() => people.every((p) => smtp.to(p.address).length === 1));
    // Connections the pool kept from earlier tests are not counted again: at most 4 new ones.
    expect(smtp.connections).toBeLessThanOrEqual(4);
  });

  it(`while the service answers ${BUSY_REQUESTS_PER_SECOND} requests a second, mail goes ${MAIL_GIVE_WAY_PER_SECOND} a second at most`, async () => {
    await settle();
    smtp.reset();
    await stopTheTimersLooks();
    const people = await Promise.all(Array.from({ length: 6 }, () => queueOne()));
    // A second of the clock with that many requests.
    t.clock.advance(1000);
    await Promise.all(Array.from({ length: BUSY_REQUESTS_PER_SECOND }, () => t.client().get('/healthz')));
    t.clock.advance(1000);
    const before = t.clock.sleeps.length;
    await OutboxDeliverer.prototype.look.call(t.app.mail!);
    await t.app.mail!.idle();
    expect(people.map((p) => smtp.to(p.address).length)).toEqual(people.map(() => 1));
    // Each claim followed by its share of the second: push's pace would be a fifth of it.
    const paced = t.clock.sleeps.slice(before);
    expect(paced.reduce((a, b) => a + b, 0)).toBe((people.length * 1000) / MAIL_GIVE_WAY_PER_SECOND);
  });

  it('a 5xx answer is final: one try', async () => {
    smtp.script(['perm']);
    const p = await queueOne();
    await until(async () => (await row(p.user.id)).state === 'failed');
    t.clock.advance(30 * MINUTE);
    await settle();
    expect(smtp.refused).toBe(1);
    expect(smtp.messages).toHaveLength(0);
  });

  it('a server that cannot be reached: tried again, and the message arrives once it is back', async () => {
    const down = await startFakeSmtp();
    const port = down.port;
    await down.close();
    const other = await startApp(
      { ...MAIL_ENV, SMTP_URL: `smtp://127.0.0.1:${port}` },
      { database: t.database },
    );
    // This instance's timer would share the message out and send it itself.
    const restoreTimer = await stopTheTimersLooks();
    try {
      // On the same clock, past the lease this instance held.
      other.clock.freeze();
      other.clock.advance(t.clock.now().getTime() - other.clock.now().getTime() + 31_000);
      const p = await person();
      await p.c.put('/api/account/email', { email: p.address });
      await other.app.mail!.look();
      await other.app.mail!.idle();
      expect(await row(p.user.id)).toMatchObject({ state: 'pending', attempts: 1 });
    } finally {
      await other.app.mail!.stop();
      await other.close();
      restoreTimer();
    }
    // The next holder of the lease (this one, once the other's lease is handed back) sends it.
    await until(() => smtp.messages.length === 1);
  });

  it('two instances on one database send each message once', async () => {
    const second = await startApp(MAIL_ENV, { database: t.database });
    try {
      second.clock.freeze();
      second.clock.advance(t.clock.now().getTime() - second.clock.now().getTime());
      t.clock.advance(31_000);
      second.clock.advance(31_000);
      const people = await Promise.all([1, 2, 3, 4, 5, 6].map(() => queueOne()));
      await until(() => smtp.messages.length >= 6, [t, second]);
      await settle([t, second]);
      expect(smtp.messages).toHaveLength(6);
      expect(new Set(smtp.messages.map((m) => m.to[0]))).toEqual(new Set(people.map((p) => p.address)));
    } finally {
      await second.close();
    }
  });

  it('a message being sent when its instance stopped is never sent again after a restart', async () => {
    const p = await person();
    const at = t.clock.now().toISOString();
    // As a stopped instance leaves it: claimed, never settled.
    await t.db
      .insertInto('mail_settings')
      .values({ user_id: p.user.id, pending_email: p.address, updated_at: at })
      .execute();
    await t.db
      .insertInto('mail_outbox')
      .values({
        user_id: p.user.id,
        kind: 'confirm',
        dedupe: 'confirm:0',
        recipient: p.address,
        payload: JSON.stringify({ seed: 'x', unsubscribe: 'y' }),
        state: 'sending',
        attempts: 1,
        claimed_by: 'gone',
        claimed_at: at,
        not_before: at,
        created_at: at,
      })
      .execute();
    t.clock.advance(5 * MINUTE);
    await settle();
    expect(await row(p.user.id)).toEqual({ state: 'unknown', attempts: 1 });
    expect(smtp.messages).toHaveLength(0);
  });
});

describe('the account', () => {
  it('the export holds the address and the choices; deleting the account deletes them', async () => {
    const p = await person();
    await confirmed(p);
    await p.c.put('/api/account/mail', { kinds: ['live'], digest: 'weekly' });
    const data = (await p.c.get('/api/account/export')).body;
    expect(data.mail).toEqual({
      email: p.address,
      pending_email: null,
      kinds: ['live'],
      digest: 'weekly',
      lang: 'cs',
    });
    expect((await p.c.del('/api/account', { body: { confirm: p.user.login } })).status).toBe(200);
    for (const table of ['mail_settings', 'mail_tokens', 'mail_outbox'] as const) {
      expect(
        await t.db.selectFrom(table).select('user_id').where('user_id', '=', p.user.id).execute(),
      ).toEqual([]);
    }
  });
});

describe('e-mail off', () => {
  it('without SMTP_URL and MAIL_FROM every endpoint answers 409 E-mail is not configured', async () => {
    const off = await startApp({}, { database: t.database });
    try {
      const p = await off.signedIn(await off.user());
      const want = { error: 'E-mail is not configured', code: 'mail_off' };
      for (const res of [
        await p.put('/api/account/email', { email: 'a@example.org' }),
        await p.get('/api/account/mail'),
        await p.put('/api/account/mail', { kinds: [], digest: 'off' }),
        await off.client().get('/api/account/email/confirm?token=x'),
        await off.client().post('/api/mail/unsubscribe?token=x'),
        await off.client().get('/api/mail/unsubscribe?token=x'),
      ]) {
        expect(res.status).toBe(409);
        expect(res.body).toEqual(want);
      }
      // A malformed body is refused for itself first (the input before the conflict; a conformance sweep).
      for (const [path, body, error] of [
        ['/api/account/email', { email: 'bad' }, { error: 'Invalid e-mail address', code: 'invalid_email' }],
        ['/api/account/mail', { kinds: ['nope'] }, { error: 'Invalid kinds', code: 'invalid_field' }],
        ['/api/account/mail', { digest: 'daily' }, { error: 'Invalid digest', code: 'invalid_field' }],
      ] as const) {
        const res = await p.put(path, body);
        expect([path, res.status, res.body]).toEqual([path, 400, error]);
      }
      // A banned user's write is refused for the ban first (the role before the conflict).
      const banned = await off.signedIn(await off.user({}, { banned: true }));
      for (const [path, body] of [
        ['/api/account/email', { email: null }],
        ['/api/account/mail', { kinds: [], digest: 'off' }],
      ] as const) {
        const res = await banned.put(path, body);
        expect([res.status, res.body]).toEqual([403, { error: 'Účet je zablokován', code: 'banned' }]);
      }
      expect(off.app.mail).toBeNull();
      // The pages know it without asking for what would be refused (the account page's e-mail block).
      expect((await off.client().get('/api/settings/operator')).body).toMatchObject({ mail: false });
    } finally {
      await off.close();
    }
  });
});
