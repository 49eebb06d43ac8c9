import { beforeAll, describe, expect, it } from 'vitest';
import { countRows, useApp } from './helpers/app.ts';
import type { Client } from './helpers/client.ts';

const t = await useApp();
let admin: Client;
beforeAll(async () => {
  admin = await t.admin();
});

const groups = async () => (await admin.get('/api/rater_groups')).body as any[];
const group = async (id: number) => (await groups()).find((g) => g.id === id);
const create = (body: unknown) => admin.post('/api/rater_groups', body);
const addMember = (body: unknown) => admin.post('/api/rater_groups?members=1', body);

describe('POST /api/rater_groups', () => {
  it('creates a group: 201 {id, name, streamer_id, created_at}, name trimmed', async () => {
    const sid = await t.streamer('Grouped');
    const res = await create({ name: '  Night Owls  ', streamer_id: sid });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: 'Night Owls',
      streamer_id: sid,
      created_at: expect.stringMatching(/Z$/),
    });
    expect(await group(res.body.id)).toMatchObject({
      streamer_name: 'Grouped',
      members: [],
      ratings_count: 0,
    });
  });

  it.each([[0], [''], [null], ['0'], [false]])(
    'a falsy streamer_id (%j) stores null',
    async (streamer_id) => {
      const res = await create({ name: `Falsy ${JSON.stringify(streamer_id)}`, streamer_id });
      expect(res.status).toBe(201);
      expect(res.body.streamer_id).toBeNull();
    },
  );

  it('an empty name is 400 Missing name', async () => {
    for (const body of [{}, { name: '' }, { name: '   ' }, { name: null }]) {
      const res = await create(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Missing name' });
    }
  });

  it('a taken name is 409 Group name already exists', async () => {
    await create({ name: 'Taken' });
    const res = await create({ name: ' Taken ' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'Group name already exists' });
  });

  it('a streamer that already has a team is 409 This streamer already has a team', async () => {
    const sid = await t.streamer();
    await create({ name: 'First Team', streamer_id: sid });
    const before = await countRows(t.db, 'rater_groups');
    const res = await create({ name: 'Second Team', streamer_id: sid });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'This streamer already has a team' });
    expect(await countRows(t.db, 'rater_groups')).toBe(before);
  });

  it('an unknown streamer is 404 Streamer not found', async () => {
    const res = await create({ name: 'Ghost Team', streamer_id: 888888 });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Streamer not found' });
  });

  it('non-administrators get 401 Unauthorized', async () => {
    const mod = await t.signedIn(await t.user({}, { mod: true }));
    for (const c of [t.client(), mod]) {
      const res = await c.post('/api/rater_groups', { name: 'Nope' });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'Unauthorized' });
    }
  });
});

describe('GET /api/rater_groups', () => {
  it('the administrator list is ordered by name, members owner first then by added_at', async () => {
    const g = await create({ name: 'aaa Ordered' });
    const [u1, u2, u3] = [await t.user(), await t.user(), await t.user()];
    await addMember({ group_id: g.body.id, login: u1.login });
    t.clock.advance(1000);
    await addMember({ group_id: g.body.id, login: u2.login });
    t.clock.advance(1000);
    await addMember({ group_id: g.body.id, login: u3.login, role: 'owner' });
    t.clock.offset = 0;
    const found = await group(g.body.id);
    expect(found.members.map((m: any) => [m.id, m.role])).toEqual([
      [u3.id, 'owner'],
      [u1.id, 'rater'],
      [u2.id, 'rater'],
    ]);
    expect(Object.keys(found.members[0]).sort()).toEqual(
      ['avatar', 'display_name', 'id', 'login', 'member_id', 'provider', 'role'].sort(),
    );
    const names = (await groups()).map((x) => x.name.toLowerCase());
    expect(names).toEqual([...names].sort());
  });

  it("my=1 lists the signed-in user's groups {id, name, streamer_id} by name", async () => {
    const u = await t.user();
    const b = await create({ name: 'My B' });
    const a = await create({ name: 'my a' });
    await create({ name: 'My C not mine' });
    for (const g of [b, a]) await addMember({ group_id: g.body.id, login: u.login });
    const res = await (await t.signedIn(u)).get('/api/rater_groups?my=1');
    expect(res.body).toEqual([
      { id: a.body.id, name: 'my a', streamer_id: null },
      { id: b.body.id, name: 'My B', streamer_id: null },
    ]);
  });

  it('my=1 without a signed-in user is 401 Not logged in; the full list needs an administrator', async () => {
    const res = await t.client().get('/api/rater_groups?my=1');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Not logged in' });
    const asUser = await (await t.signedIn(await t.user())).get('/api/rater_groups');
    expect(asUser.status).toBe(401);
    expect(asUser.body).toEqual({ error: 'Unauthorized' });
  });
});

