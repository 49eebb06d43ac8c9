import { describe, expect, it } from 'vitest';
import { DAY } from '../src/lib/clock.ts';
import { SCORE_KEYS, type Scores, scoreSum } from '../src/shared/rules.ts';
import { useApp } from './helpers/app.ts';
import type { Client } from './helpers/client.ts';
import { R, spokenFor } from './helpers/streamers.ts';
import { streamerRow } from './helpers/rows.ts';

/** DECISIONS.md "Fifth wave" → "Staff reviews", over HTTP on SQLite and PostgreSQL. */
const t = await useApp();
const admin = await t.admin();
let seq = 0;

const mod = async (name?: string) => {
  const user = await t.user(name ? { display_name: name } : {}, { mod: true });
  return { user, c: await t.signedIn(user) };
};
/** A personal administrator account (no shared password). */
const accountAdmin = async () => {
  const user = await t.user();
  await t.db.updateTable('users').set({ is_admin: 1 }).where('id', '=', user.id).execute();
  return { user, c: await t.signedIn(user) };
};
const streamer = async (rating?: Scores) => t.streamer(`Reviewed ${process.pid} ${++seq}`, rating);
const put = (c: Client, id: number, body: unknown) => c.put(`/api/reviews?streamer_id=${id}`, body);
const read = async (c: Client, id: number) => {
  const res = await c.get(`/api/reviews?streamer_id=${id}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
};
const queue = async (c: Client) => {
  const res = await c.get('/api/reviews?queue=1');
  expect(res.status, res.text).toBe(200);
  return res.body as {
    streamer_id: number;
    streamer_name: string;
    reviews: number;
    rated_at: string | null;
    requested: boolean;
  }[];
};
const publish = (c: Client, id: number) => c.post(`/api/reviews?streamer_id=${id}&publish=1`, {});
const request = (c: Client, id: number, reason = 'My overlay is all new since then.') =>
  c.post(`/api/reviews?streamer_id=${id}&request=1`, { reason });
const rowsOf = async (id: number) =>
  t.db.selectFrom('staff_reviews').selectAll().where('streamer_id', '=', id).execute();
const historyOf = async (id: number) =>
  (await admin.get(`/api/streamers?id=${id}&history=1`)).body as unknown[];
const item = async (c: Client, id: number, all = false) => {
  const res = await c.get(`/api/streamers?id=${id}${all ? '&all=1' : ''}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
};
const scores = (...v: number[]): Scores =>
  Object.fromEntries(SCORE_KEYS.map((k, i) => [k, v[i] ?? 0])) as Scores;

/** The median computed here, independently: sort, middle, the mean of two rounded half up. */
const median = (values: number[]) => {
  const s = [...values].sort((a, b) => a - b);
  const m = s.length / 2;
  const at = (i: number) => s[i] ?? NaN;
  return s.length % 2 ? at(Math.floor(m)) : Math.round((at(m - 1) + at(m)) / 2 + 1e-9);
};
/** The population standard deviation to one decimal, half up. */
const spread = (sums: number[]) => {
  const mean = sums.reduce((a, b) => a + b, 0) / sums.length;
  const sd = Math.sqrt(sums.reduce((a, b) => a + (b - mean) ** 2, 0) / sums.length);
  return Math.round(sd * 10 + 1e-9) / 10;
};

describe('reviews are blind until your own is saved', () => {
  it('every staff role sees only the count before rating, everything after; the median half up, the population spread', async () => {
    const id = await streamer();
    const [m1, m2] = [await mod('Mod One'), await mod('Mod Two')];
    const personal = await accountAdmin();
    expect(await read(m1.c, id)).toEqual({ mine: null, count: 0, reviews: null });
    const secret = `secret note ${seq}`;
    const a = scores(3, 4, 5, 6, 7, 8, 9);
    expect((await put(m1.c, id, { r: a, note: `  ${secret}  ` })).body).toEqual({ ok: true });
    // Blind for a moderator, the shared password and a personal administrator account alike.
    for (const c of [m2.c, admin, personal.c]) {
      const seen = await read(c, id);
      expect(seen).toEqual({ mine: null, count: 1, reviews: null });
      expect(JSON.stringify(seen)).not.toContain(secret);
    }
    const mine = await read(m1.c, id);
    expect(mine.mine).toMatchObject({
      user: 'Mod One',
      r: a,
      sum: scoreSum(a),
      note: secret,
      abstain: false,
    });
    expect(mine).toMatchObject({ count: 1, median: a, spread: 0 });

    const b = scores(4, 4, 6, 6, 10, 0, 1);
    const c = scores(10, 5, 5, 5, 5, 5, 5);
    await put(m2.c, id, { r: b });
    await put(admin, id, { r: c, note: 'by the password' });
    const all = await read(admin, id);
    expect(all.mine).toMatchObject({ user: 'Administrace', r: c, note: 'by the password' });
    expect(all.reviews.map((r: { user: string }) => r.user)).toEqual(['Mod One', 'Mod Two', 'Administrace']);
    const want = Object.fromEntries(SCORE_KEYS.map((k) => [k, median([a[k], b[k], c[k]])]));
    expect(all.median).toEqual(want);
    expect(all.spread).toBe(spread([a, b, c].map(scoreSum)));
    // The personal administrator still has not rated: still blind.
    expect(await read(personal.c, id)).toEqual({ mine: null, count: 3, reviews: null });
  });

  it('an even number of reviews: the middle two averaged, half up; spread of two sums', async () => {
    const id = await streamer();
    const [m1, m2] = [await mod(), await mod()];
    await put(m1.c, id, { r: scores(3, 4, 0, 10, 1, 2, 7) });
    await put(m2.c, id, { r: scores(4, 4, 1, 0, 2, 2, 8) });
    const seen = await read(m1.c, id);
    expect(seen.median).toEqual(scores(4, 4, 1, 5, 2, 2, 8));
    // Sums 27 and 21: the population deviation is 3.0 (the sample's would be 4.2).
    expect(seen.spread).toBe(3);
  });

  it('an abstention: no scores, a note; it opens the others and is left out of the median', async () => {
    const id = await streamer();
    const [m1, m2] = [await mod('Abstainer'), await mod()];
    await put(m2.c, id, { r: R(6), note: 'fine' });
    expect((await put(m1.c, id, { abstain: true, r: R(1), note: 'my cousin' })).status).toBe(200);
    const seen = await read(m1.c, id);
    expect(seen.mine).toMatchObject({
      user: 'Abstainer',
      r: null,
      sum: null,
      abstain: true,
      note: 'my cousin',
    });
    expect(seen).toMatchObject({ count: 2, median: R(6), spread: 0 });
    const [row] = (await rowsOf(id)).filter((r) => r.user_id === m1.user.id);
    expect(row).toMatchObject({ abstain: 1, s: null });
  });

  it('scores clamped 0..10 and missing as 0, the note trimmed and cut to 2000; a repeat replaces', async () => {
    const id = await streamer();
    const m = await mod();
    await put(m.c, id, { r: { s: 15, g: -3, a: 4 }, note: `  ${'x'.repeat(2100)}  ` });
    let seen = await read(m.c, id);
    expect(seen.mine.r).toEqual(scores(10, 0, 4));
    expect(seen.mine.note).toHaveLength(2000);
    await put(m.c, id, { r: R(2) });
    seen = await read(m.c, id);
    expect(seen.count).toBe(1);
    expect(seen.mine).toMatchObject({ r: R(2), note: null });
    expect(await rowsOf(id)).toHaveLength(1);
  });

  it('no answer leaks a review: the queue, every view of the items, the history, the export, the audit log', async () => {
    const id = await streamer(R(5));
    const [m1, m2] = [await mod(), await mod()];
    const secret = `leak-${seq}-${Date.now()}`;
    await put(m1.c, id, { r: R(9), note: secret });
    const texts: string[] = [];
    const collect = async (c: Client, path: string) => {
      const res = await c.get(path);
      expect(res.status, `${path} ${res.text}`).toBe(200);
      texts.push(res.text);
      return res.body;
    };
    for (const c of [m2.c, admin]) {
      const q = (await collect(c, '/api/reviews?queue=1')) as { streamer_id: number; reviews: number }[];
      expect(q.find((e) => e.streamer_id === id)).toMatchObject({ reviews: 1 });
      for (const path of [
        '/api/streamers',
        '/api/streamers?all=1',
        `/api/streamers?id=${id}`,
        `/api/streamers?id=${id}&all=1`,
      ])
        await collect(c, path);
      const history = await collect(c, `/api/streamers?id=${id}&history=1`);
      expect(history).toHaveLength(1);
    }
    expect((await item(m2.c, id)).r).toEqual(R(5));
    await collect(m2.c, '/api/account/export');
    // The audit log: a moderator may not read it; the administrator's says who, never what.
    expect((await m2.c.get('/api/audit')).status).toBe(401);
    const log = (await collect(admin, '/api/audit?limit=20')) as {
      action: string;
      summary: string;
      target_id: number;
    }[];
    expect(log.find((e) => e.action === 'review.save' && e.target_id === id)).toMatchObject({
      summary: expect.stringMatching(/^Reviewed /),
      details: null,
    });
    for (const text of texts) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain('"s":9');
    }
    // The reviewer's own export holds it.
    const own = (await m1.c.get('/api/account/export')).body;
    expect(own.reviews).toEqual([
      expect.objectContaining({ streamer_id: id, r: R(9), note: secret, abstain: false }),
    ]);
  });
});

