import { describe, expect, it } from 'vitest';
import { useApp } from './helpers/app.ts';
import type { Client } from './helpers/client.ts';
import { R } from './helpers/streamers.ts';

/**
 * DECISIONS.md "Fifth wave" → "Comments: pinned and ordered": who pins, one pinned comment per
 * streamer (also when pins race), the pinned comment first in every order and on the first page
 * only, `order=top` paged by `offset`, the 400s, and the audit log.
 */
const t = await useApp();
const admin = await t.admin();
const moderator = await t.signedIn(await t.user({}, { mod: true }));
const commenterUser = await t.user();
const commenter = await t.signedIn(commenterUser);

let n = 0;
/** A rated streamer on Twitch, and a client signed in as the user who speaks for it. */
async function streamerWithVoice(): Promise<{ sid: number; voice: Client; voiceId: number; name: string }> {
  const channel = `pinchannel${++n}`;
  const res = await admin.post('/api/streamers?admin=1', {
    name: `Pin ${n}`,
    platform: 'provider_a',
    provider_a: channel,
  });
  expect(res.status).toBe(201);
  const sid = res.body.id as number;
  expect((await admin.put(`/api/streamers?id=${sid}`, { r: R(6) })).status).toBe(200);
  const user = await t.user({ provider: 'provider_a', login: channel });
  return { sid, voice: await t.signedIn(user), voiceId: user.id, name: `Pin ${n}` };
}

