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
      const res = await create({
        name: `Falsy ${typeof streamer_id} ${String(streamer_id) || 'empty'}`,
        streamer_id,
      });
      expect(res.status).toBe(201);
      expect(res.body.streamer_id).toBeNull();
    },
  );

  it('an empty name is 400 Missing name', async () => {
    for (const body of [{}, { name: '' }, { name: '   ' }, { name: null }]) {
      const res = await create(body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Missing name', code: 'missing_name' });
    }
  });

  it('a taken name is 409 Group name already exists', async () => {
    await create({ name: 'Taken' });
    const res = await create({ name: ' Taken ' });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'Group name already exists', code: 'group_name_exists' });
  });

  it('names are compared folded (DECISIONS.md "Names and limits"): letter case, look-alike letters, spaces and punctuation; a parallel pair gets one 201', async () => {
    expect((await create({ name: 'Owls at Night' })).status).toBe(201);
    // Lower case, a Cyrillic О, spaced out, with a full stop.
    for (const name of ['owls at night', '\u041ewls at Night', 'O w l s  at  N i g h t.']) {
      const res = await create({ name });
      expect([name, res.status, res.body.code]).toEqual([name, 409, 'group_name_exists']);
    }
    const g = await create({ name: 'Early Birds' });
    const renamed = await admin.put(`/api/rater_groups?id=${g.body.id}`, { name: 'OWLS AT NIGHT' });
    expect(renamed.status).toBe(409);
    expect(await group(g.body.id)).toMatchObject({ name: 'Early Birds' });
    const [a, b] = await Promise.all([create({ name: 'Day Crew' }), create({ name: 'day crew' })]);
    expect([a.status, b.status].sort()).toEqual([201, 409]);
    expect(a.body.name_fold ?? b.body.name_fold).toBeUndefined();
  });

  it('a streamer that already has a team is 409 This streamer already has a team', async () => {
    const sid = await t.streamer();
    await create({ name: 'First Team', streamer_id: sid });
    const before = await countRows(t.db, 'rater_groups');
    const res = await create({ name: 'Second Team', streamer_id: sid });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ error: 'This streamer already has a team', code: 'streamer_has_team' });
    expect(await countRows(t.db, 'rater_groups')).toBe(before);
  });

  it('an unknown streamer is 404 Streamer not found', async () => {
    const res = await create({ name: 'Ghost Team', streamer_id: 888888 });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Streamer not found', code: 'streamer_not_found' });
  });

  it('non-administrators get 401 Unauthorized', async () => {
    const mod = await t.signedIn(await t.user({}, { mod: true }));
    for (const c of [t.client(), mod]) {
      const res = await c.post('/api/rater_groups', { name: 'Nope' });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'Unauthorized', code: 'unauthorized' });
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

  it("my=1 lists the signed-in user's groups {id, name, streamer_id, role} by name", async () => {
    const u = await t.user();
    const b = await create({ name: 'My B' });
    const a = await create({ name: 'my a' });
    await create({ name: 'My C not mine' });
    for (const g of [b, a]) await addMember({ group_id: g.body.id, login: u.login });
    const res = await (await t.signedIn(u)).get('/api/rater_groups?my=1');
    expect(res.body).toEqual([
      { id: a.body.id, name: 'my a', streamer_id: null, role: 'rater' },
      { id: b.body.id, name: 'My B', streamer_id: null, role: 'rater' },
    ]);
  });

  it('my=1 without a signed-in user is 401 Not logged in; the full list needs an administrator', async () => {
    const res = await t.client().get('/api/rater_groups?my=1');
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Not logged in', code: 'not_logged_in' });
    const asUser = await (await t.signedIn(await t.user())).get('/api/rater_groups');
    expect(asUser.status).toBe(401);
    expect(asUser.body).toEqual({ error: 'Unauthorized', code: 'unauthorized' });
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
    expect(res.body).toEqual({ error: 'Name cannot be empty', code: 'name_empty' });
    expect((await group(g.body.id)).name).toBe('Keep Name');
  });

  it('no updatable key is 400 Nothing to update', async () => {
    const g = await create({ name: 'Nothing' });
    const res = await admin.put(`/api/rater_groups?id=${g.body.id}`, { color: 'red' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Nothing to update', code: 'nothing_to_update' });
  });

  it('missing id is 400 Missing id; unknown id is 404 Group not found', async () => {
    expect((await admin.put('/api/rater_groups', { name: 'x' })).body).toEqual({
      error: 'Missing id',
      code: 'missing_id',
    });
    expect((await admin.put('/api/rater_groups?id=0', { name: 'x' })).body).toEqual({
      error: 'Missing id',
      code: 'missing_id',
    });
    const res = await admin.put('/api/rater_groups?id=999999', { name: 'x' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Group not found', code: 'group_not_found' });
  });

  it('409 for a taken name or a streamer with another team; the group is unchanged', async () => {
    const sid = await t.streamer();
    await create({ name: 'Holder', streamer_id: sid });
    const g = await create({ name: 'Mover' });
    const n = await admin.put(`/api/rater_groups?id=${g.body.id}`, { name: 'Holder' });
    expect(n.status).toBe(409);
    expect(n.body).toEqual({ error: 'Group name already exists', code: 'group_name_exists' });
    const s = await admin.put(`/api/rater_groups?id=${g.body.id}`, { streamer_id: sid });
    expect(s.status).toBe(409);
    expect(s.body).toEqual({ error: 'This streamer already has a team', code: 'streamer_has_team' });
    expect(await group(g.body.id)).toMatchObject({ name: 'Mover', streamer_id: null });
    // keeping its own name and streamer is no conflict
    expect((await admin.put(`/api/rater_groups?id=${g.body.id}`, { name: 'Mover' })).status).toBe(200);
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
    expect((await admin.del('/api/rater_groups')).body).toEqual({ error: 'Missing id', code: 'missing_id' });
    const res = await admin.del('/api/rater_groups?id=999999');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Group not found', code: 'group_not_found' });
  });

  it('PATCH is 405 Method not allowed', async () => {
    const res = await t.client().request('PATCH', '/api/rater_groups', { body: {} });
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ error: 'Method not allowed', code: 'method_not_allowed' });
  });
});
