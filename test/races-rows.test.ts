import { describe, expect, it } from 'vitest';
import { useApp } from './helpers/app.ts';
import { raceCallers, whileHeld } from './helpers/races.ts';
import { R, spokenFor } from './helpers/streamers.ts';

/**
 * Writes sent side by side on one row that another of them replaces or removes (an attacker's
 * or two staff members' double click): each ends in its own clean answer, never a 500 from a
 * unique key or a foreign key that the other write broke meanwhile. On PostgreSQL the writes
 * overlap (READ COMMITTED); SQLite runs them one at a time, and the same answers are asked of it.
 */
const t = await useApp();
t.clock.freeze();
const { admin, mod, author } = await raceCallers(t);
const liker = await t.signedIn(await t.user());

const HOUR = 3_600_000;
const at = (hours: number) => new Date(t.clock.now().getTime() + hours * HOUR).toISOString();
const statuses = (results: { status: number }[]) => results.map((r) => r.status);

describe('a comment hidden, liked, blocked and deleted at once', () => {
  it('every write answers 2xx, 4xx or a clean 503, never a 500', async () => {
    const sid = await t.streamer(undefined, R(5));
    for (let round = 0; round < 12; round++) {
      const posted = await author.post('/api/comments', { streamer_id: sid, body: `Race round ${round}` });
      const guest = await t
        .client()
        .post('/api/comments', { streamer_id: sid, body: `Guest ${round}`, author: 'Pepa' });
      expect([posted.status, guest.status]).toEqual([201, 201]);
      const id = posted.body.id as number;
      const results = await Promise.all([
        admin.del(`/api/comments?id=${id}`),
        mod.put(`/api/comments?id=${id}`, { hidden: true }),
        admin.put('/api/moderation/comments', { ids: [id], action: 'hide' }),
        mod.put('/api/moderation/comments', { ids: [id, guest.body.id], action: 'hide' }),
        liker.put(`/api/comments?id=${id}&like=1`, { liked: true }),
        admin.post('/api/moderation/blocks', { comment_id: guest.body.id }),
        admin.del(`/api/comments?id=${guest.body.id}`),
        author.put(`/api/comments?id=${id}`, { hidden: true }),
      ]);
      // 503 is the service's clean answer to a database conflict (a deadlock), retried by clients.
      expect(statuses(results).filter((s) => s >= 500 && s !== 503)).toEqual([]);
      // The next round's guest posts from the same address.
      await t.db.deleteFrom('address_blocks').execute();
    }
  });
});

describe('two staff members hiding one comment at once', () => {
  it.skipIf(!t.database.pool)(
    'the second sees it hidden: its author is told once, and the audit says it was shown once',
    async () => {
      const pool = t.database.pool!;
      const sid = await t.streamer(undefined, R(5));
      const user = await t.user();
      const posted = await (
        await t.signedIn(user)
      ).post('/api/comments', { streamer_id: sid, body: 'Hide me twice' });
      expect(posted.status).toBe(201);
      const id = posted.body.id as number;
      // Another transaction holds the comment's row until both hides wait for it (a condition,
      // not a wall-clock wait); let go, they run one after the other or, reading the row without
      // its lock, side by side from what each read before.
      const hides = await whileHeld(
        pool,
        (other) => other.query('select 1 from comments where id = $1 for update', [id]),
        async (untilWaiting) => {
          const sent = [
            mod.put(`/api/comments?id=${id}`, { hidden: true }),
            admin.put(`/api/comments?id=${id}`, { hidden: true }),
          ];
          await untilWaiting(2);
          return sent;
        },
      );
      expect(statuses(await Promise.all(hides))).toEqual([200, 200]);
      const told = await t.db
        .selectFrom('notifications')
        .select('id')
        .where('comment_id', '=', id)
        .where('kind', '=', 'hidden')
        .execute();
      expect(told).toHaveLength(1);
      // Each hide's entry says what it found: shown for the first, already hidden for the second.
      const entries = await t.db
        .selectFrom('audit_log')
        .select('details')
        .where('action', '=', 'comment.hide')
        .where('target_id', '=', id)
        .execute();
      const found = entries.map((e) => (JSON.parse(String(e.details)) as { old: boolean }).old).sort();
      expect(found).toEqual([false, true]);
    },
  );
});

