import { describe, expect, it } from 'vitest';
import { voicesQuery } from '../src/catalogue/speaks-for.ts';
import { startApp, type TestApp, useApp } from './helpers/app.ts';
import type { Client } from './helpers/client.ts';
import { queryPlan } from './helpers/plan.ts';
import { R } from './helpers/streamers.ts';

/** DECISIONS.md "Fifth wave" → "Audience score you can trust". */
const t = await useApp();
const admin = await t.admin();

/** Signed-in users who vote, made as they are needed and shared by the tests. */
const pools = new WeakMap<TestApp, Client[]>();
async function voters(app: TestApp, n: number): Promise<Client[]> {
  const pool = pools.get(app) ?? [];
  pools.set(app, pool);
  while (pool.length < n) pool.push(await app.signedIn(await app.user()));
  return pool.slice(0, n);
}

/** One vote per score, each by another user. */
async function vote(app: TestApp, streamerId: number, scores: number[]): Promise<void> {
  const users = await voters(app, scores.length);
  for (const [i, score] of scores.entries()) {
    const res = await users[i]!.put(`/api/votes?streamer_id=${streamerId}`, { score });
    expect(res.status).toBe(200);
  }
}

const item = async (id: number, c: Client = t.client()) => (await c.get(`/api/streamers?id=${id}`)).body;
const repeat = (score: number, n: number) => Array.from({ length: n }, () => score);

describe('audience_histogram', () => {
  it('counts the votes for 1 to 10 beside audience_votes, in every view and in ?id=N', async () => {
    const sid = await t.streamer(undefined, R(5));
    await vote(t, sid, [10, 5, 5, 1]);
    const histogram = [1, 0, 0, 0, 2, 0, 0, 0, 0, 1];
    const inList = async (query: string, c: Client) =>
      ((await c.get(`/api/streamers${query}`)).body as any[]).find((s) => s.id === sid);
    for (const found of [
      await item(sid),
      await inList('', t.client()),
      await inList('?all=1', admin),
      await inList('?sort=audience', t.client()),
      await item(sid, admin),
    ]) {
      expect(found).toMatchObject({ audience_votes: 4, audience_score: 5.3, audience_histogram: histogram });
    }
    // A changed vote moves from one bar to another; a removed one leaves.
    const [first, second] = await voters(t, 2);
    await first!.put(`/api/votes?streamer_id=${sid}`, { score: 9 });
    await second!.put(`/api/votes?streamer_id=${sid}`, { score: 0 });
    expect(await item(sid)).toMatchObject({
      audience_votes: 3,
      audience_histogram: [1, 0, 0, 0, 1, 0, 0, 0, 1, 0],
    });
  });

  it('is ten zeros without votes, and audience_score stays null', async () => {
    const sid = await t.streamer(undefined, R(5));
    expect(await item(sid)).toMatchObject({
      audience_score: null,
      audience_votes: 0,
      audience_histogram: repeat(0, 10),
      divergent: false,
    });
    const unrated = await t.streamer();
    expect(
      ((await admin.get('/api/streamers?all=1')).body as any[]).find((s) => s.id === unrated),
    ).toMatchObject({
      audience_histogram: repeat(0, 10),
      divergent: false,
    });
  });
});

