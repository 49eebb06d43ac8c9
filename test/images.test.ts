import { inflateSync } from 'node:zlib';
import { Resvg } from '@resvg/resvg-js';
import { describe, expect, it } from 'vitest';
import { fonts } from '../src/images/fonts.ts';
import { startApp, useApp } from './helpers/app.ts';

// DECISIONS.md "Reaching out": share cards and badges.
const t = await useApp();
const admin = await t.admin();
const SCORES = { s: 8, g: 7, a: 8, v: 7, n: 7, ns: 7, o: 8 }; // 52

const get = async (path: string, headers: Record<string, string> = {}) => {
  const res = await fetch(t.url + path, { headers });
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
};

/** Width and height from a PNG's IHDR chunk. */
function pngSize(png: Buffer): { width: number; height: number } {
  expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
  expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20) };
}

/** A PNG's pixel rows, decompressed (the same encoder filters equal rows the same way). */
function pixels(png: Buffer): Buffer {
  const parts: Buffer[] = [];
  for (let at = 8; at < png.length;) {
    const length = png.readUInt32BE(at);
    if (png.subarray(at + 4, at + 8).toString('latin1') === 'IDAT')
      parts.push(png.subarray(at + 8, at + 8 + length));
    at += length + 12;
  }
  return inflateSync(Buffer.concat(parts));
}

describe('share card', () => {
  it('GET /s/<id>/card.png: a 1200×630 PNG, cached publicly for 5 minutes, with an ETag and 304', async () => {
    const id = await t.streamer('Card Holder', SCORES);
    const { res, bytes } = await get(`/s/${id}/card.png`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(pngSize(bytes)).toEqual({ width: 1200, height: 630 });
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    const again = await get(`/s/${id}/card.png`, { 'if-none-match': etag });
    expect(again.res.status).toBe(304);
    expect(again.bytes.length).toBe(0);
    expect(again.res.headers.get('etag')).toBe(etag);
    expect((await fetch(`${t.url}/s/${id}/card.png`, { method: 'HEAD' })).status).toBe(200);
  });

  it('a new ETag (and picture) when the rating or the name changes', async () => {
    const id = await t.streamer('Changing Card', SCORES);
    const first = await get(`/s/${id}/card.png`);
    await admin.put(`/api/streamers?id=${id}`, { r: { ...SCORES, o: 9 } });
    const rated = await get(`/s/${id}/card.png`, { 'if-none-match': first.res.headers.get('etag')! });
    expect(rated.res.status).toBe(200);
    expect(rated.res.headers.get('etag')).not.toBe(first.res.headers.get('etag'));
    expect(pixels(rated.bytes).equals(pixels(first.bytes))).toBe(false);
    await admin.put(`/api/streamers?id=${id}`, { r: { ...SCORES, o: 9 }, name: 'Changed Card' });
    const renamed = await get(`/s/${id}/card.png`);
    expect(renamed.res.headers.get('etag')).not.toBe(rated.res.headers.get('etag'));
    // A comment changes neither: the same ETag.
    await t.client().post('/api/comments', { streamer_id: id, body: 'nice card' });
    expect((await get(`/s/${id}/card.png`)).res.headers.get('etag')).toBe(renamed.res.headers.get('etag'));
  });

  it('Czech letters are drawn: "Žluťoučký kůň" and "Zlutoucky kun" differ in pixels', async () => {
    // One streamer renamed: the two names fold alike, so they cannot be two streamers.
    const id = await t.streamer('Žluťoučký kůň', SCORES);
    const a = pixels((await get(`/s/${id}/card.png`)).bytes);
    await admin.put(`/api/streamers?id=${id}`, { r: SCORES, name: 'Zlutoucky kun' });
    const b = pixels((await get(`/s/${id}/card.png`)).bytes);
    expect(a.length).toBe(b.length);
    let differing = 0;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) differing++;
    expect(differing).toBeGreaterThan(100);
  });

  it('the bundled font has every Czech letter, in both weights', async () => {
    const f = await fonts();
    for (const letter of 'áčďéěíňóřšťúůýžÁČĎÉĚÍŇÓŘŠŤÚŮÝŽ') {
      for (const weight of ['regular', 'bold'] as const) {
        // A missing glyph is drawn as the empty box of the .notdef glyph: its outline differs.
        expect(f.path(letter, 0, 0, 20, weight), `${letter} ${weight}`).not.toBe(
          f.path('\u{10FFFD}', 0, 0, 20, weight),
        );
      }
    }
  });

  it('404 outside the Public view: unrated, unknown, not a number', async () => {
    const unrated = await t.streamer('Not Rated Card');
    for (const path of [
      `/s/${unrated}/card.png`,
      '/s/999999/card.png',
      '/s/abc/card.png',
      '/s/1x/card.png',
    ]) {
      const { res, bytes } = await get(path);
      expect(res.status, path).toBe(404);
      expect(JSON.parse(bytes.toString())).toEqual({
        error: 'Streamer not found',
        code: 'streamer_not_found',
      });
    }
  });
});

