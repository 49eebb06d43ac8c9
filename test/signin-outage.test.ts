import { describe, expect, it } from 'vitest';
import { location, pathOf, useSignIn } from './helpers/signin.ts';
import { fillSessions } from './helpers/full-disk.ts';

const { t, fake } = await useSignIn();
const sqlite = t.database.sqlite;

/**
 * The sign-in's callback is where the browser lands from Twitch or Kick: its failures go back
 * to the page with `auth_error` (SPEC.md), and a full disk or a database away must not leave
 * the browser on a JSON error (an operator's walk). It stays a 503 with `Retry-After`, and the
 * page it shows sends the browser on to the page the sign-in started from, the code in
 * `auth_error`, as every other failure of the callback does.
 */
describe("the sign-in callback during an outage (a moderator's walk)", () => {
  it.skipIf(!sqlite)(
    'a full disk: 503 with Retry-After, an HTML page that sends the browser back with auth_error',
    async () => {
      const c = t.client();
      // Started from a streamer's page: the page it goes back to.
      const start = await c.get('/api/oauth/login/provider_a?return=/s/3');
      const callback = pathOf((await fake.authorize(location(start))).location!);
      // The session was started before the disk filled: no room for its sign-in's rows.
      const pages = Number(sqlite!.pragma('page_count', { simple: true }));
      sqlite!.pragma(`max_page_count = ${pages}`);
      fillSessions(sqlite!);
      try {
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
      } finally {
        sqlite!.pragma('max_page_count = 1073741823');
        sqlite!.prepare("delete from sessions where id like 'fill-%'").run();
      }
    },
  );

  it('a failure that is no outage still answers the redirect (a state that does not match)', async () => {
    const res = await t.client().get('/api/oauth/login/provider_a?code=x&state=y');
    expect([res.status, location(res)]).toEqual([302, '/?auth_error=invalid_state']);
  });
});