async function post(sid: number, body: string, replyTo?: number, c: Client = commenter): Promise<number> {
  const res = await c.post('/api/comments', {
    streamer_id: sid,
    body,
    ...(replyTo ? { reply_to: replyTo } : {}),
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id as number;
}
const pin = (c: Client, id: number, pinned: unknown = true) =>
  c.put(`/api/comments?id=${id}&pin=1`, { pinned });
const list = async (sid: number, query = '', c: Client = t.client()) => {
  const res = await c.get(`/api/comments?streamer_id=${sid}${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body as { id: number; pinned: boolean; reply_to: number | null; likes: number }[];
};
const ids = (items: { id: number }[]) => items.map((c) => c.id);
const pinnedIds = async (sid: number) =>
  (
    await t.db
      .selectFrom('comments')
      .select('id')
      .where('streamer_id', '=', sid)
      .where('pinned', '=', 1)
      .execute()
  ).map((r) => r.id);
const expectError = (res: { status: number; body: any }, status: number, error: string, code: string) => {
  expect(res.status).toBe(status);
  expect(res.body).toEqual({ error, code });
};

describe('who may pin', () => {
  it('staff (the administrator by password, a moderator) and the user who speaks for the streamer: {ok: true}', async () => {
    const { sid, voice } = await streamerWithVoice();
    const a = await post(sid, 'first words');
    for (const c of [admin, moderator, voice]) {
      const res = await pin(c, a, false);
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ ok: true });
      expect((await pin(c, a)).body).toEqual({ ok: true });
      expect(await pinnedIds(sid)).toEqual([a]);
    }
  });

  it('someone else, the author included, and the voice of another streamer: 403 Not allowed, nothing changes', async () => {
    const { sid } = await streamerWithVoice();
    const other = await streamerWithVoice();
    const a = await post(sid, 'by the commenter');
    for (const c of [commenter, other.voice, await t.signedIn(await t.user())]) {
      expectError(await pin(c, a), 403, 'Not allowed', 'not_allowed');
    }
    expect(await pinnedIds(sid)).toEqual([]);
    // The role comes before the input: a reply is 403 too for them, not 400.
    const reply = await post(sid, 'a reply', a);
    expectError(await pin(commenter, reply), 403, 'Not allowed', 'not_allowed');
  });

  it('anonymous: 401 Unauthorized; banned: 403 Účet je zablokován; timed out: 403 Účet je dočasně omezen; nothing changes', async () => {
    const { sid, voice, voiceId } = await streamerWithVoice();
    const a = await post(sid, 'to be pinned');
    expectError(await pin(t.client(), a), 401, 'Unauthorized', 'unauthorized');

    expect((await moderator.put(`/api/users?id=${voiceId}`, { timeout_hours: 2 })).status).toBe(200);
    const timedOut = await pin(voice, a);
    expect(timedOut.status).toBe(403);
    expect(timedOut.body).toMatchObject({ error: 'Účet je dočasně omezen', code: 'timed_out' });
    expect(await pinnedIds(sid)).toEqual([]);
    // Once the time-out is over, the voice pins again.
    t.clock.advance(2 * 3_600_000 + 1000);
    expect((await pin(voice, a)).status).toBe(200);
    expect((await pin(voice, a, false)).status).toBe(200);

    expect((await admin.put(`/api/users?id=${voiceId}`, { banned: true })).status).toBe(200);
    expectError(await pin(voice, a), 403, 'Účet je zablokován', 'banned');
    const banned = await t.signedIn(await t.user({}, { banned: true }));
    expectError(await pin(banned, a), 403, 'Účet je zablokován', 'banned');
    expect(await pinnedIds(sid)).toEqual([]);
  });
});

describe('what may be pinned', () => {
  it('missing id: 400 Missing id; no pinned: 400 Nothing to update; unknown comment: 404 Comment not found', async () => {
    const { sid } = await streamerWithVoice();
    const a = await post(sid, 'some words');
    for (const q of ['', 'id=&', 'id=0&', 'id=x&']) {
      expectError(
        await admin.put(`/api/comments?${q}pin=1`, { pinned: true }),
        400,
        'Missing id',
        'missing_id',
      );
    }
    expectError(
      await admin.put(`/api/comments?id=${a}&pin=1`, {}),
      400,
      'Nothing to update',
      'nothing_to_update',
    );
    expectError(await pin(admin, 99_999_999), 404, 'Comment not found', 'comment_not_found');
    expectError(await pin(commenter, 99_999_999), 404, 'Comment not found', 'comment_not_found');
  });

  it('a reply, a hidden comment or one held for a moderator: 400 Cannot pin this comment; unpinning them is ok', async () => {
    const { sid, voice } = await streamerWithVoice();
    const a = await post(sid, 'a thread');
    const reply = await post(sid, 'its reply', a);
    const hidden = await post(sid, 'hidden soon');
    expect((await admin.put(`/api/comments?id=${hidden}`, { hidden: true })).status).toBe(200);
    await admin.put('/api/settings', { guest_hold: 'all' });
    const held = await t.client().post('/api/comments', { streamer_id: sid, body: 'a guest waits' });
    await admin.put('/api/settings', { guest_hold: 'none' });
    expect(held.body.pending).toBe(true);
    for (const c of [admin, voice]) {
      for (const id of [reply, hidden, held.body.id as number]) {
        expectError(await pin(c, id), 400, 'Cannot pin this comment', 'cannot_pin');
        expect(await pin(c, id, false)).toMatchObject({ status: 200, body: { ok: true } });
      }
    }
    expect(await pinnedIds(sid)).toEqual([]);
  });

  it('hiding a pinned comment unpins it, alone or in bulk; shown again it stays unpinned', async () => {
    const { sid } = await streamerWithVoice();
    const a = await post(sid, 'pinned, then hidden');
    expect((await pin(admin, a)).status).toBe(200);
    expect((await commenter.put(`/api/comments?id=${a}`, { hidden: true })).status).toBe(200);
    expect(await pinnedIds(sid)).toEqual([]);
    expect((await commenter.put(`/api/comments?id=${a}`, { hidden: false })).status).toBe(200);
    expect((await list(sid)).find((c) => c.id === a)?.pinned).toBe(false);

    expect((await pin(moderator, a)).status).toBe(200);
    const bulk = await moderator.put('/api/moderation/comments', { ids: [a], action: 'hide' });
    expect(bulk.status).toBe(200);
    expect(await pinnedIds(sid)).toEqual([]);
  });
});

describe('one pinned comment per streamer', () => {
  it('pinning another unpins the first; another streamer keeps its own; a repeat changes nothing', async () => {
    const { sid, voice } = await streamerWithVoice();
    const other = await streamerWithVoice();
    const [a, b] = [await post(sid, 'first'), await post(sid, 'second')];
    const c = await post(other.sid, 'elsewhere');
    expect((await pin(admin, c)).status).toBe(200);
    expect((await pin(admin, a)).status).toBe(200);
    expect((await pin(voice, b)).status).toBe(200);
    expect(await pinnedIds(sid)).toEqual([b]);
    expect(await pinnedIds(other.sid)).toEqual([c]);
    expect((await pin(voice, b)).status).toBe(200);
    expect(await pinnedIds(sid)).toEqual([b]);
    const items = await list(sid);
    expect(items.filter((x) => x.pinned).map((x) => x.id)).toEqual([b]);
    // Unpinned: nothing is pinned, the order is the plain one again.
    expect((await pin(moderator, b, false)).status).toBe(200);
    expect(ids(await list(sid))).toEqual([a, b]);
  });

  it('pins sent at once: every one answers {ok: true} and one comment ends pinned', async () => {
    const { sid, voice } = await streamerWithVoice();
    const comments: number[] = [];
    for (let i = 0; i < 8; i++) comments.push(await post(sid, `racer ${i}`));
    const pinners = [admin, moderator, voice];
    const answers = await Promise.all(comments.map((id, i) => pin(pinners[i % 3]!, id)));
    expect(answers.map((r) => r.status)).toEqual(comments.map(() => 200));
    const pinned = await pinnedIds(sid);
    expect(pinned).toHaveLength(1);
    expect(comments).toContain(pinned[0]);
    expect((await list(sid)).filter((x) => x.pinned).map((x) => x.id)).toEqual(pinned);
    // Again, unpins racing pins: never two.
    const mixed = await Promise.all(comments.map((id, i) => pin(pinners[i % 3]!, id, i % 2 === 0)));
    expect(mixed.every((r) => r.status === 200)).toBe(true);
    expect((await pinnedIds(sid)).length).toBeLessThanOrEqual(1);
  });

  it('the database refuses a second pinned comment of a streamer', async () => {
    const { sid } = await streamerWithVoice();
    const [a, b] = [await post(sid, 'one'), await post(sid, 'two')];
    await t.db.updateTable('comments').set({ pinned: 1 }).where('id', '=', a).execute();
    await expect(
      t.db.updateTable('comments').set({ pinned: 1 }).where('id', '=', b).execute(),
    ).rejects.toThrow();
    const reply = await post(sid, 'a reply', b);
    await t.db.updateTable('comments').set({ pinned: 0 }).where('id', '=', a).execute();
    await expect(
      t.db.updateTable('comments').set({ pinned: 1 }).where('id', '=', reply).execute(),
    ).rejects.toThrow();
    await expect(
      t.db.updateTable('comments').set({ pinned: 2 }).where('id', '=', a).execute(),
    ).rejects.toThrow();
  });
});

describe('the pinned comment comes first', () => {
  /** A streamer with comments 1..5 (ids ascending), each but the last with a reply; the third pinned. */
  async function thread() {
    const { sid, voice } = await streamerWithVoice();
    const tops: number[] = [];
    const replies = new Map<number, number>();
    for (let i = 1; i <= 5; i++) {
      const id = await post(sid, `comment ${i}`);
      tops.push(id);
      if (i < 5) replies.set(id, await post(sid, `reply to ${i}`, id));
    }
    const pinned = tops[2]!;
    // The list is read (and kept) before the pin: the pin must move it.
    await list(sid);
    await list(sid, '&limit=2');
    await list(sid, '&order=top&limit=2');
    expect((await pin(voice, pinned)).status).toBe(200);
    return { sid, tops, replies, pinned, voice };
  }

  it('the whole list: the pinned comment with its replies first, then the rest oldest first; items carry pinned', async () => {
    const { sid, tops, replies, pinned } = await thread();
    const r = (i: number) => replies.get(tops[i]!)!;
    const expected = [pinned, r(2), tops[0], r(0), tops[1], r(1), tops[3], r(3), tops[4]];
    for (const c of [t.client(), admin]) {
      const items = await list(sid, '', c);
      expect(ids(items)).toEqual(expected);
      expect(items.map((x) => x.pinned)).toEqual(expected.map((id) => id === pinned));
    }
    // order=newest is the default: the same answer.
    expect(ids(await list(sid, '&order=newest'))).toEqual(expected);
  });

  it('newest pages: the pinned comment first on the first page only, beside `limit` others; every comment once', async () => {
    const { sid, tops, replies, pinned } = await thread();
    const r = (i: number) => replies.get(tops[i]!)!;
    const first = await list(sid, '&limit=2');
    expect(ids(first)).toEqual([pinned, r(2), tops[3], r(3), tops[4]]);
    expect(ids(await list(sid, '&order=newest&limit=2'))).toEqual(ids(first));
    // The next page is below the smallest id of the page's comments that are not pinned.
    const second = await list(sid, `&limit=2&before=${tops[3]}`);
    expect(ids(second)).toEqual([tops[0], r(0), tops[1], r(1)]);
    expect(await list(sid, `&limit=2&before=${tops[0]}`)).toEqual([]);
    // A page below the pinned comment's id does not bring it back.
    expect(ids(await list(sid, `&limit=5&before=${tops[4]}`))).toEqual([
      tops[0],
      r(0),
      tops[1],
      r(1),
      tops[3],
      r(3),
    ]);
    const seen = [...ids(first), ...ids(second)];
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen.sort((a, b) => a - b)).toEqual(ids(await list(sid)).sort((a, b) => a - b));
    // The newest comment pinned: first all the same, the page's others below it, oldest first.
    expect((await pin(admin, tops[4]!)).status).toBe(200);
    expect(ids(await list(sid, '&limit=2'))).toEqual([tops[4], tops[2], r(2), tops[3], r(3)]);
  });

  it('top pages: the pinned comment first at offset 0 only, whatever its likes', async () => {
    const { sid, tops, replies, pinned } = await thread();
    const r = (i: number) => replies.get(tops[i]!)!;
    await commenter.put(`/api/comments?id=${tops[0]}&like=1`, { liked: true });
    const page0 = await list(sid, '&order=top&limit=2');
    expect(ids(page0)).toEqual([pinned, r(2), tops[0], r(0), tops[4]]);
    expect(page0[0]!.pinned).toBe(true);
    const page1 = await list(sid, '&order=top&limit=2&offset=2');
    expect(ids(page1)).toEqual([tops[3], r(3), tops[1], r(1)]);
    expect(await list(sid, '&order=top&limit=2&offset=4')).toEqual([]);
  });
});

describe('order=top', () => {
  it('pages top-level comments by likes, then newest, with offset; replies follow their comment; `before` is not read', async () => {
    const { sid } = await streamerWithVoice();
    const likers = [commenter, moderator, await t.signedIn(await t.user())];
    const tops: number[] = [];
    for (let i = 0; i < 6; i++) tops.push(await post(sid, `top ${i}`));
    const likes = [1, 3, 0, 1, 2, 0];
    for (const [i, count] of likes.entries()) {
      for (const c of likers.slice(0, count)) {
        expect((await c.put(`/api/comments?id=${tops[i]}&like=1`, { liked: true })).status).toBe(200);
      }
    }
    const reply = await post(sid, 'a reply with many likes', tops[2]);
    for (const c of likers) await c.put(`/api/comments?id=${reply}&like=1`, { liked: true });
    const ranked = [tops[1], tops[4], tops[3], tops[0], tops[5], tops[2]];

    const all = await list(sid, '&order=top&limit=100');
    expect(ids(all)).toEqual([...ranked, reply]);
    expect(all.map((c) => c.likes)).toEqual([3, 2, 1, 1, 0, 0, 3]);
    expect(ids(await list(sid, '&order=top&limit=2'))).toEqual(ranked.slice(0, 2));
    expect(ids(await list(sid, '&order=top&limit=2&offset=2'))).toEqual(ranked.slice(2, 4));
    expect(ids(await list(sid, '&order=top&limit=3&offset=4'))).toEqual([tops[5], tops[2], reply]);
    expect(ids(await list(sid, `&order=top&limit=2&before=${tops[1]}`))).toEqual(ranked.slice(0, 2));
    expect(await list(sid, '&order=top&limit=2&offset=10000')).toEqual([]);
    // A like moves a comment up (ahead of the older ones with as many likes): the kept answer is made again.
    await moderator.put(`/api/comments?id=${tops[5]}&like=1`, { liked: true });
    expect(ids(await list(sid, '&order=top&limit=3&offset=2'))).toEqual([tops[5], tops[3], tops[0]]);
  });

  it('without limit: a page of 50', async () => {
    const { sid } = await streamerWithVoice();
    for (let i = 0; i < 51; i++) await post(sid, `many ${i}`);
    const page = await list(sid, '&order=top');
    expect(page).toHaveLength(50);
    expect(await list(sid, '&order=top&offset=50')).toHaveLength(1);
  });

  it('hidden comments stay out for visitors; staff get them', async () => {
    const { sid } = await streamerWithVoice();
    const [a, b] = [await post(sid, 'shown'), await post(sid, 'hidden')];
    await admin.put(`/api/comments?id=${b}`, { hidden: true });
    expect(ids(await list(sid, '&order=top'))).toEqual([a]);
    expect(ids(await list(sid, '&order=top', admin))).toEqual([b, a]);
  });
});

describe('400s', () => {
  it('order other than newest or top: 400 Invalid order', async () => {
    const { sid } = await streamerWithVoice();
    for (const order of ['oldest', 'TOP', '', 'top ', 'likes']) {
      const res = await t
        .client()
        .get(`/api/comments?streamer_id=${sid}&order=${encodeURIComponent(order)}&limit=5`);
      expectError(res, 400, 'Invalid order', 'invalid_order');
    }
  });

  it('offset outside 0 to 10000 or not an integer: 400 with the range', async () => {
    const { sid } = await streamerWithVoice();
    for (const offset of ['-1', '10001', '1.5', 'x', '', '99999999999']) {
      const res = await t.client().get(`/api/comments?streamer_id=${sid}&order=top&offset=${offset}`);
      expectError(res, 400, 'offset must be an integer from 0 to 10000', 'invalid_offset');
    }
    for (const offset of ['0', '01', '9999', '10000']) {
      expect(
        (await t.client().get(`/api/comments?streamer_id=${sid}&order=top&offset=${offset}`)).status,
      ).toBe(200);
    }
    const limit = await t.client().get(`/api/comments?streamer_id=${sid}&order=top&limit=101`);
    expect(limit.status).toBe(400);
    expect(limit.body.code).toBe('invalid_limit');
  });
});

describe('audit', () => {
  const latest = async () => (await admin.get('/api/audit?limit=1')).body[0];

  it("staff's pins and unpins are in the log, naming the comment's author and streamer; the streamer's are not, nor repeats", async () => {
    const { sid, voice, name } = await streamerWithVoice();
    const [a, b] = [await post(sid, 'audited one'), await post(sid, 'audited two')];
    expect((await pin(moderator, a)).status).toBe(200);
    expect(await latest()).toMatchObject({
      action: 'comment.pin',
      target_id: a,
      params: { author: commenterUser.display_name, streamer: name, pinned: true },
      summary: `Pinned a comment by ${commenterUser.display_name} on ${name}`,
    });
    const count = async () =>
      (await admin.get('/api/audit?limit=100')).body.filter((e: any) => e.action === 'comment.pin').length;
    const before = await count();
    expect((await pin(moderator, a)).status).toBe(200);
    expect((await voice.put(`/api/comments?id=${b}&pin=1`, { pinned: true })).status).toBe(200);
    expect((await pin(voice, b, false)).status).toBe(200);
    expect(await count()).toBe(before);
    expect((await pin(admin, b)).status).toBe(200);
    expect((await pin(admin, b, false)).status).toBe(200);
    expect(await latest()).toMatchObject({
      action: 'comment.pin',
      target_id: b,
      params: { streamer: name, pinned: false },
      summary: `Unpinned a comment by ${commenterUser.display_name} on ${name}`,
    });
    expect(await count()).toBe(before + 2);
  });
});