describe('badge', () => {
  it('GET /badge/<id>.svg: shields.io style, 20 px high, the label and 52/70, the name in <title>, cache headers, ETag, 304', async () => {
    const id = await t.streamer('Badge Owner', SCORES);
    const { res, bytes } = await get(`/badge/${id}.svg`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/svg+xml');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const svg = bytes.toString();
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg" width="\d+" height="20"/);
    expect(svg).toContain('<title>Badge Owner: 52/70 (Hodnocení streamerů)</title>');
    expect(svg).toContain('>Hodnocení streamerů</text>');
    expect(svg).toContain('>52/70</text>');
    const etag = res.headers.get('etag')!;
    expect((await get(`/badge/${id}.svg`, { 'if-none-match': etag })).res.status).toBe(304);
    await admin.put(`/api/streamers?id=${id}`, { r: { ...SCORES, s: 1 } });
    const changed = await get(`/badge/${id}.svg`, { 'if-none-match': etag });
    expect(changed.res.status).toBe(200);
    expect(changed.bytes.toString()).toContain('>45/70</text>');
  });

  it('GET /badge/<id>.png: the same badge 320 px wide', async () => {
    const id = await t.streamer('Panel Badge', SCORES);
    const { res, bytes } = await get(`/badge/${id}.png`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    expect(res.headers.get('etag')).toBeTruthy();
    const { width, height } = pngSize(bytes);
    expect(width).toBe(320);
    expect(height).toBeGreaterThan(20);
    expect(height).toBeLessThan(80);
  });

  it('404 outside the Public view and for other file names', async () => {
    const unrated = await t.streamer('Unrated Badge');
    for (const path of [
      `/badge/${unrated}.svg`,
      `/badge/${unrated}.png`,
      '/badge/999999.svg',
      '/badge/1.gif',
      '/badge/x.svg',
    ]) {
      expect((await get(path)).res.status, path).toBe(404);
    }
  });
});

describe('names cannot inject (SECURITY.md 37)', () => {
  it('XML specials in a name are escaped in the badge, which stays well-formed; the page head escapes them too', async () => {
    const name = `Tom & "Jerry" 'x' ]]> 3<4`;
    const id = await t.streamer(name, SCORES);
    const stored = (await t.client().get(`/api/streamers?id=${id}`)).body.name as string;
    expect(stored).toContain('&');
    expect(stored).toContain('"');
    const svg = (await get(`/badge/${id}.svg`)).bytes.toString();
    const title = /<title>(.*)<\/title>/.exec(svg)?.[1] ?? '';
    expect(title).not.toMatch(/[<>"']|&(?!amp;|lt;|gt;|quot;|#39;)/);
    expect(title).toContain('Tom &amp; &quot;Jerry&quot; &#39;x&#39; ]]&gt; 3&lt;4');
    // resvg refuses malformed XML.
    expect(() => new Resvg(svg)).not.toThrow();
    expect(svg.match(/<title>/g)).toHaveLength(1);

    const page = await t.client().get(`/s/${id}`);
    const head = page.text.slice(0, page.text.indexOf('</head>'));
    expect(head).toContain(`<meta property="og:image" content="${t.config.baseUrl}/s/${id}/card.png" />`);
    expect(head).toContain(`<meta name="twitter:image" content="${t.config.baseUrl}/s/${id}/card.png" />`);
    expect(head).toContain('<meta name="twitter:card" content="summary_large_image" />');
    expect(head).not.toContain('"Jerry"');
    expect(head).not.toContain('3<4');
    expect(head).toContain('Tom &amp; &quot;Jerry&quot; &#39;x&#39; ]]&gt; 3&lt;4');
  });

  it('the card of such a name is drawn as outlines: it is a PNG of the same size', async () => {
    const id = await t.streamer(`<svg onload=alert(1)> & ]]> "'`, SCORES);
    const { res, bytes } = await get(`/s/${id}/card.png`);
    expect(res.status).toBe(200);
    expect(pngSize(bytes)).toEqual({ width: 1200, height: 630 });
  });

  it('a page outside the Public view has no card', async () => {
    const id = await t.streamer('No Card Yet');
    const page = await t.client().get(`/s/${id}`);
    expect(page.text).not.toContain('og:image');
    expect(page.text).toContain('<meta name="twitter:card" content="summary" />');
  });
});

describe('answers from memory before routing', () => {
  const headersOf = (h: Headers) =>
    [...h.entries()].filter(([k]) => !['date', 'connection', 'keep-alive'].includes(k)).sort();

  it('a drawn card or badge: the same status, headers and bytes as the route gives, until the content changes', async () => {
    const app = await startApp({}, { logLevel: 'warn' });
    try {
      const id = await app.streamer('Fast Badge', SCORES);
      for (const path of [`/s/${id}/card.png`, `/badge/${id}.svg`, `/badge/${id}.png`]) {
        // On PostgreSQL this instance also hears its own writes' NOTIFY, a moment later: a pair
        // of requests the version moved between is asked again.
        const changes = app.app.database.changes;
        let routed: Response, fast: Response, before: number, version: number;
        let tries = 0;
        do {
          version = changes.current;
          routed = await fetch(app.url + path);
          before = app.app.earlyAnswers.served;
          fast = await fetch(app.url + path);
        } while (changes.current !== version && ++tries < 5);
        expect(app.app.earlyAnswers.served, path).toBe(before + 1);
        expect(fast.status).toBe(200);
        expect(headersOf(fast.headers)).toEqual(headersOf(routed.headers));
        const [a, b] = await Promise.all([fast.arrayBuffer(), routed.arrayBuffer()]);
        expect(Buffer.from(a).equals(Buffer.from(b))).toBe(true);

        const etag = routed.headers.get('etag')!;
        const fast304 = await fetch(app.url + path, { headers: { 'if-none-match': etag } });
        expect(app.app.earlyAnswers.served).toBe(before + 2);
        // A write moves the content version: the route answers (and checks) again.
        await app.client().post('/api/comments', { streamer_id: id, body: `a comment for ${path}` });
        const routed304 = await fetch(app.url + path, { headers: { 'if-none-match': etag } });
        expect(app.app.earlyAnswers.served).toBe(before + 2);
        expect([fast304.status, routed304.status]).toEqual([304, 304]);
        expect(headersOf(fast304.headers)).toEqual(headersOf(routed304.headers));
      }
      // Leaving the Public view takes the images away at once.
      await (await app.admin()).put(`/api/streamers?id=${id}`, { r: {} });
      expect((await fetch(`${app.url}/badge/${id}.svg`)).status).toBe(404);
    } finally {
      await app.close();
    }
  });

  it('an address with a query is answered from memory too; one that only starts like it is routed', async () => {
    const app = await startApp({}, { logLevel: 'warn' });
    try {
      const id = await app.streamer('Query Badge', SCORES);
      const changes = app.app.database.changes;
      let before: number, version: number, queried: Response;
      let tries = 0;
      do {
        version = changes.current;
        await (await fetch(`${app.url}/badge/${id}.svg`)).arrayBuffer();
        before = app.app.earlyAnswers.served;
        queried = await fetch(`${app.url}/badge/${id}.svg?style=flat`);
      } while (changes.current !== version && ++tries < 5);
      expect(queried.status).toBe(200);
      expect(queried.headers.get('content-type')).toBe('image/svg+xml');
      await queried.arrayBuffer();
      expect(app.app.earlyAnswers.served).toBe(before + 1);
      const longer = await fetch(`${app.url}/badge/${id}.svgz`);
      expect(longer.status).toBe(404);
      expect(app.app.earlyAnswers.served).toBe(before + 1);
    } finally {
      await app.close();
    }
  });

  it('an image is kept under what it shows, not its address: long unique queries keep nothing more', async () => {
    const id = await t.streamer('Query Card', SCORES);
    expect((await fetch(`${t.url}/s/${id}/card.png`)).status).toBe(200);
    const kept = t.app.answers.size;
    const long = 'x'.repeat(4000);
    for (let i = 0; i < 200; i++) {
      const res = await fetch(`${t.url}/s/${id}/card.png?${long}${i}`);
      expect(res.status).toBe(200);
      await res.arrayBuffer();
    }
    expect(t.app.answers.size).toBe(kept);
  });
});