describe('divergent', () => {
  /** A streamer with this staff rating and these votes: its `divergent`. */
  const divergent = async (r: Record<string, number>, scores: number[]) => {
    const sid = await t.streamer(undefined, r);
    await vote(t, sid, scores);
    const found = await item(sid);
    expect(found.audience_votes).toBe(scores.length);
    return found.divergent as boolean;
  };
  // Staff 35/70: 5.0 on ten.
  const staff5 = R(5);

  it('needs at least 5 votes: 4 votes 3 away are not divergent, 5 are', async () => {
    expect(await divergent(staff5, repeat(8, 4))).toBe(false);
    expect(await divergent(staff5, repeat(8, 5))).toBe(true);
  });

  it('a difference of 3 or more either way is divergent; 2.9 is not', async () => {
    // 9 × 8 + 7: 7.9, 2.9 above the staff's 5.0.
    expect(await divergent(staff5, [...repeat(8, 9), 7])).toBe(false);
    expect(await divergent(staff5, repeat(2, 5))).toBe(true);
    // 9 × 2 + 3: 2.1, 2.9 below.
    expect(await divergent(staff5, [...repeat(2, 9), 3])).toBe(false);
  });

  it('compares the audience score as the items carry it (one decimal, half up) with sum / 7 exactly', async () => {
    // 159 / 20 = 7.95, shown 8.0: 3.0 above 5.0.
    expect(await divergent(staff5, [...repeat(8, 19), 7])).toBe(true);
    // Staff 36/70 = 5.142857…: 8.1 is 2.96 above, 8.2 is 3.06 above.
    const staff36 = { ...R(5), s: 6 };
    expect(await divergent(staff36, [...repeat(8, 9), 9])).toBe(false);
    expect(await divergent(staff36, [...repeat(8, 8), 9, 9])).toBe(true);
  });
});