describe('who may review', () => {
  it('anonymous and plain users: 401; a banned moderator 403 banned, a timed-out one 403 timed_out; nothing stored', async () => {
    const id = await streamer();
    const plain = await t.signedIn(await t.user());
    for (const c of [t.client(), plain]) {
      expect((await put(c, id, { r: R(5) })).status).toBe(401);
      expect((await c.get(`/api/reviews?streamer_id=${id}`)).status).toBe(401);
      expect((await c.get('/api/reviews?queue=1')).status).toBe(401);
    }
    const banned = await mod();
    await t.db.updateTable('users').set({ banned: 1 }).where('id', '=', banned.user.id).execute();
    const res = await put(banned.c, id, { r: R(5) });
    expect(res.status).toBe(403);
    expect(res.body.error).toBe('Účet je zablokován');
    const timed = await mod();
    const until = new Date(t.clock.now().getTime() + DAY).toISOString();
    await t.db.updateTable('users').set({ timeout_until: until }).where('id', '=', timed.user.id).execute();
    const out = await put(timed.c, id, { r: R(5) });
    expect(out.status).toBe(403);
    expect(out.body.error).toBe('Účet je dočasně omezen');
    expect(await rowsOf(id)).toHaveLength(0);
  });

  it('bad input: a missing streamer_id 400, an unknown streamer 404, other methods 405', async () => {
    const m = await mod();
    expect((await m.c.put('/api/reviews', { r: R(1) })).body.error).toBe('Missing streamer_id');
    expect((await m.c.get('/api/reviews')).body.error).toBe('Missing streamer_id');
    expect((await put(m.c, 99_999_999, { r: R(1) })).status).toBe(404);
    expect((await m.c.get('/api/reviews?streamer_id=99999999')).body.error).toBe('Streamer not found');
    expect((await m.c.del('/api/reviews?streamer_id=1')).status).toBe(405);
  });
});

