import { solveChallenge } from 'altcha-lib/v1';
import { afterAll, describe, expect, it } from 'vitest';
import { postComment } from '../src/comments/post.ts';
import type { DomainError } from '../src/errors.ts';
import { ANONYMOUS } from '../src/plugins/viewer.ts';
import { startApp, type TestApp, useApp } from './helpers/app.ts';
import type { Client } from './helpers/client.ts';
import { reopen } from './helpers/database.ts';

/**
 * Issue 29 (DECISIONS.md "Guests earn trust"): held guest comments wait for staff, and guests
 * solve a proof-of-work challenge (ALTCHA) when it is due.
 */
const t = await useApp({ TRUST_PROXY: '127.0.0.1' });
t.clock.freeze();
const admin = await t.admin();
const from = (address: string, app: TestApp = t) => app.client({ 'x-forwarded-for': address });
const sid = await t.streamer('Trust Stage', { s: 5, g: 5, a: 5, v: 5, n: 5, ns: 5, o: 5 });
let n = 0;
const address = () => `203.0.113.${++n}`;

const setting = async (body: Record<string, string>) =>
  expect((await admin.put('/api/settings', body)).status).toBe(200);
const publicBodies = async () =>
  ((await t.client().get(`/api/comments?streamer_id=${sid}`)).body as { body: string }[]).map((c) => c.body);
const commentCount = async () =>
  ((await t.client().get('/api/streamers')).body as { id: number; comment_count: number }[]).find(
    (s) => s.id === sid,
  )?.comment_count;
const pendingQueue = async () =>
  (await admin.get('/api/moderation/comments?filter=pending')).body as { id: number; body: string }[];

/** Solves a challenge as a browser would, and answers the `altcha` field. */
async function solve(challenge: { challenge: string; salt: string; maxnumber: number }, app: TestApp = t) {
  const solution = await solveChallenge(challenge.challenge, challenge.salt, 'SHA-256', challenge.maxnumber)
    .promise;
  expect(solution).not.toBeNull();
  void app;
  return { ...challenge, algorithm: 'SHA-256', number: solution!.number };
}
const encode = (p: object) => Buffer.from(JSON.stringify(p)).toString('base64');
async function altchaFor(c: Client) {
  const challenge = (await c.get('/api/challenge')).body;
  const { maxnumber: _, ...payload } = await solve(challenge);
  return encode(payload);
}

describe('settings', () => {
  it('guest_hold and guest_challenge are shown to everyone, defaults none and burst; unknown values 400', async () => {
    expect((await t.client().get('/api/settings')).body).toMatchObject({
      guest_hold: 'none',
      guest_challenge: 'burst',
    });
    const bad = await admin.put('/api/settings', { guest_hold: 'some' });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toBe('Invalid guest_hold');
    expect((await admin.put('/api/settings', { guest_challenge: 'never' })).status).toBe(400);
    await setting({ guest_hold: 'links', guest_challenge: 'off' });
    expect((await t.client().get('/api/settings')).body).toMatchObject({
      guest_hold: 'links',
      guest_challenge: 'off',
    });
    await setting({ guest_hold: 'none', guest_challenge: 'burst' });
  });
});

