import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { beforeAll, describe, expect, it } from 'vitest';
import { useApp } from './helpers/app.ts';

/**
 * Issue 17, defects 8 and 15 (docs/decisions.md "The first view"): the page's HTML carries the
 * ranking or the streamer, rendered by the page's own components once per content version,
 * with the data inlined as JSON that no name can break out of; unknown addresses get the
 * site's own "not found" page.
 */
const t = await useApp();
const HOSTILE = '</script><script>alert(1)</script>';
let best: number;
let hostile: number;
let unrated: number;

beforeAll(async () => {
  best = await t.streamer('Zlatý Kůň', { s: 9, g: 9, a: 9, v: 9, n: 9, ns: 9, o: 9 });
  hostile = await t.streamer('Hostile Name', { s: 5, g: 5 });
  // The API takes tags out of names; a name from elsewhere (an older version, a provider, an
  // operator's SQL) may still hold one, and the page must not break on it.
  await t.db.updateTable('streamers').set({ name: HOSTILE }).where('id', '=', hostile).execute();
  t.app.database.changes.bump();
  unrated = await t.streamer('Čekající Nováček');
});

/** As a browser asks for a page. */
const BROWSER = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

const get = async (path: string, headers: Record<string, string> = {}) => {
  const res = await fetch(t.url + path, { headers: { ...BROWSER, ...headers } });
  return { res, html: await res.text() };
};

/** The inlined data (web/src/lib/first-view.ts reads it the same way). */
function inlined(html: string): {
  list?: { id: number; name: string }[];
  complete?: boolean;
  streamer?: unknown;
} {
  const m = /<script type="application\/json" id="first-view">([^<]*)<\/script>/.exec(html);
  if (!m?.[1]) throw new Error('no first-view data in the page');
  return JSON.parse(m[1]);
}

/** The markup inside #app, before the inlined data. */
const appMarkup = (html: string) =>
  html.slice(html.indexOf('<div id="app">'), html.indexOf('id="first-view"'));

describe('the first view', () => {
  it('the home page carries the ranking in its HTML, in rank order, and the same list as JSON', async () => {
    const { res, html } = await get('/');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/html');
    const markup = appMarkup(html);
    expect(markup).toContain('<ol class="ranking"');
    expect(markup.indexOf('Zlatý Kůň')).toBeGreaterThan(0);
    expect(markup.indexOf('Zlatý Kůň')).toBeLessThan(markup.indexOf('&lt;/script>&lt;script>alert(1)'));
    expect(markup).not.toContain('Čekající Nováček');
    const data = inlined(html);
    const api = (await (await fetch(t.url + '/api/streamers')).json()) as unknown[];
    expect(data.list).toEqual(api);
    expect(data.complete).toBe(true);
  });

  it('a name with </script> neither ends the inlined data nor runs: it is escaped in both', async () => {
    for (const path of ['/', `/s/${hostile}`]) {
      const { html } = await get(path);
      expect(html, path).not.toContain('<script>alert(1)');
      // The page's own scripts only: the module, and the data.
      expect(html.match(/<script\b/g), path).toHaveLength(2);
      expect(html.match(/<\/script>/g), path).toHaveLength(2);
      const data = inlined(html) as { list?: { name: string }[]; streamer?: { item: { name: string } } };
      const names = data.list?.map((s) => s.name) ?? [data.streamer?.item.name];
      expect(names, path).toContain(HOSTILE);
    }
  });

  it("a streamer's page carries its name, scores and item; the address's slug does not matter", async () => {
    for (const path of [`/s/${best}`, `/s/${best}-zlaty-kun`, `/s/${best}-old-name`]) {
      const { res, html } = await get(path);
      expect(res.status, path).toBe(200);
      const markup = appMarkup(html);
      expect(markup, path).toContain('Zlatý Kůň');
      expect(markup, path).toContain('63 / 70');
      expect(inlined(html).streamer, path).toMatchObject({
        id: best,
        pending: false,
        item: { name: 'Zlatý Kůň' },
      });
    }
  });

  it('answers 304 to its ETag, and a new rendering with a new ETag after a content change', async () => {
    const first = await get('/');
    const etag = first.res.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.res.headers.get('cache-control')).toBe('no-cache');
    expect((await get('/')).res.headers.get('etag')).toBe(etag);
    const again = await fetch(t.url + '/', { headers: { 'if-none-match': etag ?? '' } });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    // A browser keeps the 304's headers for the page: the page's own policy, not "nothing".
    expect(again.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(again.headers.get('x-frame-options')).toBe('DENY');

    const admin = await t.admin();
    await admin.put(`/api/streamers?id=${unrated}`, {
      r: { s: 10, g: 10, a: 10, v: 10, n: 10, ns: 10, o: 10 },
    });
    const changed = await fetch(t.url + '/', { headers: { 'if-none-match': etag ?? '' } });
    expect(changed.status).toBe(200);
    expect(changed.headers.get('etag')).not.toBe(etag);
    const html = await changed.text();
    expect(appMarkup(html)).toContain('Čekající Nováček');
    expect(inlined(html).list?.[0]?.name).toBe('Čekající Nováček');
    // Back to unrated for the tests below.
    await admin.put(`/api/streamers?id=${unrated}`, { r: { s: 0, g: 0, a: 0, v: 0, n: 0, ns: 0, o: 0 } });
  });

  it('is sent compressed (brotli, gzip) to those who accept it, the same bytes', async () => {
    const plain = (await get('/')).html;
    for (const [encoding, inflate] of [
      ['br', brotliDecompressSync],
      ['gzip', gunzipSync],
    ] as const) {
      const res = await fetch(t.url + '/', {
        headers: { 'accept-encoding': encoding },
        decompress: false,
      } as RequestInit);
      expect(res.headers.get('content-encoding')).toBe(encoding);
      expect(Number(res.headers.get('content-length'))).toBeLessThan(Buffer.byteLength(plain) / 3);
      const bytes = Buffer.from(await res.arrayBuffer());
      // fetch may have inflated it already; either way the page is the same.
      const text = bytes.subarray(0, 15).toString().startsWith('<!doctype')
        ? bytes.toString()
        : inflate(bytes).toString();
      expect(text).toBe(plain);
    }
  });
});