describe('the queue', () => {
  it('streamers not yet reviewed by you: a request first, then fewest reviews, then the oldest rating (never rated first)', async () => {
    const me = await mod();
    const other = await mod();
    const older = await streamer(R(3));
    t.clock.advance(60_000);
    const newer = await streamer(R(3));
    const never = await streamer();
    const reviewed = await streamer();
    await put(other.c, reviewed, { r: R(2) });
    const { id: asked, speaker } = await verified();
    await put(other.c, asked, { r: R(2) });
    expect((await request(speaker, asked)).status).toBe(201);
    const done = await streamer();
    await put(me.c, done, { abstain: true });
    const mine = [older, newer, never, reviewed, asked, done];
    const q = (await queue(me.c)).filter((e) => mine.includes(e.streamer_id));
    expect(q.map((e) => e.streamer_id)).toEqual([asked, never, older, newer, reviewed]);
    expect(q[0]).toMatchObject({ requested: true, reviews: 1 });
    expect(q[1]).toMatchObject({ requested: false, reviews: 0, rated_at: null });
    expect(q[2]?.rated_at).toEqual(expect.any(String));
  });
});

/** A streamer with a channel and the signed-in user who speaks for it. */
const verified = () => spokenFor(t, admin, `reviewed${process.pid}x${++seq}`);

