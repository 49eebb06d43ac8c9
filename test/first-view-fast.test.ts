import { describe, expect, it } from 'vitest';
import { startApp } from './helpers/app.ts';

/**
 * The first view from memory before routing (cache/early.ts, pages/first-view.ts): the
 * home and streamer pages already rendered for the current content are answered byte for
 * byte and header for header as the route answers them, and a change is in the next answer.
 */
const headersOf = (h: Headers) =>
  [...h.entries()].filter(([k]) => !['date', 'connection', 'keep-alive'].includes(k)).sort();

describe('pages from memory before routing', () => {
  it('the same status, headers and bytes as the route, for every form of the answer', async () => {
    const app = await startApp({}, { logLevel: 'warn' });
    try {
      const id = await app.streamer('Fast Page', { s: 5, g: 5 });
      const unrated = await app.streamer('Not Yet');
      const etag = (await fetch(app.url + '/')).headers.get('etag')!;
      const variants: Record<string, string>[] = [
        {},
        { 'accept-encoding': 'br' },
        { 'accept-encoding': 'gzip, deflate' },
        { 'if-none-match': etag },
      ];
      for (const path of ['/', `/s/${id}`, `/s/${id}-fast-page`, `/s/${unrated}`, '/s/99999']) {
        for (const headers of variants) {
          // Through the route first (a cookie sends it there), which renders the page.
          const routed = await fetch(app.url + path, { headers: { ...headers, cookie: 'theme=dark' } });
          const before = app.app.earlyAnswers.served;
          const fast = await fetch(app.url + path, { headers });
          const label = `${path} ${JSON.stringify(headers)}`;
          expect(app.app.earlyAnswers.served, label).toBe(before + 1);
          expect(fast.status, label).toBe(routed.status);
          expect(headersOf(fast.headers), label).toEqual(headersOf(routed.headers));
          const [a, b] = await Promise.all([fast.arrayBuffer(), routed.arrayBuffer()]);
          expect(Buffer.from(a).equals(Buffer.from(b)), label).toBe(true);
        }
      }
      // A change: the next answer is rendered anew by the route, with the new content.
      await app.streamer('Newly Rated', { s: 9, g: 9 });
      const before = app.app.earlyAnswers.served;
      const next = await fetch(app.url + '/');
      expect(app.app.earlyAnswers.served).toBe(before);
      expect(await next.text()).toContain('Newly Rated');
      expect(next.headers.get('etag')).not.toBe(etag);
      // A query, or an address that is no page, is the route's.
      for (const path of ['/?x=1', '/s/abc', '/nothing']) {
        await fetch(app.url + path);
        const was = app.app.earlyAnswers.served;
        await fetch(app.url + path);
        expect(app.app.earlyAnswers.served, path).toBe(was);
      }
    } finally {
      await app.close();
    }
  });
});