describe('addresses that show no streamer (defect 8)', () => {
  it('a streamer not rated yet: the page says it awaits rating, not that it does not exist', async () => {
    const { res, html } = await get(`/s/${unrated}-cekajici-novacek`);
    expect(res.status).toBe(200);
    expect(appMarkup(html)).toContain('čeká');
    expect(appMarkup(html)).not.toContain('neexistuje');
    expect(appMarkup(html)).not.toContain('Čekající Nováček');
    expect(inlined(html).streamer).toEqual({ id: unrated, item: null, pending: true });
  });

  it('an id nobody has: 404 with the page saying the streamer does not exist', async () => {
    const { res, html } = await get('/s/987654');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(appMarkup(html)).toContain('neexistuje');
    expect(inlined(html).streamer).toEqual({ id: 987654, item: null, pending: false });
  });

  it("an unknown page address: 404 with the site's own page for a browser; the API, files and scripts keep JSON", async () => {
    for (const path of ['/nothing-here', '/s/abc', '/admin/Teams', '/a/b/c', '/old-page.html']) {
      const { res, html } = await get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toContain('text/html');
      expect(res.headers.get('content-security-policy'), path).toContain("script-src 'self'");
      expect(html, path).toContain('<title>Hodnocení streamerů</title>');
      expect(appMarkup(html), path).toContain('Stránka nenalezena');
      expect(appMarkup(html), path).toContain('href="/"');
    }
    for (const path of ['/api/nothing', '/assets/missing.js', '/favicon.png', '/dev/nothing']) {
      const { res, html } = await get(path);
      expect(res.status, path).toBe(404);
      expect(res.headers.get('content-type'), path).toContain('application/json');
      expect(JSON.parse(html), path).toMatchObject({ code: 'not_found' });
    }
    const post = await fetch(t.url + '/nothing-here', { method: 'POST', headers: BROWSER });
    expect(post.status).toBe(404);
    expect(post.headers.get('content-type')).toContain('application/json');
    // A script or a scraper (no text/html in Accept) keeps the JSON 404.
    const script = await fetch(t.url + '/nothing-here', { headers: { accept: 'application/json' } });
    expect(script.status).toBe(404);
    expect(await script.json()).toMatchObject({ code: 'not_found' });
  });
});

describe('a long ranking', () => {
  it('past 100 streamers the page carries the first 50 by rank and says the list is not whole', async () => {
    const admin = await t.admin();
    for (let i = 0; i < 100; i++) {
      const res = await admin.post('/api/streamers?admin=1', { name: `Bulk ${String(i).padStart(3, '0')}` });
      await admin.put(`/api/streamers?id=${res.body.id}`, { r: { s: 1 + (i % 9), g: 1 } });
    }
    const { html } = await get('/');
    const data = inlined(html);
    expect(data.complete).toBe(false);
    expect(data.list).toHaveLength(50);
    expect(data.list?.[0]?.name).toBe('Zlatý Kůň');
    expect(appMarkup(html).match(/<li class="row/g)).toHaveLength(50);
    // The first view stays small: well under 80 KB compressed with its scripts and styles.
    const br = await fetch(t.url + '/', { headers: { 'accept-encoding': 'br' } });
    expect(Number(br.headers.get('content-length'))).toBeLessThan(20 * 1024);
  });
});