describe('publishing', () => {
  it('the median becomes the rating as an administrator PUT sets it: reward and notes kept, one history row, reviews cleared', async () => {
    const id = await streamer();
    expect(
      (await admin.put(`/api/streamers?id=${id}`, { r: R(1), reward: 77, notes: 'keep me' })).status,
    ).toBe(200);
    const [m1, m2, m3] = [await mod(), await mod(), await mod()];
    await put(m1.c, id, { r: R(4) });
    await put(m2.c, id, { r: R(7) });
    await put(m3.c, id, { abstain: true });
    // The list is kept in memory before the publish: it must be rendered again after it.
    const before = await item(admin, id, true);
    expect(before.r).toEqual(R(1));
    expect((await historyOf(id)).length).toBe(1);
    t.clock.advance(5_000);
    const start = t.clock.now().toISOString();
    const res = await publish(admin, id);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ ok: true });
    const after = await item(admin, id, true);
    expect(after).toMatchObject({ r: R(6), reward: 77, notes: 'keep me', evaluated: true });
    expect(after.rated_at >= start && after.rated_at > before.rated_at).toBe(true);
    expect((await item(t.client(), id)).rated_at).toBe(after.rated_at);
    const listed = ((await t.client().get('/api/streamers')).body as { id: number; rated_at: string }[]).find(
      (s) => s.id === id,
    );
    expect(listed?.rated_at).toBe(after.rated_at);
    const history = (await historyOf(id)) as { r: Scores; reward: number }[];
    expect(history).toHaveLength(2);
    expect(history[1]).toMatchObject({ r: R(6), reward: 77 });
    expect(await rowsOf(id)).toHaveLength(0);
    expect(await read(m1.c, id)).toEqual({ mine: null, count: 0, reviews: null });
    const log = (await admin.get('/api/audit?limit=5')).body as { action: string; params: unknown }[];
    expect(log[0]).toMatchObject({
      action: 'review.publish',
      params: { from: 7, to: 42, reviews: 2, spread: 10.5 },
    });
    // The rating PUT still works on its own.
    expect((await admin.put(`/api/streamers?id=${id}`, { r: R(2), reward: 5 })).status).toBe(200);
    expect((await item(admin, id)).r).toEqual(R(2));
  });

  it('a moderator: 401; no review, or only abstentions: 400 No reviews, nothing changed', async () => {
    const id = await streamer(R(3));
    const m = await mod();
    await put(m.c, id, { r: R(9) });
    expect((await publish(m.c, id)).status).toBe(401);
    const empty = await streamer(R(3));
    expect((await publish(admin, empty)).body.error).toBe('No reviews');
    await put(m.c, empty, { abstain: true });
    const res = await publish(admin, empty);
    expect(res.status).toBe(400);
    expect(res.body.error).toBe('No reviews');
    expect(await historyOf(empty)).toHaveLength(1);
    expect(await rowsOf(empty)).toHaveLength(1);
    expect((await publish(admin, 99_999_999)).status).toBe(404);
  });
});

describe('re-rating requests', () => {
  it('only the user who speaks for it: anonymous 401, another user or staff 403 Not your channel, banned 403, timed out 403', async () => {
    const { id, user, speaker } = await verified();
    expect((await request(t.client(), id)).status).toBe(401);
    const other = await t.signedIn(await t.user());
    expect((await request(other, id)).body.error).toBe('Not your channel');
    expect((await request((await mod()).c, id)).body.error).toBe('Not your channel');
    expect((await request(admin, id)).body.error).toBe('Not your channel');
    expect((await admin.put(`/api/users?id=${user.id}`, { timeout_hours: 24 })).status).toBe(200);
    expect((await request(speaker, id)).body.error).toBe('Účet je dočasně omezen');
    await admin.put(`/api/users?id=${user.id}`, { timeout_hours: 0 });
    expect((await admin.put(`/api/users?id=${user.id}`, { banned: true })).status).toBe(200);
    expect((await request(speaker, id)).body.error).toBe('Účet je zablokován');
    const open = await t.db
      .selectFrom('rerating_requests')
      .select('id')
      .where('streamer_id', '=', id)
      .execute();
    expect(open).toHaveLength(0);
  });
});

