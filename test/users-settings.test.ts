import { beforeAll, describe, expect, it } from 'vitest';
import { useApp } from './helpers/app.ts';
import type { Client } from './helpers/client.ts';

const t = await useApp();
let admin: Client;
beforeAll(async () => {
  admin = await t.admin();
});

describe('/api/users', () => {
  it('lists users with ban and moderator flags; q matches login or display name', async () => {
    const u = await t.user({ login: 'findme_login', display_name: 'Zebra Person' });
    const list = (await admin.get('/api/users')).body as any[];
    expect(list.find((x) => x.id === u.id)).toEqual({
      id: u.id,
      provider: 'provider_a',
      provider_id: expect.any(String),
      login: 'findme_login',
      display_name: 'Zebra Person',
      avatar: '',
      last_seen: expect.stringMatching(/Z$/),
      banned: false,
      is_mod: false,
      is_admin: false,
      timeout_until: null,
      held: false,
    });
    expect((await admin.get('/api/users?q=FINDME')).body.map((x: any) => x.id)).toEqual([u.id]);
    expect((await admin.get('/api/users?q=zebra')).body.map((x: any) => x.id)).toEqual([u.id]);
    expect((await admin.get('/api/users?q=%25')).body).toEqual([]);
  });

  it('bans and unbans, makes and unmakes moderators', async () => {
    const u = await t.user();
    const c = await t.signedIn(u);
    expect((await admin.put(`/api/users?id=${u.id}`, { is_mod: true })).body).toEqual({ ok: true });
    expect((await c.get('/api/streamers?all=1')).status).toBe(200);
    expect((await c.put('/api/streamers?id=999999', { r: {} })).status).toBe(404); // moderator passes the guard
    await admin.put(`/api/users?id=${u.id}`, { is_mod: false });
    expect((await c.put('/api/streamers?id=999999', { r: {} })).status).toBe(401);

    await admin.put(`/api/users?id=${u.id}`, { banned: true });
    const row = (await admin.get('/api/users')).body.find((x: any) => x.id === u.id);
    expect(row).toMatchObject({ banned: true, is_mod: false });
    expect((await c.get('/api/rater_groups?my=1')).status).toBe(401);
    await admin.put(`/api/users?id=${u.id}`, { banned: false });
    expect((await c.get('/api/rater_groups?my=1')).status).toBe(200);
  });

  it('errors: 401 for non-administrators, Missing id, Nothing to update, User not found', async () => {
    expect((await t.client().get('/api/users')).status).toBe(401);
    expect((await t.client().put('/api/users?id=1', { banned: true })).status).toBe(401);
    expect((await admin.put('/api/users', { banned: true })).body).toEqual({
      error: 'Missing id',
      code: 'missing_id',
    });
    const u = await t.user();
    expect((await admin.put(`/api/users?id=${u.id}`, {})).body).toEqual({
      error: 'Nothing to update',
      code: 'nothing_to_update',
    });
    const res = await admin.put('/api/users?id=999999', { banned: true });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'User not found', code: 'user_not_found' });
  });
});

describe('/api/settings', () => {
  it('anyone reads auth_enabled; the administrator changes it', async () => {
    expect((await t.client().get('/api/settings')).body).toEqual({
      auth_enabled: false,
      guest_hold: 'none',
      guest_challenge: 'burst',
      refuse_repeats: false,
    });
    expect((await admin.put('/api/settings', { auth_enabled: true })).body).toEqual({ ok: true });
    expect((await t.client().get('/api/settings')).body).toEqual({
      auth_enabled: true,
      guest_hold: 'none',
      guest_challenge: 'burst',
      refuse_repeats: false,
    });
    await admin.put('/api/settings', { auth_enabled: 'false' });
    expect((await t.client().get('/api/settings')).body).toEqual({
      auth_enabled: false,
      guest_hold: 'none',
      guest_challenge: 'burst',
      refuse_repeats: false,
    }); // A person's words for off turn it off, whatever else is truthy turns it on.
    for (const [value, on] of [
      [1, true],
      ['no', false],
      ['yes', true],
      ['Off', false],
      [[], false],
    ] as const) {
      await admin.put('/api/settings', { auth_enabled: value });
      expect((await t.client().get('/api/settings')).body.auth_enabled, JSON.stringify(value)).toBe(on);
    }
  });

  it('a non-administrator gets 401 and the setting is unchanged; a missing value is 400', async () => {
    const res = await t.client().put('/api/settings', { auth_enabled: true });
    expect(res.status).toBe(401);
    expect((await t.client().get('/api/settings')).body).toEqual({
      auth_enabled: false,
      guest_hold: 'none',
      guest_challenge: 'burst',
      refuse_repeats: false,
    });
    expect((await admin.put('/api/settings', {})).body).toEqual({
      error: 'Missing auth_enabled',
      code: 'missing_auth_enabled',
    });
  });
});

describe('/healthz', () => {
  it('answers {ok: true} while the database answers', async () => {
    const res = await t.client().get('/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
  });
});