describe('PUT /api/rater_groups', () => {
  it('changes only the keys present', async () => {
    const sid = await t.streamer();
    const g = await create({ name: 'Rename Me', streamer_id: sid });
    expect((await admin.put(`/api/rater_groups?id=${g.body.id}`, { name: ' Renamed ' })).body).toEqual({
      ok: true,
    });
    expect(await group(g.body.id)).toMatchObject({ name: 'Renamed', streamer_id: sid });
    await admin.put(`/api/rater_groups?id=${g.body.id}`, { streamer_id: 0 });
    expect(await group(g.body.id)).toMatchObject({ name: 'Renamed', streamer_id: null });
    await admin.put(`/api/rater_groups?id=${g.body.id}`, { streamer_id: sid });
    expect(await group(g.body.id)).toMatchObject({ streamer_id: sid });
  });

  it('a present but empty name is 400 Name cannot be empty', async () => {
    const g = await create({ name: 'Keep Name' });
    const res = await admin.put(`/api/rater_groups?id=${g.body.id}`, { name: '  ' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Name cannot be empty' });
    expect((await group(g.body.id)).name).toBe('Keep Name');
  });

  it('no updatable key is 400 Nothing to update', async () => {
    const g = await create({ name: 'Nothing' });
    const res = await admin.put(`/api/rater_groups?id=${g.body.id}`, { color: 'red' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Nothing to update' });
  });

  it('missing id is 400 Missing id; unknown id is 404 Group not found', async () => {
    expect((await admin.put('/api/rater_groups', { name: 'x' })).body).toEqual({ error: 'Missing id' });
    expect((await admin.put('/api/rater_groups?id=0', { name: 'x' })).body).toEqual({ error: 'Missing id' });
    const res = await admin.put('/api/rater_groups?id=999999', { name: 'x' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Group not found' });
  });

  it('409 for a taken name or a streamer with another team; the group is unchanged', async () => {
    const sid = await t.streamer();
    await create({ name: 'Holder', streamer_id: sid });
    const g = await create({ name: 'Mover' });
    const n = await admin.put(`/api/rater_groups?id=${g.body.id}`, { name: 'Holder' });
    expect(n.status).toBe(409);
    expect(n.body).toEqual({ error: 'Group name already exists' });
    const s = await admin.put(`/api/rater_groups?id=${g.body.id}`, { streamer_id: sid });
    expect(s.status).toBe(409);
    expect(s.body).toEqual({ error: 'This streamer already has a team' });
    expect(await group(g.body.id)).toMatchObject({ name: 'Mover', streamer_id: null });
    // keeping its own name and streamer is no conflict
    expect((await admin.put(`/api/rater_groups?id=${g.body.id}`, { name: 'Mover' })).status).toBe(200);
  });
});

describe('members', () => {
  it('adds a member by login, trimmed and matched without regard to case, default role rater', async () => {
    const g = await create({ name: 'Members A' });
    const u = await t.user({ login: 'MixedCase', display_name: 'Mixed Case' });
    const res = await addMember({ group_id: g.body.id, login: '  mixedCASE ' });
    expect(res.body).toEqual({ ok: true, display_name: 'Mixed Case', role: 'rater' });
    expect((await group(g.body.id)).members.map((m: any) => m.id)).toEqual([u.id]);
  });

  it('matches only users of the given provider (default provider_a)', async () => {
    const g = await create({ name: 'Members P' });
    await t.user({ login: 'kickonly', provider: 'provider_b' });
    const a = await addMember({ group_id: g.body.id, login: 'kickonly' });
    expect(a.status).toBe(404);
    expect(a.body).toEqual({ error: "User 'kickonly' on provider_a has not logged in yet or is banned." });
    const b = await addMember({ group_id: g.body.id, login: 'KickOnly', provider: 'provider_b' });
    expect(b.body).toMatchObject({ ok: true, role: 'rater' });
  });

  it('a banned user is not found', async () => {
    const g = await create({ name: 'Members Banned' });
    await t.user({ login: 'badactor' }, { banned: true });
    const res = await addMember({ group_id: g.body.id, login: 'BadActor' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "User 'badactor' on provider_a has not logged in yet or is banned." });
  });

  it('adding an existing member replaces the role; owner demotes the previous owner to rater', async () => {
    const g = await create({ name: 'Members Roles' });
    const [u1, u2] = [await t.user(), await t.user()];
    await addMember({ group_id: g.body.id, login: u1.login, role: 'owner' });
    const roles = async () =>
      Object.fromEntries((await group(g.body.id)).members.map((m: any) => [m.id, m.role]));
    expect(await roles()).toEqual({ [u1.id]: 'owner' });
    await addMember({ group_id: g.body.id, login: u2.login, role: 'owner' });
    expect(await roles()).toEqual({ [u1.id]: 'rater', [u2.id]: 'owner' });
    await addMember({ group_id: g.body.id, login: u2.login, role: 'rater' });
    expect(await roles()).toEqual({ [u1.id]: 'rater', [u2.id]: 'rater' });
    await addMember({ group_id: g.body.id, login: u1.login, role: 'boss' });
    expect(await roles()).toEqual({ [u1.id]: 'rater', [u2.id]: 'rater' });
    expect((await group(g.body.id)).members).toHaveLength(2);
  });

  it('group_id or login missing is 400 Missing group_id or login', async () => {
    for (const body of [
      {},
      { group_id: 1 },
      { login: 'x' },
      { group_id: 0, login: 'x' },
      { group_id: 1, login: '  ' },
    ]) {
      const res = await addMember(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Missing group_id or login' });
    }
  });

  it('an unknown group is 404 Group not found, checked before the user', async () => {
    const res = await addMember({ group_id: 999999, login: 'nobody-at-all' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Group not found' });
  });

  it('DELETE ?member=N removes a membership; missing is 400, unknown 404', async () => {
    const g = await create({ name: 'Members Delete' });
    const u = await t.user();
    await addMember({ group_id: g.body.id, login: u.login });
    const memberId = (await group(g.body.id)).members[0].member_id;
    expect((await admin.del(`/api/rater_groups?member=${memberId}`)).body).toEqual({ ok: true });
    expect((await group(g.body.id)).members).toEqual([]);
    for (const q of ['?member=', '?member=0', '?member=abc']) {
      const res = await admin.del(`/api/rater_groups${q}`);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Missing member id' });
    }
    const res = await admin.del(`/api/rater_groups?member=${memberId}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Member not found' });
  });

  it('members endpoints need an administrator', async () => {
    const g = await create({ name: 'Members Guard' });
    const u = await t.user();
    const res = await (
      await t.signedIn(u)
    ).post('/api/rater_groups?members=1', { group_id: g.body.id, login: u.login });
    expect(res.status).toBe(401);
    expect((await t.client().del('/api/rater_groups?member=1')).status).toBe(401);
  });
});

describe('DELETE /api/rater_groups', () => {
  it('deletes the group and its memberships', async () => {
    const g = await create({ name: 'Doomed Group' });
    await addMember({ group_id: g.body.id, login: (await t.user()).login });
    expect((await admin.del(`/api/rater_groups?id=${g.body.id}`)).body).toEqual({ ok: true });
    expect(await group(g.body.id)).toBeUndefined();
    const left = await t.db
      .selectFrom('rater_group_members')
      .select('id')
      .where('group_id', '=', g.body.id)
      .execute();
    expect(left).toEqual([]);
  });

  it('missing id is 400 Missing id; unknown 404 Group not found', async () => {
    expect((await admin.del('/api/rater_groups')).body).toEqual({ error: 'Missing id' });
    const res = await admin.del('/api/rater_groups?id=999999');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Group not found' });
  });

  it('PATCH is 405 Method not allowed', async () => {
    const res = await t.client().request('PATCH', '/api/rater_groups', { body: {} });
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ error: 'Method not allowed' });
  });
});
