import { beforeAll, describe, expect, it } from 'vitest';
import { countRows, useApp } from './helpers/app.ts';
import type { Client } from './helpers/client.ts';

const t = await useApp();
let admin: Client;
beforeAll(async () => {
  admin = await t.admin();
});

async function teamWithMember(streamer = true) {
  const sid = streamer ? await t.streamer() : null;
  const g = await admin.post('/api/rater_groups', { name: `Community ${Math.random()}`, streamer_id: sid });
  const u = await t.user();
  await admin.post('/api/rater_groups?members=1', { group_id: g.body.id, login: u.login });
  return { sid, groupId: g.body.id as number, user: u, client: await t.signedIn(u) };
}
const R = (v: number) => ({ s: v, g: v, a: v, v: v, n: v, ns: v, o: v });

describe('PUT /api/community_ratings', () => {
  it('a member rates the team streamer; a repeat replaces the rating; scores are clamped', async () => {
    const { sid, groupId, client } = await teamWithMember();
    expect((await client.put('/api/community_ratings', { group_id: groupId, r: R(7) })).body).toEqual({
      ok: true,
    });
    expect(
      (await client.put('/api/community_ratings', { group_id: groupId, r: { s: 15, g: -2, a: '4' } })).status,
    ).toBe(200);
    const summary = (await t.client().get(`/api/community_ratings?streamer_id=${sid}`)).body;
    expect(summary).toEqual({ count: 1, avg: { s: 10, g: 0, a: 4, v: 0, n: 0, ns: 0, o: 0 }, total: 14 });
    expect((await client.get(`/api/community_ratings/mine?group_id=${groupId}`)).body).toEqual({
      r: { s: 10, g: 0, a: 4, v: 0, n: 0, ns: 0, o: 0 },
    });
  });

  it('not signed in is 401 Not logged in', async () => {
    const res = await t.client().put('/api/community_ratings', { group_id: 1, r: R(5) });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Not logged in', code: 'not_logged_in' });
  });

  it('a non-member is 403 Not a member of this team and nothing is stored', async () => {
    const { groupId } = await teamWithMember();
    const outsider = await t.signedIn(await t.user());
    const before = await countRows(t.db, 'community_ratings');
    const res = await outsider.put('/api/community_ratings', { group_id: groupId, r: R(5) });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ error: 'Not a member of this team', code: 'not_a_member' });
    expect(await countRows(t.db, 'community_ratings')).toBe(before);
  });

  it('a team without a streamer is 400 Team has no streamer', async () => {
    const { groupId, client } = await teamWithMember(false);
    const res = await client.put('/api/community_ratings', { group_id: groupId, r: R(5) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Team has no streamer', code: 'team_has_no_streamer' });
  });

  it('a locked streamer is 423 Community ratings are locked; unlocking allows it again', async () => {
    const { sid, groupId, client } = await teamWithMember();
    await client.put('/api/community_ratings', { group_id: groupId, r: R(3) });
    await admin.put(`/api/streamers?id=${sid}&lock=1`, { community_locked: true });
    const res = await client.put('/api/community_ratings', { group_id: groupId, r: R(9) });
    expect(res.status).toBe(423);
    expect(res.body).toEqual({ error: 'Community ratings are locked', code: 'community_locked' });
    expect((await t.client().get(`/api/community_ratings?streamer_id=${sid}`)).body.avg.s).toBe(3);
    await admin.put(`/api/streamers?id=${sid}&lock=1`, { community_locked: false });
    expect((await client.put('/api/community_ratings', { group_id: groupId, r: R(9) })).status).toBe(200);
  });

  it('an unknown group is 404 Group not found; a missing group_id is 400', async () => {
    const c = await t.signedIn(await t.user());
    const res = await c.put('/api/community_ratings', { group_id: 999999, r: R(1) });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Group not found', code: 'group_not_found' });
    expect((await c.put('/api/community_ratings', { r: R(1) })).status).toBe(400);
  });

  it('ratings_count in the administrator group list counts the ratings', async () => {
    const { groupId, client } = await teamWithMember();
    const second = await t.user();
    await admin.post('/api/rater_groups?members=1', { group_id: groupId, login: second.login });
    await client.put('/api/community_ratings', { group_id: groupId, r: R(4) });
    await (await t.signedIn(second)).put('/api/community_ratings', { group_id: groupId, r: R(6) });
    const group = (await admin.get('/api/rater_groups')).body.find((g: any) => g.id === groupId);
    expect(group.ratings_count).toBe(2);
  });

  it("a team moved to another streamer: a member's rating of the old one is not shown as theirs, nor counted as the new one's", async () => {
    const { sid, groupId, client } = await teamWithMember();
    await client.put('/api/community_ratings', { group_id: groupId, r: R(8) });
    const next = await t.streamer();
    expect((await admin.put(`/api/rater_groups?id=${groupId}`, { streamer_id: next })).status).toBe(200);
    expect((await client.get(`/api/community_ratings/mine?group_id=${groupId}`)).body).toEqual({ r: null });
    const group = (await admin.get('/api/rater_groups')).body.find((g: any) => g.id === groupId);
    expect(group.ratings_count).toBe(0);
    // The old streamer keeps the rating until the member rates the new one (one per user per team).
    expect((await t.client().get(`/api/community_ratings?streamer_id=${sid}`)).body.count).toBe(1);
    expect((await t.client().get(`/api/community_ratings?streamer_id=${next}`)).body.count).toBe(0);
  });
});

