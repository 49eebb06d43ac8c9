import sax from 'sax';
import { describe, expect, it } from 'vitest';
import { useApp } from './helpers/app.ts';
import { SITE_NAME } from '../src/shared/site.ts';

/** DECISIONS.md "Fourth wave" → "Feeds": Atom 1.0, parsed strictly. */
const BASE = 'https://rating.example';
const t = await useApp({ BASE_URL: BASE });
const admin = await t.admin();
const ATOM = 'http://www.w3.org/2005/Atom';

interface Node {
  name: string;
  ns: string;
  attrs: Record<string, string>;
  children: Node[];
  text: string;
}

/** A strict parse (sax, strict mode with namespaces): any malformed XML throws. */
function parse(xml: string): Node {
  const parser = sax.parser(true, { xmlns: true });
  const root: Node = { name: '#root', ns: '', attrs: {}, children: [], text: '' };
  const stack = [root];
  parser.onerror = (err) => {
    throw err;
  };
  parser.onopentag = (tag) => {
    const t2 = tag as sax.QualifiedTag;
    const attrs = Object.fromEntries(Object.entries(t2.attributes).map(([k, a]) => [k, a.value]));
    const node: Node = { name: t2.local, ns: t2.uri, attrs, children: [], text: '' };
    stack.at(-1)!.children.push(node);
    stack.push(node);
  };
  parser.onclosetag = () => void stack.pop();
  parser.ontext = (text) => void (stack.at(-1)!.text += text);
  parser.oncdata = (text) => void (stack.at(-1)!.text += text);
  parser.write(xml).close();
  const feed = root.children[0]!;
  expect([feed.name, feed.ns]).toEqual(['feed', ATOM]);
  return feed;
}
const child = (n: Node, name: string) => n.children.find((c) => c.name === name);
const text = (n: Node, name: string) => child(n, name)?.text.trim();
const entries = (feed: Node) => feed.children.filter((c) => c.name === 'entry');
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

