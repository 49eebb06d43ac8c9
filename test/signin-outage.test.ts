import { describe, expect, it } from 'vitest';
import { startApp } from './helpers/app.ts';
import { location, pathOf, useSignIn } from './helpers/signin.ts';
import { fullDisk } from './helpers/full-disk.ts';

const { t, fake } = await useSignIn();
const sqlite = t.database.sqlite;

/**
 * The sign-in's callback is where the browser lands from Twitch or Kick: its failures go back
 * to the page with `auth_error` (SPEC.md), and a full disk or a database away must not leave
 * the browser on a JSON error (an operator's walk). It stays a 503 with `Retry-After`, and the
 * page it shows sends the browser on to the page the sign-in started from, the code in
 * `auth_error`, as every other failure of the callback does. A start that cannot write its
 * state (nor, with rate limits on, its count) is answered the same page.
 */
describe("the sign-in during an outage (a moderator's walk)", () => {
  it.skipIf(!sqlite)(
    'a full disk: 503 with Retry-After, an HTML page that sends the browser back with auth_error',
    async () => {
      const c = t.client();
      // Started from a streamer's page: the page it goes back to.
      const start = await c.get('/api/oauth/login/provider_a?return=/s/3');
      const callback = pathOf((await fake.authorize(location(start))).location!);
      // The session was started before the disk filled: no room for its sign-in's rows.
      await fullDisk(sqlite!, async () => {
        const res = await c.get(callback);
        expect(res.status).toBe(503);
        expect(res.headers.get('retry-after')).toBe('5');
        expect(res.headers.get('content-type')).toMatch(/^text\/html/);
        expect(res.headers.get('location')).toBeNull();
        const html = res.text;
        expect(html).toContain(
          '<meta http-equiv="refresh" content="0; url=/s/3?auth_error=service_unavailable"',
        );
        expect(html).toContain('<a href="/s/3?auth_error=service_unavailable">');
      });
    },
  );

  it.skipIf(!sqlite)(
    "a full disk at the start: its state cannot be written, the same page, back to the start's page",
    async () => {
      // Rate limits on too, as they are by default: there the start's first write is its count.
      const limited = await startApp({ ...fake.env(), RATE_LIMIT: 'on' });
      try {
        for (const app of [t, limited]) {
          // Full before the sign-in starts: no room for the session that keeps its state.
          await fullDisk(app.database.sqlite!, async () => {
            for (const path of [
              '/api/oauth/login/provider_a?return=/s/3',
              '/api/oauth?action=login&provider=provider_b&return=/s/3',
            ]) {
              const res = await app.client().get(path);
              const limits = app.config.rateLimit;
              expect([limits, path, res.status, res.headers.get('retry-after')]).toEqual([
                limits,
                path,
                503,
                '5',
              ]);
              expect(res.headers.get('content-type')).toMatch(/^text\/html/);
              expect(res.headers.get('location')).toBeNull();
              expect(res.headers.get('set-cookie')).toBeNull();
              expect(res.text).toContain(
                '<meta http-equiv="refresh" content="0; url=/s/3?auth_error=service_unavailable"',
              );
            }
          });
        }
      } finally {
        await limited.close();
      }
    },
  );

  it('a failure that is no outage still answers the redirect (a state that does not match)', async () => {
    const res = await t.client().get('/api/oauth/login/provider_a?code=x&state=y');
    expect([res.status, location(res)]).toEqual([302, '/?auth_error=invalid_state']);
  });
});