describe('GET /api/community_ratings', () => {
  it('with no ratings: count 0 and every average and the total 0', async () => {
    const sid = await t.streamer();
    expect((await t.client().get(`/api/community_ratings?streamer_id=${sid}`)).body).toEqual({
      count: 0,
      avg: R(0),
      total: 0,
    });
  });

  it('averages to one decimal rounding half up; total is the sum of the averages', async () => {
    const { sid, groupId, client } = await teamWithMember();
    const others = [await t.user(), await t.user()];
    for (const u of others)
      await admin.post('/api/rater_groups?members=1', { group_id: groupId, login: u.login });
    // s: (1+2+2)/3 = 1.666 -> 1.7 ; g: (1+1+2)/3 = 1.333 -> 1.3 ; a: (0+0+1)/3 -> 0.3 ; v: 5,5,6 -> 5.3
    // n: 1,2 + 0 -> 1.0 ; with two raters: (0+1)/2 = 0.5 exactly tested below
    await client.put('/api/community_ratings', {
      group_id: groupId,
      r: { s: 1, g: 1, a: 0, v: 5, n: 1, ns: 10, o: 0 },
    });
    await (
      await t.signedIn(others[0]!)
    ).put('/api/community_ratings', { group_id: groupId, r: { s: 2, g: 1, a: 0, v: 5, n: 2, ns: 10, o: 0 } });
    await (
      await t.signedIn(others[1]!)
    ).put('/api/community_ratings', { group_id: groupId, r: { s: 2, g: 2, a: 1, v: 6, n: 0, ns: 9, o: 1 } });
    const res = (await t.client().get(`/api/community_ratings?streamer_id=${sid}`)).body;
    expect(res).toEqual({
      count: 3,
      avg: { s: 1.7, g: 1.3, a: 0.3, v: 5.3, n: 1, ns: 9.7, o: 0.3 },
      total: 19.6,
    });
  });

  it('half up: an average of x.x5 rounds up, never down', async () => {
    const { sid, groupId, client } = await teamWithMember();
    const others = [await t.user(), await t.user(), await t.user()];
    for (const u of others)
      await admin.post('/api/rater_groups?members=1', { group_id: groupId, login: u.login });
    // s: (1+1+1+2)/4 = 1.25 -> 1.3; g: (2+2+2+3)/4 = 2.25 -> 2.3; a: (0+0+0+1)/4 = 0.25 -> 0.3
    await client.put('/api/community_ratings', { group_id: groupId, r: { s: 1, g: 2, a: 0 } });
    for (const [i, u] of others.entries()) {
      const last = i === others.length - 1;
      await (
        await t.signedIn(u)
      ).put('/api/community_ratings', {
        group_id: groupId,
        r: { s: last ? 2 : 1, g: last ? 3 : 2, a: last ? 1 : 0 },
      });
    }
    const res = (await t.client().get(`/api/community_ratings?streamer_id=${sid}`)).body;
    expect(res.count).toBe(4);
    expect([res.avg.s, res.avg.g, res.avg.a]).toEqual([1.3, 2.3, 0.3]);
    expect(res.total).toBe(3.9);
  });

  it('missing streamer_id is 400 Missing streamer_id; unknown 404 Streamer not found', async () => {
    expect((await t.client().get('/api/community_ratings')).body).toEqual({
      error: 'Missing streamer_id',
      code: 'missing_streamer_id',
    });
    expect((await t.client().get('/api/community_ratings?streamer_id=999999')).status).toBe(404);
  });
});
