import { beforeAll, describe, expect, it } from 'vitest';
import { useApp } from './helpers/app.ts';
import type { Client } from './helpers/client.ts';

/** Issue 30 item 16: a rater who leaves a team (removed, or their account deleted) no longer counts. */
const t = await useApp();
let admin: Client;
beforeAll(async () => {
  admin = await t.admin();
});
const R = (v: number) => ({ s: v, g: v, a: v, v: v, n: v, ns: v, o: v });

async function teamOfTwo() {
  const sid = await t.streamer();
  const g = await admin.post('/api/rater_groups', { name: `Team ${Math.random()}`, streamer_id: sid });
  const groupId = g.body.id as number;
  const stays = await t.user();
  const leaves = await t.user();
  for (const u of [stays, leaves])
    await admin.post('/api/rater_groups?members=1', { group_id: groupId, login: u.login });
  await (await t.signedIn(stays)).put('/api/community_ratings', { group_id: groupId, r: R(2) });
  const leaving = await t.signedIn(leaves);
  await leaving.put('/api/community_ratings', { group_id: groupId, r: R(8) });
  const summary = async () => (await t.client().get(`/api/community_ratings?streamer_id=${sid}`)).body;
  expect(await summary()).toMatchObject({ count: 2, avg: { s: 5 } });
  return { groupId, leaves, leaving, summary };
}

describe('a rater who leaves the team leaves its averages', () => {
  it('removing a member removes their community rating', async () => {
    const { groupId, leaves, summary } = await teamOfTwo();
    const members = (await admin.get('/api/rater_groups')).body.find(
      (g: { id: number }) => g.id === groupId,
    ).members;
    const memberId = members.find((m: { login: string }) => m.login === leaves.login).member_id;
    expect((await admin.del(`/api/rater_groups?member=${memberId}`)).body).toEqual({ ok: true });
    expect(await summary()).toMatchObject({ count: 1, avg: { s: 2 } });
  });

  it('a deleted account removes their community rating', async () => {
    const { leaves, leaving, summary } = await teamOfTwo();
    expect((await leaving.del('/api/account', { body: { confirm: leaves.login } })).body).toEqual({
      ok: true,
    });
    expect(await summary()).toMatchObject({ count: 1, avg: { s: 2 } });
  });
});