describe('GET /api/streamers?sort=audience', () => {
  it("orders the Public view's streamers by the Bayesian average with the mean of every vote on the site", async () => {
    const o = await startApp();
    try {
      const add = (name: string) => o.streamer(name, R(5));
      // Made in the opposite order of their names: ties are by name, not by id.
      const tieZed = await add('Tie Zed');
      const tieAlpha = await add('tie alpha');
      const noVotesB = await add('No votes B');
      const noVotesA = await add('no votes a');
      const xa = await add('Xa');
      const yb = await add('Yb');
      const left = await add('Left the view');
      await vote(o, xa, [10]);
      await vote(o, yb, repeat(8, 10));
      await vote(o, tieZed, [5, 5]);
      await vote(o, tieAlpha, [5, 5]);
      // Its votes still count in the site's mean once it leaves the Public view.
      await vote(o, left, repeat(1, 5));
      const oAdmin = await o.admin();
      expect((await oAdmin.put(`/api/streamers?id=${left}`, { r: R(0) })).status).toBe(200);

      // C = 115 / 20 = 5.75: Yb (80 + 28.75) / 15 = 7.25 above Xa (10 + 28.75) / 6 = 6.46 (with
      // the Public view's votes alone, C = 110 / 15 and the two would tie, Xa first by name).
      const res = await o.client().get('/api/streamers?sort=audience');
      expect(res.status).toBe(200);
      expect((res.body as any[]).map((s) => s.id)).toEqual([yb, xa, tieAlpha, tieZed, noVotesA, noVotesB]);
      // The view's own order is unchanged (the staff total, then name).
      expect(((await o.client().get('/api/streamers')).body as any[]).map((s) => s.name)).toEqual([
        'no votes a',
        'No votes B',
        'tie alpha',
        'Tie Zed',
        'Xa',
        'Yb',
      ]);
      // The Public view's streamers whoever asks, staff's full list too.
      expect(
        ((await oAdmin.get('/api/streamers?all=1&sort=audience')).body as any[]).map((s) => s.id),
      ).toEqual((res.body as any[]).map((s) => s.id));
    } finally {
      await o.close();
    }
  });

  it('is kept like the other lists: an ETag, 304, and a new answer after a vote', async () => {
    const sid = await t.streamer(undefined, R(1));
    const first = await t.client().get('/api/streamers?sort=audience');
    const etag = first.headers.get('etag')!;
    expect(first.headers.get('cache-control')).toBe('private, no-cache');
    const again = await t
      .client()
      .get('/api/streamers?sort=audience', { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    await vote(t, sid, [10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10, 10]);
    const after = await t
      .client()
      .get('/api/streamers?sort=audience', { headers: { 'if-none-match': etag } });
    expect(after.status).toBe(200);
    expect((after.body as any[])[0]).toMatchObject({ id: sid, audience_votes: 12, divergent: true });
  });

  it('any other sort value is 400 Invalid sort, with or without id', async () => {
    const sid = await t.streamer(undefined, R(5));
    for (const sort of ['total', '', 'Audience', 'audience ', 'comments', 'audience,total']) {
      for (const query of [
        `sort=${encodeURIComponent(sort)}`,
        `id=${sid}&sort=${encodeURIComponent(sort)}`,
      ]) {
        const res = await t.client().get(`/api/streamers?${query}`);
        expect([query, res.status, res.body]).toEqual([
          query,
          400,
          { error: 'Invalid sort', code: 'invalid_sort' },
        ]);
      }
    }
    expect((await t.client().get(`/api/streamers?id=${sid}&sort=audience`)).body.id).toBe(sid);
  });
});

describe('who speaks for a streamer does not vote for it (issue 45, item 14)', () => {
  let n = 0;
  /** A rated streamer of the Public view whose channel on provider_a is `channel`. */
  async function channelStreamer(channel: string): Promise<number> {
    const res = await admin.post('/api/streamers?admin=1', {
      name: `Own Channel ${++n}`,
      platform: 'provider_a',
      provider_a: channel,
    });
    expect(res.status).toBe(201);
    expect((await admin.put(`/api/streamers?id=${res.body.id}`, { r: R(5) })).status).toBe(200);
    return res.body.id as number;
  }
  const setChannel = async (id: number, channel: string) =>
    expect((await admin.put(`/api/streamers?id=${id}`, { r: R(5), provider_a: channel })).status).toBe(200);
  const NOT_ALLOWED = { error: 'Not allowed', code: 'not_allowed' };

  it('their vote, a removal too, is 403 Not allowed and stores nothing; everyone else still votes', async () => {
    const login = `own_channel_${Date.now() % 100000}`;
    const sid = await channelStreamer(login);
    const streamer = await t.signedIn(await t.user({ login, display_name: 'Own Channel' }));
    expect((await streamer.get('/api/oauth/me')).body.speaks_for).toEqual([sid]);
    for (const score of [10, 1, 0]) {
      const res = await streamer.put(`/api/votes?streamer_id=${sid}`, { score });
      expect([score, res.status, res.body]).toEqual([score, 403, NOT_ALLOWED]);
    }
    expect((await streamer.get('/api/votes?mine=1')).body).toEqual({ votes: {} });
    // On another streamer they are one of the audience.
    const other = await t.streamer(undefined, R(5));
    expect((await streamer.put(`/api/votes?streamer_id=${other}`, { score: 8 })).status).toBe(200);
    expect(await item(other)).toMatchObject({ verified: false, audience_votes: 1, audience_score: 8 });
    await vote(t, sid, [3]);
    expect(await item(sid)).toMatchObject({ verified: true, audience_votes: 1, audience_score: 3 });
    // Outside the Public view the refusal still comes first (DECISIONS.md "Errors": 403 before 404).
    expect((await admin.put(`/api/streamers?id=${sid}`, { r: R(0) })).status).toBe(200);
    const hidden = await streamer.put(`/api/votes?streamer_id=${sid}`, { score: 5 });
    expect([hidden.status, hidden.body]).toEqual([403, NOT_ALLOWED]);
    const [someone] = await voters(t, 1);
    expect((await someone!.put(`/api/votes?streamer_id=${sid}`, { score: 5 })).status).toBe(404);
  });

  it('a vote given before they spoke for it is not counted while they do, in every figure of the audience', async () => {
    const login = `later_channel_${Date.now() % 100000}`;
    const sid = await channelStreamer(`someone_else_${n}`);
    const user = await t.signedIn(await t.user({ login, display_name: 'Later Channel' }));
    expect((await user.put(`/api/votes?streamer_id=${sid}`, { score: 10 })).status).toBe(200);
    await vote(t, sid, [4, 6, 8, 6]);
    const all = {
      audience_votes: 5,
      audience_score: 6.8,
      audience_histogram: [0, 0, 0, 1, 0, 2, 0, 1, 0, 1],
    };
    expect(await item(sid)).toMatchObject({ verified: false, ...all });

    // The administrator gives the streamer its channel: the voter now speaks for it.
    await setChannel(sid, login);
    const counted = {
      verified: true,
      audience_votes: 4,
      audience_score: 6,
      audience_histogram: [0, 0, 0, 1, 0, 2, 0, 1, 0, 0],
    };
    const inList = async (query: string, c: Client) =>
      ((await c.get(`/api/streamers${query}`)).body as any[]).find((s) => s.id === sid);
    for (const found of [
      await item(sid),
      await inList('', t.client()),
      await inList('?sort=audience', t.client()),
      await inList('?all=1', admin),
    ]) {
      expect(found).toMatchObject(counted);
    }
    // Their vote is kept, not deleted: it counts again once they no longer speak for it.
    expect((await user.get('/api/votes?mine=1')).body.votes[String(sid)]).toBe(10);
    await setChannel(sid, `someone_else_${n}`);
    expect(await item(sid)).toMatchObject({ verified: false, ...all });
  });
});

describe('votes share group commits (votes/vote.ts)', () => {
  it('votes at once on many streamers are each stored, in fewer commits than votes', async () => {
    const streamers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => t.streamer(undefined, R((i % 9) + 1))),
    );
    const users = await voters(t, 12);
    const { groups, written } = t.database.groupCommit;
    // Each user votes on every streamer, half of them in the other direction: groups cross each other's streamers.
    const answers = await Promise.all(
      users.flatMap((c, u) =>
        streamers.map((_, k) => {
          const at = (k + u) % streamers.length;
          const sid = streamers[u % 2 ? streamers.length - 1 - at : at]!;
          return c.put(`/api/votes?streamer_id=${sid}`, { score: ((u + k) % 10) + 1 });
        }),
      ),
    );
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    // Every vote went by a group commit, and the groups were fewer than the votes.
    expect(t.database.groupCommit.written - written).toBeGreaterThanOrEqual(answers.length);
    expect(t.database.groupCommit.groups - groups).toBeLessThan(answers.length);
    for (const sid of streamers) expect((await item(sid)).audience_votes).toBe(users.length);
  });

  it('a vote refused in a group stores nothing and fails alone; the others are stored', async () => {
    const shown = await t.streamer(undefined, R(7));
    const unrated = await t.streamer(undefined, R(0));
    const users = await voters(t, 10);
    const answers = await Promise.all(
      users.map((c, i) => c.put(`/api/votes?streamer_id=${i % 3 === 0 ? unrated : shown}`, { score: 9 })),
    );
    expect(answers.map((a) => a.status)).toEqual(users.map((_, i) => (i % 3 === 0 ? 404 : 200)));
    expect(
      await t.db.selectFrom('votes').select('user_id').where('streamer_id', '=', unrated).execute(),
    ).toEqual([]);
    expect((await item(shown)).audience_votes).toBe(users.filter((_, i) => i % 3 !== 0).length);
  });
});

