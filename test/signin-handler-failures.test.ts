import { createServer } from 'node:http';
import { sql } from 'kysely';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { useApp } from './helpers/app.ts';
import { startFakeProviders } from './helpers/fake-providers.ts';
import { location, pathOf } from './helpers/signin.ts';

/** An answer of the garbled provider: its status, its content type and its body as sent. */
type Answer = { status: number; type?: string; body: string };
const json = (body: unknown): Answer => ({
  status: 200,
  type: 'application/json',
  body: JSON.stringify(body),
});
const TOKEN = json({ access_token: 'token-1', token_type: 'bearer', expires_in: 3600 });
const USERS = {
  provider_a: json({ data: [{ id: '5150', login: 'garbled', display_name: 'Garbled' }] }),
  provider_b: json({ data: [{ user_id: 5150, name: 'Garbled' }], message: 'OK' }),
};
const next: { token: Answer; user: Answer | null } = { token: TOKEN, user: null };

/**
 * Twitch's and Kick's token and user endpoints answering what a test says (a 500 page, text
 * that is no JSON, a token no header can carry), on 127.0.0.1; their authorize pages are the
 * fake providers', which hand the codes out.
 */
const garbled = createServer((req, res) => {
  const provider = req.url?.startsWith('/a/') ? 'provider_a' : 'provider_b';
  const answer = req.url?.endsWith('/token') ? next.token : (next.user ?? USERS[provider]);
  req.resume();
  res.writeHead(answer.status, answer.type ? { 'content-type': answer.type } : {}).end(answer.body);
});
await new Promise<void>((resolve) => garbled.listen(0, '127.0.0.1', resolve));
const at = `http://127.0.0.1:${(garbled.address() as { port: number }).port}`;
const fake = await startFakeProviders();
const t = await useApp({
  ...fake.env(),
  PROVIDER_A_TOKEN_URL: `${at}/a/token`,
  PROVIDER_A_USER_URL: `${at}/a/users`,
  PROVIDER_B_TOKEN_URL: `${at}/b/token`,
  PROVIDER_B_USER_URL: `${at}/b/users`,
  PROVIDER_TIMEOUT_MS: '60000',
});
afterAll(async () => {
  await fake.close();
  await new Promise((resolve) => garbled.close(resolve));
});
afterEach(() => {
  next.token = TOKEN;
  next.user = null;
});

type P = 'provider_a' | 'provider_b';

/** A sign-in started from a streamer's page, approved at the provider, and its callback's answer. */
async function callback(provider: P) {
  const c = t.client();
  const start = await c.get(`/api/oauth/login/${provider}?return=/s/3`);
  const auth = await fake.authorize(location(start));
  return { c, res: await c.get(pathOf(auth.location!)) };
}

/**
 * Where the browser goes on from the callback's answer: the redirect's address, or the one the
 * outage page sends it on to; anything else (a JSON error) is shown as it came.
 */
function landing(res: { status: number; headers: Headers; text: string }): string {
  if (res.status === 302) return location(res);
  const to = /<meta http-equiv="refresh" content="0; url=([^"]*)">/.exec(res.text)?.[1];
  const html = res.headers.get('content-type')?.startsWith('text/html');
  return html && to ? to.replaceAll('&amp;', '&') : `${res.status} ${res.text}`;
}

/**
 * SPEC.md: a sign-in's failures are not JSON errors; the browser goes back to the page it
 * started from with `auth_error`. So too when the callback fails inside its handler, past the
 * state's check: the provider's token or user endpoint answering a 500 page or garbage, or the
 * database failing the user's write (an outage: 503; a failure the service does not know: 500).
 */