/** Atom 1.0's required elements (RFC 4287 4.1.1, 4.1.2). */
function expectValidAtom(feed: Node) {
  for (const name of ['id', 'title', 'updated']) expect(text(feed, name)).toBeTruthy();
  expect(text(feed, 'updated')).toMatch(ISO);
  for (const e of entries(feed)) {
    for (const name of ['id', 'title', 'updated']) expect(text(e, name)).toBeTruthy();
    expect(text(e, 'updated')).toMatch(ISO);
    expect(child(e, 'link')?.attrs.href).toMatch(/^https:\/\/rating\.example\//);
    // RFC 4287 4.1.1: every entry has an author when the feed has none (issue 45, week 18).
    if (!child(feed, 'author')) expect(text(child(e, 'author')!, 'name')).toBeTruthy();
  }
}
const rate = (id: number, each: number) =>
  admin.put(`/api/streamers?id=${id}`, {
    r: { s: each, g: each, a: each, v: each, n: each, ns: each, o: each },
  });

describe('/feed.xml', () => {
  it('the newest rating events, newest first: name and total in the title, the page as link, a stable id', async () => {
    const first = await t.streamer('Feed "First" & Co');
    const second = await t.streamer('Feed Second');
    await rate(first, 5);
    t.clock.advance(1000);
    await rate(second, 6);
    t.clock.advance(1000);
    await rate(first, 5); // the same total: no event
    t.clock.advance(1000);
    await rate(first, 7);
    const res = await t.client().get('/feed.xml');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/atom+xml; charset=utf-8');
    const feed = parse(res.text);
    expectValidAtom(feed);
    const mine = entries(feed).filter((e) => /Feed/.test(text(e, 'title') ?? ''));
    expect(mine.map((e) => text(e, 'title'))).toEqual([
      'Feed &quot;First&quot; &amp; Co: 49/70',
      'Feed Second: 42/70',
      'Feed &quot;First&quot; &amp; Co: 35/70',
    ]);
    expect(child(mine[1]!, 'link')?.attrs.href).toBe(`${BASE}/s/${second}-feed-second`);
    const ids = mine.map((e) => text(e, 'id'));
    expect(new Set(ids).size).toBe(3);
    await rate(second, 8);
    const again = entries(parse((await t.client().get('/feed.xml')).text));
    expect(again.map((e) => text(e, 'id')).slice(1, 4)).toEqual(ids);
    expect(again.length).toBeLessThanOrEqual(50);
  });

  it('every rating entry names the site as its author (RFC 4287 4.1.1, issue 45 week 18)', async () => {
    await rate(await t.streamer('Feed Authored'), 6);
    const feed = parse((await t.client().get('/feed.xml')).text);
    const authored = entries(feed).find((e) => text(e, 'title') === 'Feed Authored: 42/70')!;
    expect(text(child(authored, 'author')!, 'name')).toBe(SITE_NAME);
    expect(entries(feed).every((e) => text(child(e, 'author') ?? e, 'name'))).toBe(true);
  });

  it('a streamer that left the Public view (scores set to 0) takes its rating events out of the feed', async () => {
    const gone = await t.streamer('Feed Gone');
    const titles = async () =>
      entries(parse((await t.client().get('/feed.xml')).text)).map((e) => text(e, 'title'));
    await rate(gone, 4);
    expect(await titles()).toContain('Feed Gone: 28/70');
    t.clock.advance(1000);
    await rate(gone, 0);
    expect(await titles()).not.toContain('Feed Gone: 28/70');
  });

  it('answers with an ETag and 304 to a matching If-None-Match, a new tag after a change', async () => {
    const res = await t.client().get('/feed.xml');
    const etag = res.headers.get('etag')!;
    expect(etag).toBeTruthy();
    const same = await t.client().get('/feed.xml', { headers: { 'if-none-match': etag } });
    expect([same.status, same.text]).toEqual([304, '']);
    await rate(await t.streamer('Feed Third'), 3);
    const changed = await t.client().get('/feed.xml', { headers: { 'if-none-match': etag } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
  });
});

describe('/s/<id>/comments.xml', () => {
  it("a Public view streamer's newest visible comments, author and body as text", async () => {
    const sid = await t.streamer('Commented');
    await rate(sid, 5);
    const user = await t.user({ display_name: 'Signed Person' });
    const signed = await t.signedIn(user);
    // Under an https BASE_URL the session cookie has the __Host- prefix.
    signed.cookies.set('__Host-sid', signed.cookies.get('sid')!);
    signed.cookies.delete('sid');
    await signed.post('/api/comments', { streamer_id: sid, body: 'signed in speaks' });
    const hostile = '<script>alert(1)</script> ]]> & "quotes"';
    await t.client().post('/api/comments', { streamer_id: sid, body: hostile, author: 'Guest <b>' });
    const hidden = (await t.client().post('/api/comments', { streamer_id: sid, body: 'to be hidden' })).body
      .id;
    await admin.put(`/api/comments?id=${hidden}`, { hidden: true });
    const res = await t.client().get(`/s/${sid}/comments.xml`);
    expect([res.status, res.headers.get('content-type')]).toEqual([
      200,
      'application/atom+xml; charset=utf-8',
    ]);
    const feed = parse(res.text);
    expectValidAtom(feed);
    const list = entries(feed);
    expect(list.map((e) => text(child(e, 'author')!, 'name'))).toEqual(['Guest <b>', 'Signed Person']);
    // The body is text: HTML-escaped inside the HTML content, so a reader shows it as typed.
    expect(text(list[0]!, 'content')).toBe(
      '&lt;script&gt;alert(1)&lt;/script&gt; ]]&gt; &amp; &quot;quotes&quot;',
    );
    expect(res.text).not.toContain('to be hidden');
    const etag = res.headers.get('etag')!;
    expect(
      (await t.client().get(`/s/${sid}/comments.xml`, { headers: { 'if-none-match': etag } })).status,
    ).toBe(304);
  });

  it("a control character in a provider's display name or a body leaves the feed well-formed (issue 45 item 10)", async () => {
    const sid = await t.streamer('Bell\u0007Streamer');
    await rate(sid, 5);
    const user = await t.user({ display_name: 'Ring\u0007\u001bBell' });
    const signed = await t.signedIn(user);
    signed.cookies.set('__Host-sid', signed.cookies.get('sid')!);
    signed.cookies.delete('sid');
    expect((await signed.post('/api/comments', { streamer_id: sid, body: 'ding \u0008 dong' })).status).toBe(
      201,
    );
    const res = await t.client().get(`/s/${sid}/comments.xml`);
    expect(res.status).toBe(200);
    expect(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(res.text)).toBe(false);
    const feed = parse(res.text);
    expectValidAtom(feed);
    expect(entries(feed).map((e) => text(child(e, 'author')!, 'name'))).toEqual(['RingBell']);
  });

  it('a held comment is in no feed until staff approve it (issue 45 item 1)', async () => {
    const sid = await t.streamer('Held In Feed');
    await rate(sid, 5);
    // Every guest comment waits for staff (DECISIONS.md "Guests earn trust").
    await admin.put('/api/settings', { guest_hold: 'all' });
    const held = (
      await t
        .client()
        .post('/api/comments', { streamer_id: sid, body: 'cheap pills at https://spam.example' })
    ).body;
    await admin.put('/api/settings', { guest_hold: 'none' });
    expect(held.pending).toBe(true);
    expect((await t.client().get(`/s/${sid}/comments.xml`)).text).not.toContain('spam.example');
    await admin.put('/api/moderation/comments', { ids: [held.id], action: 'approve' });
    expect((await t.client().get(`/s/${sid}/comments.xml`)).text).toContain('spam.example');
  });

  it('a streamer outside the Public view, or none: 404', async () => {
    const unrated = await t.streamer('Unrated');
    for (const path of [`/s/${unrated}/comments.xml`, '/s/99999999/comments.xml', '/s/x/comments.xml']) {
      const res = await t.client().get(path);
      expect([res.status, res.body.error]).toEqual([404, 'Streamer not found']);
    }
  });
});

describe('pages', () => {
  it('carry <link rel="alternate" type="application/atom+xml"> to the feeds', async () => {
    const sid = await t.streamer('Linked');
    await rate(sid, 4);
    const home = (await t.client().get('/')).text;
    expect(home).toContain(
      `<link rel="alternate" type="application/atom+xml" title="Hodnocení streamerů" href="${BASE}/feed.xml" />`,
    );
    const page = (await t.client().get(`/s/${sid}`)).text;
    expect(page).toContain(`href="${BASE}/feed.xml"`);
    expect(page).toContain(
      `<link rel="alternate" type="application/atom+xml" title="Linked – komentáře" href="${BASE}/s/${sid}/comments.xml" />`,
    );
  });
});