describe('a comment posted while what it names is deleted', () => {
  it('a reply beside the delete of its parent answers 201 or 400 Invalid reply_to, never a 500', async () => {
    const sid = await t.streamer(undefined, R(5));
    for (let round = 0; round < 10; round++) {
      const parent = await author.post('/api/comments', { streamer_id: sid, body: `Parent ${round}` });
      const results = await Promise.all([
        admin.del(`/api/comments?id=${parent.body.id}`),
        ...Array.from({ length: 4 }, (_, i) =>
          liker.post('/api/comments', {
            streamer_id: sid,
            body: `Reply ${round} ${i}`,
            reply_to: parent.body.id,
          }),
        ),
      ]);
      expect(results[0].status).toBe(200);
      for (const r of results.slice(1)) {
        expect([201, 400]).toContain(r.status);
        if (r.status === 400) expect(r.body.error).toBe('Invalid reply_to');
      }
    }
  });

  it('a comment beside the delete of its streamer answers 201 or 404 Streamer not found, never a 500', async () => {
    for (let round = 0; round < 6; round++) {
      const sid = await t.streamer(undefined, R(5));
      const results = await Promise.all([
        admin.del(`/api/streamers?id=${sid}`),
        ...Array.from({ length: 4 }, (_, i) =>
          liker.post('/api/comments', { streamer_id: sid, body: `Going ${round} ${i}` }),
        ),
      ]);
      expect(results[0].status).toBe(200);
      for (const r of results.slice(1)) {
        expect([201, 404]).toContain(r.status);
        if (r.status === 404) expect(r.body.error).toBe('Streamer not found');
      }
    }
  });
});

describe('writes about a streamer or a team while an administrator deletes it', () => {
  it('follow, vote, rating, team rating, reply and review answer 2xx or their 404, never a 500', async () => {
    const results: { status: number }[] = [];
    for (let round = 0; round < 6; round++) {
      const speaker = await t.user({ login: `deleted${round}x${Date.now() % 10000}` });
      const voice = await t.signedIn(speaker);
      const sid = await t.streamer(speaker.login, R(5));
      const team = await admin.post('/api/rater_groups', { name: `Going Team ${round}`, streamer_id: sid });
      await admin.post('/api/rater_groups?members=1', { group_id: team.body.id, login: speaker.login });
      results.push(
        ...(await Promise.all([
          admin.del(`/api/streamers?id=${sid}`),
          admin.del(`/api/rater_groups?id=${team.body.id}`),
          voice.put(`/api/follows?streamer_id=${sid}`, { follow: true }),
          voice.put(`/api/votes?streamer_id=${sid}`, { score: 4 }),
          voice.put('/api/community_ratings', { group_id: team.body.id, r: R(3) }),
          voice.put(`/api/streamers?id=${sid}&reply=1`, { body: 'Thanks for the rating' }),
          admin.put(`/api/streamers?id=${sid}`, { r: R(7) }),
          mod.put(`/api/streamers?id=${sid}`, { r: R(6) }),
          mod.put(`/api/reviews?streamer_id=${sid}`, { r: R(4) }),
        ])),
      );
    }
    expect(statuses(results).filter((s) => s >= 500 && s !== 503)).toEqual([]);
  });
});

describe('a hand-kept schedule replaced by several requests at once', () => {
  it('every replacement answers 200 and one of them is the schedule', async () => {
    const res = await admin.post('/api/streamers?admin=1', {
      name: `Schedule Race ${Date.now() % 100000}`,
      platform: 'provider_b',
    });
    expect(res.status).toBe(201);
    const id = res.body.id as number;
    expect((await admin.put(`/api/streamers?id=${id}`, { r: R(6) })).status).toBe(200);
    const sets = Array.from({ length: 8 }, (_, i) => [
      { start: at(1 + i), end: at(2 + i), title: `First ${i}` },
      { start: at(30 + i), end: at(31 + i), title: `Second ${i}` },
    ]);
    const results = await Promise.all(
      sets.map((segments) => admin.put(`/api/streamers?id=${id}&schedule=1`, { segments })),
    );
    expect(statuses(results)).toEqual(Array(8).fill(200));
    const kept = (await admin.get(`/api/streamers?id=${id}&schedule=1`)).body.segments as { title: string }[];
    expect(kept).toHaveLength(2);
    const n = kept[0]!.title.split(' ')[1];
    expect(kept.map((s) => s.title)).toEqual([`First ${n}`, `Second ${n}`]);
  });
});

describe('a re-rating asked for several times at once (DECISIONS.md "Staff reviews": one open request)', () => {
  it('one request is taken, the others answer 409 Request already open; one row', async () => {
    const { id, user, speaker } = await spokenFor(t, admin, `rerace${process.pid}`);
    const ask = () =>
      speaker.post(`/api/reviews?streamer_id=${id}&request=1`, {
        reason: 'My overlay is all new since then.',
      });
    // PostgreSQL: the speaker's account row held until all three wait, each at its insert (whose
    // foreign key reads that row) or behind the streamer's row another of them locked; let go,
    // they go on side by side. SQLite runs them one at a time.
    const sent = t.database.pool
      ? await whileHeld(
          t.database.pool,
          (other) => other.query('select 1 from users where id = $1 for update', [user.id]),
          async (untilWaiting) => {
            const asked = [ask(), ask(), ask()];
            await untilWaiting(3);
            return asked;
          },
        )
      : [ask(), ask(), ask()];
    const answers = await Promise.all(sent);
    expect(statuses(answers).sort()).toEqual([201, 409, 409]);
    expect(answers.filter((a) => a.status === 409).map((a) => a.body.error)).toEqual([
      'Request already open',
      'Request already open',
    ]);
    const rows = await t.db
      .selectFrom('rerating_requests')
      .select('id')
      .where('streamer_id', '=', id)
      .execute();
    expect(rows).toHaveLength(1);
  });
});
