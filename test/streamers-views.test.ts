import { beforeAll, describe, expect, it } from 'vitest';
import { itemInPublicView } from '../src/shared/public-view.ts';
import type { Client } from './helpers/client.ts';
import { R, useStreamers } from './helpers/streamers.ts';

const { t, admin, rate } = await useStreamers();

describe('GET /api/streamers views', () => {
  let ids: Record<string, number>;
  let mod: Client;
  let member: Client;
  let plain: Client;

  beforeAll(async () => {
    ids = {
      zeta: await t.streamer('zeta view', R(9)),
      alpha: await t.streamer('Alpha view', R(5)),
      beta: await t.streamer('beta view', R(5)),
      unrated: await t.streamer('Unrated view'),
      Gamma: await t.streamer('Gamma view'),
    };
    await rate(ids.zeta!, { r: R(9), notes: 'secret note', reward: 100 });
    mod = await t.signedIn(await t.user({}, { mod: true }));
    const memberUser = await t.user();
    const group = await admin.post('/api/rater_groups', { name: 'View Team', streamer_id: ids.alpha });
    await admin.post('/api/rater_groups?members=1', { group_id: group.body.id, login: memberUser.login });
    member = await t.signedIn(memberUser);
    plain = await t.signedIn(await t.user());
  });

  const mine = (list: any[]) => list.filter((s) => Object.values(ids).includes(s.id));

  it('public view: only evaluated, rated streamers, highest sum first, ties by name', async () => {
    const list = mine((await t.client().get('/api/streamers')).body);
    expect(list.map((s) => s.name)).toEqual(['zeta view', 'Alpha view', 'beta view']);
    for (const s of list) {
      expect(s.added_by).toBe('admin');
      expect(s).not.toHaveProperty('notes');
    }
  });

  it('administrators and moderators without all=1, and signed-in non-members, get the public view', async () => {
    for (const c of [admin, mod, plain]) {
      const list = mine((await c.get('/api/streamers')).body);
      expect(list.map((s) => s.name)).toEqual(['zeta view', 'Alpha view', 'beta view']);
    }
    const list = mine((await plain.get('/api/streamers?all=1')).body);
    expect(list).toHaveLength(3);
  });

  it('full view (admin or moderator with all=1): every streamer with notes, evaluated first then name', async () => {
    for (const c of [admin, mod]) {
      const list = mine((await c.get('/api/streamers?all=1')).body);
      expect(list.map((s) => s.name)).toEqual([
        'Alpha view',
        'beta view',
        'zeta view',
        'Gamma view',
        'Unrated view',
      ]);
      expect(list.find((s) => s.name === 'zeta view').notes).toBe('secret note');
      expect(list.find((s) => s.name === 'Gamma view')).not.toHaveProperty('notes');
    }
  });

  it('team view (member of a group, not staff): every streamer, no notes, evaluated first then name', async () => {
    const list = mine((await member.get('/api/streamers')).body);
    expect(list.map((s) => s.name)).toEqual([
      'Alpha view',
      'beta view',
      'zeta view',
      'Gamma view',
      'Unrated view',
    ]);
    for (const s of list) {
      expect(s).not.toHaveProperty('notes');
      expect(s.added_by).toBe('admin');
    }
  });

  it('items carry r, reward and the linked team', async () => {
    const alpha = (await member.get('/api/streamers')).body.find((s: any) => s.id === ids.alpha);
    expect(alpha).toMatchObject({ r: R(5), team_name: 'View Team', team_id: expect.any(Number) });
    const zeta = (await t.client().get('/api/streamers')).body.find((s: any) => s.id === ids.zeta);
    expect(zeta.reward).toBe(100);
  });

  it('a banned member is treated as signed out and gets the public view', async () => {
    const u = await t.user();
    const g = await admin.post('/api/rater_groups', { name: 'Ban Team' });
    await admin.post('/api/rater_groups?members=1', { group_id: g.body.id, login: u.login });
    const c = await t.signedIn(u);
    expect(mine((await c.get('/api/streamers')).body)).toHaveLength(5);
    await admin.put(`/api/users?id=${u.id}`, { banned: true });
    expect(mine((await c.get('/api/streamers')).body)).toHaveLength(3);
  });

  it("the page's rule of the Public view (shared/public-view.ts) says of every item what the service's condition does", async () => {
    // Every way in or out: rated, a zero rating (a rating row, not evaluated), never rated, and
    // evaluated without a rating row, which no request makes but the condition tells apart.
    const zeroed = await t.streamer('Zeroed view', R(5));
    await rate(zeroed, { r: R(0) });
    const bare = await t.streamer('Bare view');
    await t.db.updateTable('streamers').set({ evaluated: 1 }).where('id', '=', bare).execute();
    const shown = new Set((await t.client().get('/api/streamers')).body.map((s: { id: number }) => s.id));
    const full = (await admin.get('/api/streamers?all=1')).body;
    const state = (id: number | undefined) => {
      const s = full.find((item: { id: number }) => item.id === id);
      return { evaluated: s.evaluated, rated: s.rated_at !== null };
    };
    expect(state(ids.zeta)).toEqual({ evaluated: true, rated: true });
    expect(state(zeroed)).toEqual({ evaluated: false, rated: true });
    expect(state(ids.unrated)).toEqual({ evaluated: false, rated: false });
    expect(state(bare)).toEqual({ evaluated: true, rated: false });
    for (const s of full) expect(itemInPublicView(s), s.name).toBe(shown.has(s.id));
  });
});
