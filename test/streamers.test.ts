import { beforeAll, describe, expect, it } from 'vitest';
import { countRows, useApp } from './helpers/app.ts';
import type { Client } from './helpers/client.ts';

const t = await useApp();
let admin: Client;
beforeAll(async () => {
  admin = await t.admin();
});

const all = async (c: Client = admin) => (await c.get('/api/streamers?all=1')).body as any[];
const find = async (id: number) => (await all()).find((s) => s.id === id);
const rate = (id: number, body: unknown, c: Client = admin) => c.put(`/api/streamers?id=${id}`, body);
const R = (v: number) => ({ s: v, g: v, a: v, v: v, n: v, ns: v, o: v });

describe('POST /api/streamers (suggest and add)', () => {
  it('a visitor suggestion answers 201 {ok, id} and is stored as added_by viewer', async () => {
    const res = await t.client().post('/api/streamers', { name: 'Suggested One', submitter: 'fan' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ ok: true, id: expect.any(Number) });
    const s = await find(res.body.id);
    expect(s).toMatchObject({
      name: 'Suggested One',
      platform: 'provider_a',
      provider_b: '',
      kick_name: '',
      status: 'offline',
      game: '',
      title: '',
      evaluated: false,
      community_locked: false,
      added_by: 'viewer',
      r: R(0),
      reward: 0,
      team_id: null,
      team_name: null,
    });
    expect(s).not.toHaveProperty('submitter');
    expect(s).not.toHaveProperty('notes');
  });

  it('?admin=1 without an administrator session is 401 Unauthorized and stores nothing', async () => {
    const before = await countRows(t.db, 'streamers');
    const res = await t.client().post('/api/streamers?admin=1', { name: 'Sneaky' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Unauthorized' });
    expect(await countRows(t.db, 'streamers')).toBe(before);
  });

  it('?admin=1 by an administrator stores added_by admin', async () => {
    const res = await admin.post('/api/streamers?admin=1', { name: 'Admin Added', platform: 'provider_b' });
    expect(res.status).toBe(201);
    expect(await find(res.body.id)).toMatchObject({ added_by: 'admin', platform: 'provider_b' });
  });

  it('names are sanitized: tags, control characters and extra white space go, NFC, cut to 100', async () => {
    const res = await t.client().post('/api/streamers', {
      name: '  <b>Cafe\u0301</b>\u0000   Tom\t\n<script>x</script> ',
    });
    expect(res.status).toBe(201);
    expect((await find(res.body.id)).name).toBe('Café Tomx');
    const long = await t.client().post('/api/streamers', { name: 'L'.repeat(150) });
    expect((await find(long.body.id)).name).toBe('L'.repeat(100));
  });

  it.each([[''], ['a'], ['<i>b</i>'], ['   '], [' \u0000x ']])(
    'name %j (shorter than 2 after sanitizing) is 400 Invalid streamer name',
    async (name) => {
      const before = await countRows(t.db, 'streamers');
      const res = await t.client().post('/api/streamers', { name });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Invalid streamer name' });
      expect(await countRows(t.db, 'streamers')).toBe(before);
    },
  );

  it('a missing or non-text name is 400 Invalid streamer name', async () => {
    for (const body of [{}, { name: null }, { name: { x: 1 } }, { name: ['ab'] }]) {
      const res = await t.client().post('/api/streamers', body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Invalid streamer name' });
    }
  });

  it('a duplicate name, in any letter case, is 409 Streamer already exists', async () => {
    await t.client().post('/api/streamers', { name: 'Twin Name' });
    for (const name of ['Twin Name', 'twin name', ' TWIN   name ', '<b>Twin</b> Name']) {
      const res = await t.client().post('/api/streamers', { name });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: 'Streamer already exists' });
    }
  });

  it('an unknown platform becomes provider_a; kick_name and provider_b are taken and sanitized', async () => {
    const a = await t
      .client()
      .post('/api/streamers', { name: 'Plat One', platform: 'youtube', kick_name: ' <b>kk</b> ' });
    const b = await t
      .client()
      .post('/api/streamers', { name: 'Plat Two', platform: 'provider_b', provider_b: 'kb' });
    expect(await find(a.body.id)).toMatchObject({
      platform: 'provider_a',
      kick_name: 'kk',
      provider_b: 'kk',
    });
    expect(await find(b.body.id)).toMatchObject({ platform: 'provider_b', provider_b: 'kb' });
  });

  it('the submitter is trimmed, cut to 60 characters and never returned', async () => {
    const res = await t
      .client()
      .post('/api/streamers', { name: 'Submitted', submitter: `  ${'ž'.repeat(70)}  ` });
    const row = await t.db
      .selectFrom('streamers')
      .select('submitter')
      .where('id', '=', res.body.id)
      .executeTakeFirstOrThrow();
    expect(row.submitter).toBe('ž'.repeat(60));
    for (const c of [admin, t.client()]) {
      expect(JSON.stringify((await c.get('/api/streamers?all=1')).body)).not.toContain('žžž');
    }
  });

  it('form-encoded bodies are accepted', async () => {
    const res = await t.client().request('POST', '/api/streamers', { form: { name: 'Form Posted' } });
    expect(res.status).toBe(201);
  });
});

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
});