describe('held comments', () => {
  it('links, in one group commit: only the guest posts with a link wait, not the others of the group', async () => {
    await setting({ guest_hold: 'links' });
    try {
      const bodies = [
        'one group https://one.example',
        'one group plain',
        'one group www.two.example',
        'one group plain 2',
      ];
      const groups = t.app.database.groupCommit.groups;
      // Posted in one turn: one group commit on SQLite, two side by side on PostgreSQL (the first
      // two posts and the last two: each a link and a plain one). A group's rules are asked over
      // one table of its posts (db/sql-rules.ts), each row asking its own: a plain post never
      // asks the link's rule.
      await Promise.all(
        bodies.map((body, i) =>
          postComment(t.app.ctx, ANONYMOUS, { streamer_id: sid, body }, `one-group-${i}`, t.clock.now()),
        ),
      );
      // (Or one group of all four on PostgreSQL when the other connection was busy.)
      expect(t.app.database.groupCommit.groups - groups).toBeLessThanOrEqual(
        t.app.database.kind === 'sqlite' ? 1 : 2,
      );
      const stored = await t.db
        .selectFrom('comments')
        .select(['body', 'pending'])
        .where('body', 'in', bodies)
        .execute();
      // Two groups side by side draw their ids in either order.
      expect(Object.fromEntries(stored.map((c) => [c.body, c.pending]))).toEqual(
        Object.fromEntries(bodies.map((b) => [b, b.includes('example') ? 1 : 0])),
      );
    } finally {
      await setting({ guest_hold: 'none' });
    }
  });

  it('links: a guest comment with a link is held, visible to staff only, outside counts, until approved', async () => {
    await setting({ guest_hold: 'links' });
    try {
      const countBefore = await commentCount();
      const c = from(address());
      for (const link of [
        'see HTTPS://x.example',
        'www.example.cz here',
        'join discord.gg/abc',
        'http://a.b',
      ]) {
        const res = await c.post('/api/comments', { streamer_id: sid, body: link });
        expect(res.status).toBe(201);
        expect(res.body.pending).toBe(true);
      }
      const plain = await c.post('/api/comments', { streamer_id: sid, body: 'no link at all' });
      expect(plain.status).toBe(201);
      expect(plain.body.pending).toBeUndefined();
      // A signed-in user's link is not held.
      const u = await t.signedIn(await t.user());
      const mine = await u.post('/api/comments', { streamer_id: sid, body: 'my https://link.example' });
      expect(mine.body.pending).toBeUndefined();

      expect(await publicBodies()).not.toContain('see HTTPS://x.example');
      expect(await publicBodies()).toContain('no link at all');
      expect(await commentCount()).toBe((countBefore ?? 0) + 2);
      const staffList = (await admin.get(`/api/comments?streamer_id=${sid}`)).body as {
        body: string;
        pending: boolean;
      }[];
      expect(staffList.find((x) => x.body === 'see HTTPS://x.example')?.pending).toBe(true);
      expect(staffList.find((x) => x.body === 'no link at all')?.pending).toBe(false);

      const queue = await pendingQueue();
      const held = queue.find((x) => x.body === 'see HTTPS://x.example')!;
      expect(queue.map((x) => x.id)).toEqual([...queue.map((x) => x.id)].sort((a, b) => a - b));
      const created = (await admin.get(`/api/comments?streamer_id=${sid}`)).body.find(
        (x: { id: number }) => x.id === held.id,
      ).created_at;
      t.clock.advance(60_000);
      const approved = await admin.put('/api/moderation/comments', { ids: [held.id], action: 'approve' });
      expect(approved.body).toEqual({ ok: true, count: 1 });
      const shown = (await t.client().get(`/api/comments?streamer_id=${sid}`)).body.find(
        (x: { id: number }) => x.id === held.id,
      );
      expect(shown).toMatchObject({ body: 'see HTTPS://x.example', created_at: created });
      expect(shown.pending).toBeUndefined();
      expect(await commentCount()).toBe((countBefore ?? 0) + 3);
      expect((await pendingQueue()).some((x) => x.id === held.id)).toBe(false);
    } finally {
      await setting({ guest_hold: 'none' });
    }
  });

  it('a held reply notifies nobody until it is approved; then its author hears of it once', async () => {
    await setting({ guest_hold: 'all' });
    try {
      const u = await t.signedIn(await t.user());
      const inbox = async () =>
        ((await u.get('/api/notifications')).body as { items: { kind: string; comment_id: number }[] }).items;
      const top = await u.post('/api/comments', { streamer_id: sid, body: 'answer me, guests' });
      const held = await from(address()).post('/api/comments', {
        streamer_id: sid,
        body: 'a guest answers',
        reply_to: top.body.id,
      });
      expect(held.body.pending).toBe(true);
      expect(await inbox()).toEqual([]);
      expect(
        (await admin.put('/api/moderation/comments', { ids: [held.body.id], action: 'approve' })).body,
      ).toEqual({
        ok: true,
        count: 1,
      });
      expect(await inbox()).toMatchObject([{ kind: 'reply', comment_id: held.body.id }]);
    } finally {
      await setting({ guest_hold: 'none' });
    }
  });

  it('first: a guest address with nothing published is held until staff approve one; then it is trusted', async () => {
    await setting({ guest_hold: 'first' });
    try {
      const c = from(address());
      const first = await c.post('/api/comments', { streamer_id: sid, body: 'hello, I am new' });
      expect(first.body.pending).toBe(true);
      expect((await c.post('/api/comments', { streamer_id: sid, body: 'still new' })).body.pending).toBe(
        true,
      );
      await admin.put('/api/moderation/comments', { ids: [first.body.id], action: 'approve' });
      const later = await c.post('/api/comments', { streamer_id: sid, body: 'now trusted' });
      expect(later.body.pending).toBeUndefined();
      expect(await publicBodies()).toContain('now trusted');
      // A link is still held under first.
      expect(
        (await c.post('/api/comments', { streamer_id: sid, body: 'www.spam.example' })).body.pending,
      ).toBe(true);
    } finally {
      await setting({ guest_hold: 'none' });
    }
  });

  it('first: a script rotating addresses is held every time; the held flood pages in the queue', async () => {
    await setting({ guest_hold: 'first' });
    try {
      const publicBefore = await publicBodies();
      const countBefore = await commentCount();
      const queuedBefore = (await pendingQueue()).length;
      for (let i = 0; i < 30; i++) {
        const res = await from(address()).post('/api/comments', {
          streamer_id: sid,
          body: `rotating spam ${i}`,
        });
        expect(res.status).toBe(201);
        expect(res.body.pending, `post ${i}`).toBe(true);
      }
      expect(await publicBodies()).toEqual(publicBefore);
      expect(await commentCount()).toBe(countBefore);
      // The queue answers a page, oldest first, however many wait.
      const page = (await admin.get('/api/moderation/comments?filter=pending&limit=10')).body as {
        id: number;
      }[];
      expect(page).toHaveLength(10);
      expect(page.map((c) => c.id)).toEqual([...page.map((c) => c.id)].sort((a, b) => a - b));
      expect((await pendingQueue()).length).toBe(Math.min(50, queuedBefore + 30));
      const flood = (await pendingQueue()).filter((c) => c.body.startsWith('rotating spam '));
      await admin.put('/api/moderation/comments', { ids: flood.map((c) => c.id), action: 'delete' });
    } finally {
      await setting({ guest_hold: 'none' });
    }
  });

  it('all: every guest comment is held; a reply to, a like of or a report of a held comment is refused to others', async () => {
    await setting({ guest_hold: 'all' });
    try {
      const c = from(address());
      const held = await c.post('/api/comments', { streamer_id: sid, body: 'every one waits' });
      expect(held.body.pending).toBe(true);
      const u = await t.signedIn(await t.user());
      const reply = await u.post('/api/comments', {
        streamer_id: sid,
        body: 'answering',
        reply_to: held.body.id,
      });
      expect(reply.body).toMatchObject({ code: 'invalid_reply_to' });
      // Nor liked or reported: it is in no answer but staff's, so not found (nothing stored).
      const notFound = { error: 'Comment not found', code: 'comment_not_found' };
      const like = await u.put(`/api/comments?id=${held.body.id}&like=1`, { liked: true });
      expect([like.status, like.body]).toEqual([404, notFound]);
      const report = await u.post('/api/reports', { comment_id: held.body.id, reason: 'spam' });
      expect([report.status, report.body]).toEqual([404, notFound]);
      const guestReport = await from(address()).post('/api/reports', { comment_id: held.body.id });
      expect(guestReport.status).toBe(404);
      expect(
        await t.db.selectFrom('comment_likes').selectAll().where('comment_id', '=', held.body.id).execute(),
      ).toEqual([]);
      expect(
        await t.db.selectFrom('reports').selectAll().where('comment_id', '=', held.body.id).execute(),
      ).toEqual([]);
    } finally {
      await setting({ guest_hold: 'none' });
    }
  });

  it("a held account's comments (a possible banned user's return) wait until staff approve one", async () => {
    const u = await t.user();
    await t.db.updateTable('users').set({ held: 1 }).where('id', '=', u.id).execute();
    const c = await t.signedIn(u);
    const first = await c.post('/api/comments', { streamer_id: sid, body: 'am I back?' });
    expect(first.body.pending).toBe(true);
    expect(await publicBodies()).not.toContain('am I back?');
    await admin.put('/api/moderation/comments', { ids: [first.body.id], action: 'approve' });
    expect((await admin.get(`/api/users?q=${u.login}`)).body[0].held).toBe(false);
    const next = await (await t.signedIn(u)).post('/api/comments', { streamer_id: sid, body: 'trusted now' });
    expect(next.body.pending).toBeUndefined();
  });

  it("the queue's items carry the open reports' reasons and notes, newest first, without reporters", async () => {
    const c = from(address());
    const posted = await c.post('/api/comments', { streamer_id: sid, body: 'report me please' });
    await from(address()).post('/api/reports', { comment_id: posted.body.id, reason: 'spam', note: 'ads' });
    t.clock.advance(1000);
    await from(address()).post('/api/reports', { comment_id: posted.body.id, reason: 'abuse', note: 'rude' });
    const item = (await admin.get('/api/moderation/comments?filter=reported')).body.find(
      (x: { id: number }) => x.id === posted.body.id,
    );
    expect(item.report_reasons).toEqual([
      { reason: 'abuse', note: 'rude', at: expect.any(String) },
      { reason: 'spam', note: 'ads', at: expect.any(String) },
    ]);
  });
});