describe('a sign-in callback that fails inside its handler', () => {
  const garbage = { status: 200, type: 'text/html', body: '<html><h1>Oops</h1>' };
  const page500 = { status: 500, type: 'text/html', body: '<html><h1>Internal Server Error</h1>' };
  // Garbage a header cannot carry: the user call cannot be made, as if no answer came (status 0).
  const unsendable = json({ access_token: 'token\r\nX-Injected: 1', token_type: 'bearer' });
  it.each([
    ['provider_a', 'token', page500, 'provider_a_token_failed_500'],
    ['provider_a', 'token', garbage, 'provider_a_no_token'],
    ['provider_a', 'token', unsendable, 'provider_a_user_failed'],
    ['provider_a', 'user', page500, 'provider_a_user_failed'],
    ['provider_a', 'user', garbage, 'provider_a_no_user'],
    ['provider_a', 'user', json({ data: [{ id: { no: 'string' } }] }), 'provider_a_no_user'],
    ['provider_b', 'token', page500, 'provider_b_token_500_see_debug'],
    ['provider_b', 'token', garbage, 'provider_b_no_token'],
    ['provider_b', 'token', unsendable, 'provider_b_user_failed_0_see_debug'],
    ['provider_b', 'user', { ...page500, status: 502 }, 'provider_b_user_failed_502_see_debug'],
    ['provider_b', 'user', garbage, 'provider_b_no_user'],
  ] as const)('%s: its %s endpoint answering %j goes back with %s', async (provider, call, answer, code) => {
    if (call === 'token') next.token = answer;
    else next.user = answer;
    const { c, res } = await callback(provider);
    expect(landing(res)).toBe(`/s/3?auth_error=${code}`);
    expect((await c.get('/api/oauth/me')).body.user).toBeNull();
  });

  it('the garbled provider signs in when it answers as the real one does (the cases above can fail)', async () => {
    for (const provider of ['provider_a', 'provider_b'] as const) {
      const { c, res } = await callback(provider);
      expect(landing(res)).toBe('/s/3');
      expect((await c.get('/api/oauth/me')).body.user).toMatchObject({ provider, display_name: 'Garbled' });
    }
  });

  /** Runs `run` while the database fails every new user's write as `failure` says. */
  async function failingUserWrites(failure: 'refused' | 'disk_full', run: () => Promise<void>) {
    const sqlite = t.database.sqlite;
    if (sqlite) {
      // A real SQLITE_FULL: the write of a user takes a megabyte more than the file may grow by.
      sqlite.exec('create table if not exists test_filler (b blob)');
      const body =
        failure === 'refused'
          ? "select raise(abort, 'refused')"
          : 'insert into test_filler values (randomblob(1000000))';
      sqlite.exec(`create trigger test_failing before insert on users begin ${body}; end`);
      const pages = Number(sqlite.pragma('page_count', { simple: true }));
      if (failure === 'disk_full') sqlite.pragma(`max_page_count = ${pages + 16}`);
    } else {
      const code = failure === 'refused' ? 'P0001' : '53100';
      await sql
        .raw(
          `create function test_failing() returns trigger language plpgsql as $$ begin raise exception 'refused' using errcode = '${code}'; end $$;
           create trigger test_failing before insert on users for each row execute function test_failing()`,
        )
        .execute(t.db);
    }
    try {
      await run();
    } finally {
      if (sqlite) {
        sqlite.pragma('max_page_count = 1073741823');
        sqlite.exec('drop trigger test_failing');
      } else {
        await sql.raw('drop trigger test_failing on users; drop function test_failing()').execute(t.db);
      }
    }
  }

  it.each(['provider_a', 'provider_b'] as const)(
    "%s: the database away from the user's write (a full disk): 503, the outage page, back with service_unavailable",
    async (provider) => {
      await failingUserWrites('disk_full', async () => {
        const { c, res } = await callback(provider);
        expect([res.status, res.headers.get('retry-after'), res.headers.get('location')]).toEqual([
          503,
          '5',
          null,
        ]);
        expect(landing(res)).toBe('/s/3?auth_error=service_unavailable');
        expect((await c.get('/api/oauth/me')).body.user).toBeNull();
      });
    },
  );

  it.each(['provider_a', 'provider_b'] as const)(
    "%s: a failure of the user's write the service does not know: 500, the same page, no detail",
    async (provider) => {
      await failingUserWrites('refused', async () => {
        const { c, res } = await callback(provider);
        expect([res.status, res.headers.get('retry-after'), res.headers.get('location')]).toEqual([
          500,
          null,
          null,
        ]);
        expect(landing(res)).toBe('/s/3?auth_error=service_unavailable');
        expect(res.text).not.toMatch(/refused|trigger|users/i);
        expect((await c.get('/api/oauth/me')).body.user).toBeNull();
      });
    },
  );
});