describe('PUT /api/streamers rating mode', () => {
  it('administrator: scores clamped to 0..10 (numeric strings count, fractions truncate, junk is 0)', async () => {
    const id = await t.streamer();
    const res = await rate(id, { r: { s: 11, g: -3, a: '7', v: 7.9, n: 'abc', ns: null }, reward: 50 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    const s = await find(id);
    expect(s.r).toEqual({ s: 10, g: 0, a: 7, v: 7, n: 0, ns: 0, o: 0 });
    expect(s.evaluated).toBe(true);
  });

  it('administrator: reward clamped to 0..130, missing is 0', async () => {
    const id = await t.streamer();
    await rate(id, { r: R(1), reward: 500 });
    expect((await find(id)).reward).toBe(130);
    await rate(id, { r: R(1), reward: -4 });
    expect((await find(id)).reward).toBe(0);
    await rate(id, { r: R(1), reward: '77' });
    expect((await find(id)).reward).toBe(77);
    await rate(id, { r: R(1) });
    expect((await find(id)).reward).toBe(0);
  });

  it('administrator: status live or offline, anything else or missing is offline', async () => {
    const id = await t.streamer();
    await rate(id, { r: R(1), status: 'live' });
    expect((await find(id)).status).toBe('live');
    await rate(id, { r: R(1), status: 'away' });
    expect((await find(id)).status).toBe('offline');
    await rate(id, { r: R(1), status: 'live' });
    await rate(id, { r: R(1) });
    expect((await find(id)).status).toBe('offline');
  });

  it('administrator: game cut to 100, title to 200, notes to 2000, all trimmed; provider_b sanitized', async () => {
    const id = await t.streamer();
    await rate(id, {
      r: R(2),
      game: `  ${'g'.repeat(150)}`,
      title: `${'t'.repeat(250)}  `,
      notes: `  ${'n'.repeat(2500)}`,
      provider_b: ' <i>kick</i>name ',
    });
    const s = await find(id);
    expect(s.game).toBe('g'.repeat(100));
    expect(s.title).toBe('t'.repeat(200));
    expect(s.notes).toBe('n'.repeat(2000));
    expect(s.provider_b).toBe('kickname');
    expect(s.kick_name).toBe('kickname');
    await rate(id, { r: R(2), kick_name: 'other' });
    expect((await find(id)).provider_b).toBe('other');
    await rate(id, { r: R(2) });
    expect(await find(id)).toMatchObject({ game: '', title: '', provider_b: '' });
    expect(await find(id)).not.toHaveProperty('notes');
  });

  it('evaluated follows the score sum on every update; a zero sum stores a zero rating', async () => {
    const id = await t.streamer();
    expect((await find(id)).evaluated).toBe(false);
    await rate(id, { r: { o: 1 } });
    expect((await find(id)).evaluated).toBe(true);
    await rate(id, { r: R(0), reward: 90 });
    const s = await find(id);
    expect(s.evaluated).toBe(false);
    expect(s.r).toEqual(R(0));
    expect(
      await t.db.selectFrom('ratings').selectAll().where('streamer_id', '=', id).executeTakeFirst(),
    ).toMatchObject({ s: 0, o: 0 });
    // not evaluated, so not in the public list even though it has a rating
    expect((await t.client().get('/api/streamers')).body.some((x: any) => x.id === id)).toBe(false);
    await rate(id, {});
    expect((await find(id)).evaluated).toBe(false);
  });

  it('moderator: reward is round(30 + sum/70*100) when evaluated, else 0; body reward ignored', async () => {
    const mod = await t.signedIn(await t.user({}, { mod: true }));
    const id = await t.streamer();
    await rate(id, { r: { s: 10, g: 10, a: 10, v: 10, n: 10, ns: 10, o: 10 }, reward: 5 }, mod);
    expect((await find(id)).reward).toBe(130);
    await rate(id, { r: { s: 1 } }, mod);
    expect((await find(id)).reward).toBe(31); // 31.43
    await rate(id, { r: { s: 10, g: 10, a: 10, v: 5 } }, mod);
    expect((await find(id)).reward).toBe(80); // 30 + 35/70*100
    await rate(id, { r: { s: 3, g: 3, a: 3, v: 3, n: 3, ns: 3, o: 3 } }, mod);
    expect((await find(id)).reward).toBe(60);
    await rate(id, { r: R(0), reward: 100 }, mod);
    expect((await find(id)).reward).toBe(0);
  });

  it('moderator: cannot change status, game, title or provider_b; may set notes and scores', async () => {
    const mod = await t.signedIn(await t.user({}, { mod: true }));
    const id = await t.streamer();
    await rate(id, { r: R(1), status: 'live', game: 'Chess', title: 'Hello', provider_b: 'kb' });
    await rate(
      id,
      { r: R(4), notes: 'mod note', status: 'offline', game: 'X', title: 'Y', provider_b: 'zz' },
      mod,
    );
    expect(await find(id)).toMatchObject({
      status: 'live',
      game: 'Chess',
      title: 'Hello',
      provider_b: 'kb',
      notes: 'mod note',
      r: R(4),
      evaluated: true,
    });
  });

  it('an administrator who is also a moderator follows the administrator rules', async () => {
    const both = await t.signedIn(await t.user({}, { mod: true }));
    await both.post('/api/auth/login', { password: 'correct horse battery staple' });
    const id = await t.streamer();
    await rate(id, { r: R(1), reward: 7, status: 'live' }, both);
    expect(await find(id)).toMatchObject({ reward: 7, status: 'live' });
  });

  it('anonymous callers and signed-in non-moderators get 401 Unauthorized and change nothing', async () => {
    const id = await t.streamer();
    for (const c of [t.client(), await t.signedIn(await t.user())]) {
      const res = await rate(id, { r: R(5) }, c);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'Unauthorized' });
    }
    expect((await find(id)).evaluated).toBe(false);
  });

  it.each([[''], ['?id='], ['?id=0'], ['?id=-3'], ['?id=abc']])('PUT %s is 400 Missing id', async (q) => {
    const res = await admin.put(`/api/streamers${q}`, { r: R(1) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Missing id' });
  });

  it('an unknown id is 404 Streamer not found, also a huge one', async () => {
    for (const id of [999999, 99999999999999]) {
      const res = await rate(id, { r: R(1) });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Streamer not found' });
    }
  });

  it('broken JSON is 400 Invalid JSON and leaves the rating unchanged', async () => {
    const id = await t.streamer(undefined, R(3));
    const res = await admin.put(`/api/streamers?id=${id}`, '{"r": {"s": 9', {
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Invalid JSON' });
    expect((await find(id)).r).toEqual(R(3));
  });
});

describe('PUT /api/streamers lock mode', () => {
  it.each([[true], [1], ['1'], ['true']])('community_locked %j locks', async (value) => {
    const id = await t.streamer();
    const res = await admin.put(`/api/streamers?id=${id}&lock=1`, { community_locked: value });
    expect(res.body).toEqual({ ok: true });
    expect((await find(id)).community_locked).toBe(true);
  });

  it.each([[false], [0], ['0'], ['no'], [null]])('community_locked %j unlocks', async (value) => {
    const id = await t.streamer();
    await admin.put(`/api/streamers?id=${id}&lock=1`, { community_locked: true });
    await admin.put(`/api/streamers?id=${id}&lock=1`, { community_locked: value });
    expect((await find(id)).community_locked).toBe(false);
  });

  it('a missing community_locked unlocks; the rating is untouched by lock mode', async () => {
    const id = await t.streamer(undefined, R(6));
    await admin.put(`/api/streamers?id=${id}&lock=1`, { community_locked: true });
    await admin.put(`/api/streamers?id=${id}&lock=1`, {});
    const s = await find(id);
    expect(s.community_locked).toBe(false);
    expect(s.r).toEqual(R(6));
  });

  it('a moderator gets 403 Admin only; anonymous gets 401', async () => {
    const id = await t.streamer();
    const mod = await t.signedIn(await t.user({}, { mod: true }));
    const res = await mod.put(`/api/streamers?id=${id}&lock=1`, { community_locked: true });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'Admin only' });
    expect((await t.client().put(`/api/streamers?id=${id}&lock=1`, {})).status).toBe(401);
    expect((await find(id)).community_locked).toBe(false);
  });

  it('lock without id is 400 Missing id; unknown id 404', async () => {
    expect((await admin.put('/api/streamers?lock=1', { community_locked: true })).body).toEqual({
      error: 'Missing id',
    });
    const res = await admin.put('/api/streamers?id=987654&lock=1', { community_locked: true });
    expect(res.status).toBe(404);
  });
});

describe('DELETE /api/streamers', () => {
  it('deletes the streamer with its rating, comments and community ratings, and unlinks its team', async () => {
    const id = await t.streamer('Doomed', R(4));
    await t.client().post('/api/comments', { streamer_id: id, body: 'bye bye' });
    const group = await admin.post('/api/rater_groups', { name: 'Doomed Team', streamer_id: id });
    const u = await t.user();
    await t.db
      .insertInto('community_ratings')
      .values({
        group_id: group.body.id,
        streamer_id: id,
        user_id: u.id,
        ...R(3),
        updated_at: new Date().toISOString(),
      })
      .execute();

    const res = await admin.del(`/api/streamers?id=${id}`);
    expect(res.body).toEqual({ ok: true });
    expect(await find(id)).toBeUndefined();
    const left = async (table: 'ratings' | 'comments' | 'community_ratings') =>
      (await t.db.selectFrom(table).select('streamer_id').where('streamer_id', '=', id).execute()).length;
    expect(await left('ratings')).toBe(0);
    expect(await left('comments')).toBe(0);
    expect(await left('community_ratings')).toBe(0);
    const groups = (await admin.get('/api/rater_groups')).body;
    expect(groups.find((g: any) => g.id === group.body.id)).toMatchObject({
      streamer_id: null,
      streamer_name: null,
    });
  });

  it('moderators and anonymous callers get 401 Unauthorized', async () => {
    const id = await t.streamer();
    const mod = await t.signedIn(await t.user({}, { mod: true }));
    for (const c of [mod, t.client()]) {
      const res = await c.del(`/api/streamers?id=${id}`);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'Unauthorized' });
    }
    expect(await find(id)).toBeDefined();
  });

  it('missing id is 400 Missing id; unknown id is 404 Streamer not found', async () => {
    expect((await admin.del('/api/streamers')).body).toEqual({ error: 'Missing id' });
    expect((await admin.del('/api/streamers?id=0')).body).toEqual({ error: 'Missing id' });
    const res = await admin.del('/api/streamers?id=424242');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Streamer not found' });
  });
});

describe('other methods', () => {
  it('PATCH /api/streamers is 405 Method not allowed, before any role check', async () => {
    const res = await t.client().request('PATCH', '/api/streamers', { body: {} });
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ error: 'Method not allowed' });
  });
});