describe('the challenge', () => {
  it('always: a guest gets 428 with a challenge; a solved one posts; signed-in users are never challenged', async () => {
    await setting({ guest_challenge: 'always' });
    try {
      const c = from(address());
      const asked = await c.post('/api/comments', { streamer_id: sid, body: 'let me in' });
      expect(asked.status).toBe(428);
      expect(asked.body).toMatchObject({ error: 'Challenge required', code: 'challenge_required' });
      const { challenge } = asked.body;
      expect(challenge).toMatchObject({ algorithm: 'SHA-256', maxnumber: expect.any(Number) });
      expect(challenge.maxnumber).toBeLessThanOrEqual(1_000_000);
      const { maxnumber: _, ...payload } = await solve(challenge);
      const altcha = encode(payload);
      const posted = await c.post('/api/comments', { streamer_id: sid, body: 'solved it', altcha });
      expect(posted.status).toBe(201);
      // Used once: again, 400 and nothing stored.
      const again = await c.post('/api/comments', { streamer_id: sid, body: 'solved it twice', altcha });
      expect(again.status).toBe(400);
      expect(again.body).toEqual({ error: 'Invalid challenge', code: 'challenge_invalid' });
      // Suggestions too.
      expect((await c.post('/api/streamers', { name: 'Guest Suggestion' })).status).toBe(428);
      expect(
        (await c.post('/api/streamers', { name: 'Guest Suggestion', altcha: await altchaFor(c) })).status,
      ).toBe(201);

      const u = await t.signedIn(await t.user());
      expect((await u.post('/api/comments', { streamer_id: sid, body: 'signed in, no work' })).status).toBe(
        201,
      );
      expect((await admin.post('/api/comments', { streamer_id: sid, body: 'staff, no work' })).status).toBe(
        201,
      );
      const bodies = (await t.db.selectFrom('comments').select('body').execute()).map((r) => r.body);
      expect(bodies.filter((b) => b === 'solved it twice')).toEqual([]);
    } finally {
      await setting({ guest_challenge: 'burst' });
    }
  });

  it('a post that solved its challenge is still held by the hold (links: a link waits for staff)', async () => {
    await setting({ guest_challenge: 'always', guest_hold: 'links' });
    try {
      const c = from(address());
      const altcha = await altchaFor(c);
      const posted = await c.post('/api/comments', {
        streamer_id: sid,
        body: 'see https://example.com',
        altcha,
      });
      expect(posted.status).toBe(201);
      expect(posted.body).toMatchObject({ pending: true });
      const row = await t.db
        .selectFrom('comments')
        .select('pending')
        .where('id', '=', posted.body.id)
        .executeTakeFirst();
      expect(row?.pending).toBe(1);
    } finally {
      await setting({ guest_challenge: 'burst', guest_hold: 'none' });
    }
  });

  it('forged, mismatched, expired or garbled solutions: 400 Invalid challenge, nothing stored', async () => {
    await setting({ guest_challenge: 'always' });
    try {
      const c = from(address());
      const challenge = (await c.get('/api/challenge')).body;
      const { maxnumber: _, ...good } = await solve(challenge);
      const other = (await c.get('/api/challenge')).body;
      const cases: [string, string][] = [
        ['forged signature', encode({ ...good, signature: 'f'.repeat(64) })],
        ['signature of another challenge', encode({ ...good, signature: other.signature })],
        ['wrong number', encode({ ...good, number: good.number + 1 })],
        ['other salt', encode({ ...good, salt: `${good.salt}x` })],
        ['other algorithm', encode({ ...good, algorithm: 'SHA-1' })],
        ['garbled', 'not base64 json'],
      ];
      for (const [what, altcha] of cases) {
        const res = await c.post('/api/comments', { streamer_id: sid, body: `bad: ${what}`, altcha });
        expect(res.status, what).toBe(400);
        expect(res.body, what).toEqual({ error: 'Invalid challenge', code: 'challenge_invalid' });
      }
      t.clock.advance(10 * 60_000 + 1000);
      const late = await c.post('/api/comments', {
        streamer_id: sid,
        body: 'bad: expired',
        altcha: encode(good),
      });
      expect(late.body).toEqual({ error: 'Invalid challenge', code: 'challenge_invalid' });
      const bodies = (await t.db.selectFrom('comments').select('body').execute()).map((r) => r.body);
      expect(bodies.filter((b) => b.startsWith('bad: '))).toEqual([]);
    } finally {
      await setting({ guest_challenge: 'burst' });
    }
  });

  it('a solution sent with a post refused for another reason is not used up: nothing stored', async () => {
    await setting({ guest_challenge: 'always' });
    try {
      const c = from(address());
      const altcha = await altchaFor(c);
      const uses = async () => (await t.db.selectFrom('challenge_uses').selectAll().execute()).length;
      const before = await uses();
      const refusals: [string, () => Promise<{ status: number; body: unknown }>, number, string][] = [
        [
          'too short',
          () => c.post('/api/comments', { streamer_id: sid, body: 'x', altcha }),
          400,
          'Komentář je příliš krátký',
        ],
        [
          'unknown streamer',
          () => c.post('/api/comments', { streamer_id: 999999, body: 'hello there', altcha }),
          404,
          'Streamer not found',
        ],
        ['duplicate suggestion', () => c.post('/api/streamers', { name: 'Trust Stage', altcha }), 409, ''],
        ['suggestion without a name', () => c.post('/api/streamers', { name: '', altcha }), 400, ''],
      ];
      for (const [what, send, status, error] of refusals) {
        const res = await send();
        expect(res.status, what).toBe(status);
        if (error) expect(res.body, what).toMatchObject({ error });
        expect(await uses(), what).toBe(before);
      }
      // The same solution then serves one accepted post, and only one.
      const posted = await c.post('/api/comments', { streamer_id: sid, body: 'after the refusals', altcha });
      expect(posted.status).toBe(201);
      expect((await c.post('/api/streamers', { name: 'Reused Suggestion', altcha })).body).toEqual({
        error: 'Invalid challenge',
        code: 'challenge_invalid',
      });
    } finally {
      await setting({ guest_challenge: 'burst' });
    }
  });

  it('off: never challenged', async () => {
    await setting({ guest_challenge: 'off' });
    try {
      expect((await from(address()).post('/api/comments', { streamer_id: sid, body: 'free' })).status).toBe(
        201,
      );
    } finally {
      await setting({ guest_challenge: 'burst' });
    }
  });

  it.runIf(t.database.kind === 'postgres')(
    'one solution sent to two instances at once is used once',
    async () => {
      await setting({ guest_challenge: 'always' });
      const second = await startApp({ TRUST_PROXY: '127.0.0.1' }, { database: reopen(t.database) });
      try {
        const ip = address();
        const altcha = await altchaFor(from(ip));
        const answers = await Promise.all(
          Array.from({ length: 6 }, (_, i) =>
            from(ip, i % 2 ? second : t).post('/api/comments', {
              streamer_id: sid,
              body: `race ${i}`,
              altcha,
            }),
          ),
        );
        expect(answers.map((a) => a.status).sort()).toEqual([201, 400, 400, 400, 400, 400]);
        const raced = (await t.db.selectFrom('comments').select('body').execute()).filter((r) =>
          r.body.startsWith('race '),
        );
        expect(raced).toHaveLength(1);
      } finally {
        await second.close();
        await setting({ guest_challenge: 'burst' });
      }
    },
  );
});

