import { describe, expect, it } from 'vitest';
import { R, useStreamers } from './helpers/streamers.ts';

const { t, admin, find } = await useStreamers();

describe('PUT /api/streamers lock mode', () => {
  it.each([[true], [1], ['1'], ['true'], [2], ['yes'], [[1]]])('community_locked %j locks', async (value) => {
    const id = await t.streamer();
    const res = await admin.put(`/api/streamers?id=${id}&lock=1`, { community_locked: value });
    expect(res.body).toEqual({ ok: true });
    expect((await find(id)).community_locked).toBe(true);
  });

  it.each([[false], [0], ['0'], [''], ['false'], [null], ['no'], [' Off '], ['FALSE'], [[]]])(
    'community_locked %j unlocks',
    async (value) => {
      const id = await t.streamer();
      await admin.put(`/api/streamers?id=${id}&lock=1`, { community_locked: true });
      await admin.put(`/api/streamers?id=${id}&lock=1`, { community_locked: value });
      expect((await find(id)).community_locked).toBe(false);
    },
  );

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
    expect(res.body).toEqual({ error: 'Admin only', code: 'admin_only' });
    expect((await t.client().put(`/api/streamers?id=${id}&lock=1`, {})).status).toBe(401);
    expect((await find(id)).community_locked).toBe(false);
  });

  it("the lock flag is set by its presence: a moderator's ?lock=0 is 403 Admin only, not a rating", async () => {
    const id = await t.streamer(undefined, R(6));
    const mod = await t.signedIn(await t.user({}, { mod: true }));
    for (const query of ['lock=0', 'lock=false', 'lock']) {
      const res = await mod.put(`/api/streamers?id=${id}&${query}`, { community_locked: true });
      expect(res.status, query).toBe(403);
      expect(res.body).toEqual({ error: 'Admin only', code: 'admin_only' });
    }
    const s = await find(id);
    expect(s.r).toEqual(R(6));
    expect(s.community_locked).toBe(false);
  });

  it('lock without id is 400 Missing id; unknown id 404', async () => {
    expect((await admin.put('/api/streamers?lock=1', { community_locked: true })).body).toEqual({
      error: 'Missing id',
      code: 'missing_id',
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
      expect(res.body).toEqual({ error: 'Unauthorized', code: 'unauthorized' });
    }
    expect(await find(id)).toBeDefined();
  });

  it('missing id is 400 Missing id; unknown id is 404 Streamer not found', async () => {
    expect((await admin.del('/api/streamers')).body).toEqual({ error: 'Missing id', code: 'missing_id' });
    expect((await admin.del('/api/streamers?id=0')).body).toEqual({
      error: 'Missing id',
      code: 'missing_id',
    });
    const res = await admin.del('/api/streamers?id=424242');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Streamer not found', code: 'streamer_not_found' });
  });
});

describe('other methods', () => {
  it('PATCH /api/streamers is 405 Method not allowed, before any role check', async () => {
    const res = await t.client().request('PATCH', '/api/streamers', { body: {} });
    expect(res.status).toBe(405);
    expect(res.body).toEqual({ error: 'Method not allowed', code: 'method_not_allowed' });
  });
});
