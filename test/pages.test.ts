import { beforeAll, describe, expect, it } from 'vitest';
import { decodePath, routeOf, SERVICE_WORKER } from '../src/shared/pages.ts';
import { useApp } from './helpers/app.ts';

/** DECISIONS.md "Streamer pages": the server answers page paths with the page's HTML. */
const t = await useApp();
let rated: number;
let unrated: number;
beforeAll(async () => {
  rated = await t.streamer('Zlatý Kůň & "Ryba" <3', { s: 9, g: 8 });
  unrated = await t.streamer('Hidden Newcomer');
});

const page = async (path: string) => {
  const res = await fetch(t.url + path);
  return { status: res.status, type: res.headers.get('content-type'), html: await res.text() };
};
const meta = (html: string, property: string) =>
  new RegExp(`<meta property="${property}" content="([^"]*)"`).exec(html)?.[1];

describe('streamer pages', () => {
  it('/s/<id> and /s/<id>-<slug> carry the public streamer name, escaped, in title and Open Graph', async () => {
    for (const path of [`/s/${rated}`, `/s/${rated}-zlaty-kun-ryba-3`, `/s/${rated}-anything`]) {
      const res = await page(path);
      expect(res.status).toBe(200);
      expect(res.type).toContain('text/html');
      expect(res.html).toContain('<div id="app">');
      expect(res.html).toContain(
        '<title>Zlatý Kůň &amp; &quot;Ryba&quot; &lt;3 – Hodnocení streamerů</title>',
      );
      expect(meta(res.html, 'og:title')).toBe('Zlatý Kůň &amp; &quot;Ryba&quot; &lt;3 – Hodnocení streamerů');
      expect(meta(res.html, 'og:url')).toBe(`${t.config.baseUrl}/s/${rated}-zlaty-kun-ryba-3`);
      expect(meta(res.html, 'og:description')).toContain('17 / 70');
      expect(res.html).not.toContain('"Ryba" <3');
    }
  });

  it('a streamer outside the Public view gets the generic title; an unknown id answers 404 with the page', async () => {
    const hidden = await page(`/s/${unrated}-hidden-newcomer`);
    expect(hidden.status).toBe(200);
    expect(hidden.html).toContain('<title>Hodnocení streamerů</title>');
    expect(hidden.html).not.toContain('Hidden Newcomer');
    const unknown = await page('/s/999999');
    expect(unknown.status).toBe(404);
    expect(unknown.html).toContain('<div id="app">');
    expect(meta(unknown.html, 'og:title')).toBe('Hodnocení streamerů');
  });

  it('other page paths answer with the page; other paths stay 404', async () => {
    for (const path of [
      '/',
      '/suggest',
      '/privacy',
      '/your-data',
      '/team',
      '/upcoming',
      '/admin',
      '/admin/teams',
    ]) {
      const res = await page(path);
      expect(res.status, path).toBe(200);
      expect(meta(res.html, 'og:title'), path).toBe('Hodnocení streamerů');
    }
    expect((await page('/nothing-here')).status).toBe(404);
    expect((await page('/s/abc')).status).toBe(404);
  });
});

describe('installable (DECISIONS.md "Fifth wave" → "Push notifications")', () => {
  it('a web app manifest with a name, start_url, display standalone and icons of 192 and 512 that are served', async () => {
    const res = await t.client().get('/manifest.webmanifest');
    expect(res.status).toBe(200);
    const manifest = (typeof res.body === 'string' ? JSON.parse(res.body) : res.body) as {
      name: string;
      start_url: string;
      display: string;
      icons: { src: string; sizes: string; type: string }[];
    };
    expect(manifest.name).toBeTruthy();
    expect(manifest.start_url).toBe('/');
    expect(manifest.display).toBe('standalone');
    expect(manifest.icons.map((i) => i.sizes).sort()).toEqual(['192x192', '512x512']);
    for (const icon of manifest.icons) {
      const file = await t.client().get(icon.src);
      expect(file.status, icon.src).toBe(200);
      expect(file.headers.get('content-type'), icon.src).toBe('image/png');
    }
    const home = await page('/');
    expect(home.html).toContain('<link rel="manifest" href="/manifest.webmanifest"');
    // The worker may ask the site's own API (a streamer's avatar for a message), nothing else.
    const worker = await t.client().get(SERVICE_WORKER);
    expect(worker.status).toBe(200);
    expect(worker.headers.get('content-security-policy')).toMatch(/^default-src 'none'; connect-src 'self';/);
  });
});

describe("the page's addresses are the service's (src/shared/pages.ts)", () => {
  it('an address the page routes is one the service answers with the page, and every other one 404', async () => {
    const paths = [
      '/',
      '/suggest',
      '/privacy',
      '/your-data',
      '/team',
      '/upcoming',
      '/admin',
      '/admin/teams',
      `/s/${rated}`,
      `/s/${rated}-any-slug`,
      `/s/${rated}-a%2Fb`,
      '/s/999999',
      '/suggest/',
      '/index.html',
      '/s/12/x',
      '/admin/Teams',
      '/admin/teams/x',
      '/nothing-here',
    ];
    for (const path of paths) {
      const res = await fetch(t.url + path, { headers: { accept: 'text/html' } });
      const route = routeOf(decodePath(path));
      // The service answers an unknown streamer id with the page too (404, the page says so).
      const expected = route.name === 'notFound' || path === '/s/999999' ? 404 : 200;
      expect(res.status, path).toBe(expected);
      await res.arrayBuffer();
    }
  });
});