describe('burst', () => {
  it('with rate limits on, the fourth guest post within 60 seconds is challenged', async () => {
    const limited = await startApp({ TRUST_PROXY: '127.0.0.1', RATE_LIMIT: 'on' });
    afterAll(() => limited.close());
    limited.clock.freeze();
    const streamer = await limited.streamer('Burst Stage');
    const c = from('192.0.2.50', limited);
    for (let i = 0; i < 3; i++) {
      expect((await c.post('/api/comments', { streamer_id: streamer, body: `burst ${i}` })).status).toBe(201);
    }
    expect((await c.post('/api/comments', { streamer_id: streamer, body: 'burst 3' })).status).toBe(428);
    limited.clock.advance(61_000);
    expect((await c.post('/api/comments', { streamer_id: streamer, body: 'burst 4' })).status).toBe(201);
  });

  it('ten posts at once from one address: three are stored, seven challenged (also in one group commit, or two side by side)', async () => {
    const limited = await startApp({ TRUST_PROXY: '127.0.0.1', RATE_LIMIT: 'on' });
    afterAll(() => limited.close());
    limited.clock.freeze();
    const streamer = await limited.streamer('Parallel Burst');
    const c = from('192.0.2.60', limited);
    const groups = limited.app.database.groupCommit.groups;
    const statuses = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        c.post('/api/comments', { streamer_id: streamer, body: `at once ${i}` }),
      ),
    );
    expect(statuses.map((r) => r.status).sort()).toEqual([...Array(3).fill(201), ...Array(7).fill(428)]);
    const stored = await limited.db
      .selectFrom('comments')
      .select('body')
      .where('streamer_id', '=', streamer)
      .execute();
    expect(stored).toHaveLength(3);
    expect(limited.app.database.groupCommit.groups - groups).toBeLessThan(10);
    // Ten posts of another address in one turn: one group commit on SQLite, two side by side on
    // PostgreSQL; either way three are stored.
    const posted = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        postComment(
          limited.app.ctx,
          ANONYMOUS,
          { streamer_id: streamer, body: `one turn ${i}` },
          'one-turn',
          limited.clock.now(),
        ),
      ),
    );
    expect(posted.filter((p) => p.status === 'fulfilled')).toHaveLength(3);
    for (const p of posted.filter((p) => p.status === 'rejected'))
      expect((p.reason as DomainError).code).toBe('challenge_required');
  });
});
