import { describe, expect, it } from 'vitest';

import { ADMIN_PASSWORD, startApp } from './helpers/app.ts';

import { location, useSignIn } from './helpers/signin.ts';

const { fake, t, signIn } = await useSignIn();

describe('current user, logout and debug', () => {
  it('is_mod is true for a moderator; is_admin reflects the administrator flag', async () => {
    const c = t.client();
    await signIn(c, 'provider_a');
    const me = (await c.get('/api/oauth/me')).body;
    await t.db
      .insertInto('moderators')
      .values({ user_id: me.user.id })
      .onConflict((oc) => oc.doNothing())
      .execute();
    await c.post('/api/auth/login', { password: ADMIN_PASSWORD });
    expect((await c.get('/api/oauth?action=me')).body).toMatchObject({
      is_mod: true,
      is_admin: true,
      banned: false,
    });
    await t.db.deleteFrom('moderators').where('user_id', '=', me.user.id).execute();
  });

  it('a banned user is removed from the session and reported banned once', async () => {
    fake.a.nextUser = { id: 'banned-1', login: 'baddie', display_name: 'Baddie' };
    const c = t.client();
    await signIn(c, 'provider_a');
    fake.a.nextUser = {
      id: '141981764',
      login: 'twitchdev',
      display_name: 'TwitchDev',
      avatar: 'https://static-cdn.example/a.png',
    };
    await t.db.updateTable('users').set({ banned: 1 }).where('provider_id', '=', 'banned-1').execute();
    expect((await c.get('/api/oauth/me')).body).toEqual({
      user: null,
      is_admin: false,
      is_mod: false,
      banned: true,
      speaks_for: [],
      timeout_until: null,
      email: null,
      email_pending: false,
    });
    expect((await c.get('/api/oauth/me')).body).toEqual({
      user: null,
      is_admin: false,
      is_mod: false,
      banned: false,
      speaks_for: [],
      timeout_until: null,
      email: null,
      email_pending: false,
    });
  });

  it('an anonymous visitor gets user null and all flags false, with no session created', async () => {
    const res = await t.client().get('/api/oauth/me');
    expect(res.body).toEqual({
      user: null,
      is_admin: false,
      is_mod: false,
      banned: false,
      speaks_for: [],
      timeout_until: null,
      email: null,
      email_pending: false,
    });
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it('logout removes only the user and redirects to /', async () => {
    const c = await t.admin();
    await signIn(c, 'provider_a');
    for (const path of ['/api/oauth/logout', '/api/oauth?action=logout']) {
      const res = await c.get(path);
      expect(res.status).toBe(302);
      expect(location(res)).toBe('/');
      expect((await c.get('/api/oauth/me')).body).toMatchObject({ user: null, is_admin: true });
    }
  });

  it('debug answers only an administrator, with every field of SPEC.md', async () => {
    expect((await t.client().get('/api/oauth/debug')).status).toBe(401);
    expect((await t.client().get('/api/oauth?action=debug')).body).toEqual({
      error: 'Unauthorized',
      code: 'unauthorized',
    });
    for (let i = 0; i < 6; i++) await t.client().get('/api/oauth/login/provider_b');
    const admin = await t.admin();
    await signIn(admin, 'provider_b');
    const res = await admin.get('/api/oauth/debug');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      session_id: expect.stringMatching(/^[0-9a-f]{16}$/),
      oauth_user: expect.objectContaining({ provider: 'provider_b' }),
      provider_b_debug: expect.objectContaining({ user_status: 200 }),
      provider_a_redirect: t.config.providers.provider_a.redirectUri,
      provider_b_redirect: t.config.providers.provider_b.redirectUri,
      provider_a_client_set: true,
      provider_b_client_set: true,
      https_detected: false,
      recent_db_states: expect.any(Array),
    });
    const states = res.body.recent_db_states;
    expect(states).toHaveLength(5);
    expect(
      states.every(
        (s: any) => s.state !== '__debug__' && s.provider === 'provider_b' && Object.keys(s).length === 3,
      ),
    ).toBe(true);
    const times = states.map((s: any) => s.created_at);
    expect(times).toEqual([...times].sort().reverse());
    expect(res.text).not.toContain(admin.sid!);
    expect(
      (await admin.get('/api/oauth/debug', { headers: { 'x-forwarded-proto': 'https' } })).body
        .https_detected,
    ).toBe(true);
  });

  it('OAUTH_DEBUG_PUBLIC=true opens debug to anyone; provider_b_redirect is empty without a client id', async () => {
    const app = await startApp({ OAUTH_DEBUG_PUBLIC: 'true' });
    try {
      const res = await app.client().get('/api/oauth/debug');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        session_id: '',
        oauth_user: null,
        provider_b_debug: null,
        provider_b_redirect: '',
        provider_a_client_set: false,
        recent_db_states: [],
      });
    } finally {
      await app.close();
    }
  });

  it.each([
    ['/api/oauth/login/provider_c'],
    ['/api/oauth?action=login&provider=nope'],
    ['/api/oauth?action=login'],
    ['/api/oauth?action=whoami'],
    ['/api/oauth'],
    ['/api/oauth/other'],
  ])('%s is 404 Not found', async (path) => {
    const res = await t.client().get(path);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Not found', code: 'not_found' });
  });

  it('sign-in starts are limited to 20 a minute per address', async () => {
    const app = await startApp({ ...fake.env(), RATE_LIMIT: 'on' });
    try {
      const statuses = [];
      for (let i = 0; i < 21; i++)
        statuses.push((await app.client().get('/api/oauth/login/provider_a')).status);
      expect(statuses.filter((s) => s === 302)).toHaveLength(20);
      expect(statuses[20]).toBe(429);
    } finally {
      await app.close();
    }
  });
});

describe('a signed-in user in the rest of the service', () => {
  it('appears in /api/users, joins a team by login, comments under their name and sees the team view', async () => {
    fake.b.nextUser = { id: 9001, login: '', display_name: 'TeamKicker' };
    const c = t.client();
    await signIn(c, 'provider_b');
    fake.b.nextUser = {
      id: 123456,
      login: '',
      display_name: 'KickUser',
      avatar: 'https://files.kick.example/u.webp',
    };
    const admin = await t.admin();
    const users = (await admin.get('/api/users?q=teamkicker')).body;
    expect(users).toHaveLength(1);
    expect(users[0]).toMatchObject({ provider: 'provider_b', provider_id: '9001', login: 'TeamKicker' });

    const sid = await t.streamer('Team Target');
    const group = await admin.post('/api/rater_groups', { name: 'Kick Team', streamer_id: sid });
    const added = await admin.post('/api/rater_groups?members=1', {
      group_id: group.body.id,
      login: 'teamkicker',
      provider: 'provider_b',
    });
    expect(added.body).toEqual({ ok: true, display_name: 'TeamKicker', role: 'rater' });

    const comment = await c.post('/api/comments', { streamer_id: sid, body: 'rating soon', author: 'x' });
    expect(comment.body).toMatchObject({ author: 'TeamKicker', user_provider: 'provider_b' });
    const list = (await c.get('/api/streamers')).body;
    expect(list.some((s: any) => s.id === sid && s.evaluated === false)).toBe(true);
    expect((await c.get('/api/rater_groups?my=1')).body).toEqual([
      { id: group.body.id, name: 'Kick Team', streamer_id: sid, role: 'rater' },
    ]);
  });
});
