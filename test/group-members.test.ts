import { beforeAll, describe, expect, it } from 'vitest';
import { useApp } from './helpers/app.ts';
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
    expect(a.body).toEqual({
      error: "User 'kickonly' on provider_a has not logged in yet or is banned.",
      code: 'user_not_signed_in',
    });
    const b = await addMember({ group_id: g.body.id, login: 'KickOnly', provider: 'provider_b' });
    expect(b.body).toMatchObject({ ok: true, role: 'rater' });
  });

  it('a banned user is not found', async () => {
    const g = await create({ name: 'Members Banned' });
    await t.user({ login: 'badactor' }, { banned: true });
    const res = await addMember({ group_id: g.body.id, login: 'BadActor' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({
      error: "User 'badactor' on provider_a has not logged in yet or is banned.",
      code: 'user_not_signed_in',
    });
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

  it("making someone owner demotes only that team's owner, never another team's", async () => {
    const [g1, g2] = [await create({ name: 'Owners One' }), await create({ name: 'Owners Two' })];
    const [u1, u2, u3] = [await t.user(), await t.user(), await t.user()];
    await addMember({ group_id: g1.body.id, login: u1.login, role: 'owner' });
    await addMember({ group_id: g2.body.id, login: u2.login, role: 'owner' });
    await addMember({ group_id: g1.body.id, login: u3.login, role: 'owner' });
    const owners = async (id: number) =>
      (await group(id)).members.filter((m: any) => m.role === 'owner').map((m: any) => m.id);
    expect(await owners(g1.body.id)).toEqual([u3.id]);
    expect(await owners(g2.body.id)).toEqual([u2.id]);
  });

  it('logins match without regard to case the same way on both databases, also beyond ASCII', async () => {
    const g = await create({ name: 'Folding' });
    const u = await t.user({ login: 'ÄrgerX' });
    const res = await addMember({ group_id: g.body.id, login: '  äRGERx ' });
    expect(res.body).toEqual({ ok: true, display_name: u.display_name, role: 'rater' });
    const miss = await addMember({ group_id: g.body.id, login: 'ÅrgerX' });
    expect(miss.body).toEqual({
      error: "User 'årgerx' on provider_a has not logged in yet or is banned.",
      code: 'user_not_signed_in',
    });
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
      expect(res.body).toEqual({ error: 'Missing group_id or login', code: 'missing_group_or_login' });
    }
  });

  it('an unknown group is 404 Group not found, checked before the user', async () => {
    const res = await addMember({ group_id: 999999, login: 'nobody-at-all' });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Group not found', code: 'group_not_found' });
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
      expect(res.body).toEqual({ error: 'Missing member id', code: 'missing_member_id' });
    }
    const res = await admin.del(`/api/rater_groups?member=${memberId}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Member not found', code: 'member_not_found' });
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