describe('races', () => {
  it('reviews sent side by side: one row per staff member, a repeat of one never two', async () => {
    const id = await streamer();
    const mods = await Promise.all([1, 2, 3, 4, 5].map(() => mod()));
    const answers = await Promise.all([
      ...mods.map((m, i) => put(m.c, id, { r: R(i + 1) })),
      ...[6, 7, 8].map((v) => put(mods[0]!.c, id, { r: R(v) })),
      put(admin, id, { r: R(1) }),
      put(admin, id, { abstain: true }),
    ]);
    expect(answers.map((a) => a.status)).toEqual(answers.map(() => 200));
    const rows = await rowsOf(id);
    expect(rows).toHaveLength(6);
    expect(rows.filter((r) => r.user_id === null)).toHaveLength(1);
  });

  it('a publish racing a review: the review is either counted and cleared, or kept for the next round', async () => {
    for (let round = 0; round < 3; round++) {
      const id = await streamer();
      const [m1, m2, late] = [await mod(), await mod(), await mod()];
      await put(m1.c, id, { r: R(2) });
      await put(m2.c, id, { r: R(4) });
      const [published, reviewed] = await Promise.all([publish(admin, id), put(late.c, id, { r: R(10) })]);
      expect(published.status).toBe(200);
      expect(reviewed.status).toBe(200);
      const rows = await rowsOf(id);
      const rating = (await item(admin, id, true)).r as Scores;
      if (rows.length === 0) expect(rating).toEqual(R(4));
      else {
        expect(rows).toHaveLength(1);
        expect(rows[0]?.user_id).toBe(late.user.id);
        expect(rating).toEqual(R(3));
      }
    }
  });
});

describe('the queue, last (it adds many streamers)', () => {
  it('holds at most 100 streamers', async () => {
    const now = t.clock.now().toISOString();
    const rows = Array.from({ length: 101 }, (_, k) =>
      streamerRow(`Queue ${process.pid} ${k}`, now, { platform: 'provider_b', kick_name: `queue_${k}` }),
    );
    await t.db.insertInto('streamers').values(rows).execute();
    expect(await queue((await mod()).c)).toHaveLength(100);
  });
});

describe('re-rating requests over months (last: the clock moves 90 days)', () => {
  it('the verified streamer asks once: 201; a second 409 Request already open; publishing closes it; then 409 Rated recently for 90 days', async () => {
    const { id, user, speaker } = await verified();
    expect((await request(speaker, id, ' too short ')).body.error).toBe('Invalid reason');
    expect((await request(speaker, id, 'x'.repeat(501))).body.error).toBe('Invalid reason');
    const first = await request(speaker, id);
    expect(first.status, first.text).toBe(201);
    expect(first.body).toEqual({ ok: true });
    const again = await request(speaker, id);
    expect(again.status).toBe(409);
    expect(again.body.error).toBe('Request already open');
    const m = await mod();
    expect((await queue(m.c)).find((e) => e.streamer_id === id)?.requested).toBe(true);
    await put(m.c, id, { r: R(5) });
    expect((await publish(admin, id)).status).toBe(200);
    const rows = await t.db
      .selectFrom('rerating_requests')
      .selectAll()
      .where('streamer_id', '=', id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]?.closed_at).toEqual(expect.any(String));
    const soon = await request(speaker, id);
    expect(soon.status).toBe(409);
    expect(soon.body.error).toBe('Rated recently');
    // Sessions lapse over months: the streamer and the administrator sign in again.
    t.clock.advance(89 * DAY);
    expect((await request(await t.signedIn(user), id)).body.error).toBe('Rated recently');
    t.clock.advance(DAY + 1000);
    const later = await t.signedIn(user);
    expect((await request(later, id)).status).toBe(201);
    const log = (await (await t.admin()).get('/api/audit?limit=1')).body as {
      action: string;
      target_id: number;
    }[];
    expect(log[0]).toMatchObject({ action: 'review.request', target_id: id });
    const own = (await later.get('/api/account/export')).body;
    expect(own.rerating_requests).toHaveLength(2);
  });
});