describe('the tally the database keeps of the votes (migration 035)', () => {
  /** Every streamer's tally as kept, and as counted again from the votes. */
  async function keptAndRecounted(): Promise<[unknown[], unknown[]]> {
    const kept = await t.db
      .selectFrom('vote_tallies')
      .select(['streamer_id', 'vote_count', 'score_sum', 'h1', 'h5', 'h10'])
      .where('vote_count', '>', 0)
      .orderBy('streamer_id')
      .execute();
    const recounted = await t.db
      .selectFrom('votes')
      .select((e) => [
        'streamer_id',
        e.fn.countAll<number>().as('vote_count'),
        e.fn.sum<number>('score').as('score_sum'),
        ...([1, 5, 10] as const).map((s) =>
          e.fn.sum<number>(e.case().when('score', '=', s).then(1).else(0).end()).as(`h${s}`),
        ),
      ])
      .groupBy('streamer_id')
      .orderBy('streamer_id')
      .execute();
    const numbers = (rows: Record<string, unknown>[]) =>
      rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, Number(v)])));
    return [numbers(kept), numbers(recounted)];
  }

  it('equals a count of the votes after parallel votes, changes, removals and a deleted account or streamer', async () => {
    const [a, b] = [await t.streamer(undefined, R(5)), await t.streamer(undefined, R(6))];
    const users = await voters(t, 12);
    const all = (f: (c: Client, i: number) => Promise<unknown>) => Promise.all(users.map(f));
    await all((c, i) => c.put(`/api/votes?streamer_id=${a}`, { score: (i % 10) + 1 }));
    await all((c, i) => c.put(`/api/votes?streamer_id=${b}`, { score: 10 - (i % 10) }));
    // Changed, removed and cast again at once, on both streamers.
    await all((c, i) => c.put(`/api/votes?streamer_id=${i % 2 ? a : b}`, { score: i % 3 === 0 ? 0 : 5 }));
    let [kept, recounted] = await keptAndRecounted();
    expect(kept).toEqual(recounted);
    expect(kept.length).toBeGreaterThanOrEqual(2);

    const leaving = await t.user();
    const c = await t.signedIn(leaving);
    await c.put(`/api/votes?streamer_id=${a}`, { score: 1 });
    expect((await c.del('/api/account', { body: { confirm: leaving.login } })).status).toBe(200);
    expect((await admin.del(`/api/streamers?id=${b}`)).status).toBe(200);
    [kept, recounted] = await keptAndRecounted();
    expect(kept).toEqual(recounted);
    expect(
      await t.db.selectFrom('vote_tallies').select('streamer_id').where('streamer_id', '=', b).execute(),
    ).toEqual([]);
  });

  it('counts each vote of a statement that writes several of one streamer (an import; a group of votes)', async () => {
    const s = await t.streamer(undefined, R(7));
    const ids = await Promise.all([0, 1, 2].map(async () => (await t.user()).id));
    const at = t.clock.now().toISOString();
    await t.db
      .insertInto('votes')
      .values(ids.map((user_id, i) => ({ streamer_id: s, user_id, score: i + 4, updated_at: at })))
      .execute();
    let [kept, recounted] = await keptAndRecounted();
    expect(kept).toEqual(recounted);
    await t.db.updateTable('votes').set({ score: 9 }).where('streamer_id', '=', s).execute();
    await t.db.deleteFrom('votes').where('streamer_id', '=', s).where('user_id', '=', ids[0]!).execute();
    [kept, recounted] = await keptAndRecounted();
    expect(kept).toEqual(recounted);
  });

  it("refuses a tally whose count or sum is not its histogram's", async () => {
    const sid = await t.streamer(undefined, R(5));
    await vote(t, sid, [7]);
    const tally = t.db.updateTable('vote_tallies').where('streamer_id', '=', sid);
    await expect(tally.set({ vote_count: 2 }).execute()).rejects.toThrow();
    await expect(tally.set({ score_sum: 8 }).execute()).rejects.toThrow();
    await expect(tally.set({ h7: 0 }).execute()).rejects.toThrow();
    expect(await item(sid)).toMatchObject({
      audience_votes: 1,
      audience_histogram: [0, 0, 0, 0, 0, 0, 1, 0, 0, 0],
    });
  });
});

describe('what a vote costs', () => {
  it("moves what the answers show, not the signed-in users' cached sessions", async () => {
    const sid = await t.streamer(undefined, R(5));
    const [voter] = await voters(t, 1);
    const { changes } = t.database;
    const [sessions, content] = [changes.sessions, changes.current];
    expect((await voter!.put(`/api/votes?streamer_id=${sid}`, { score: 4 })).status).toBe(200);
    expect(changes.current).toBeGreaterThan(content);
    expect(changes.sessions).toBe(sessions);
  });
});

describe('a vote asks who speaks for its streamer through an index (migration 036)', () => {
  it('the users are looked up by their trimmed login on users_login_key_trimmed_idx, not read one by one', async () => {
    const plan = await queryPlan(t.database, voicesQuery(t.db, ['somechannel', 'another']).compile());
    expect(plan).toContain('users_login_key_trimmed_idx');
  });
});
