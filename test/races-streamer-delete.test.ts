import type { PoolClient } from 'pg';
import { describe, expect, it } from 'vitest';
import { useApp } from './helpers/app.ts';
import type { Answer, Client } from './helpers/client.ts';
import { raceCallers, whileHeld } from './helpers/races.ts';
import { R, spokenFor } from './helpers/streamers.ts';

/**
 * PostgreSQL: a write beside the delete of its streamer. The delete locks the streamer's row,
 * then (its cascade) the streamer's comments and rating; every write takes the same order, the
 * streamer's row before its comments or rating, so the two never wait on each other in a
 * circle (a deadlock, which answered 503). Each answers its own code: the write done before the
 * delete, or after it, as a write on a deleted streamer answers (404).
 *
 * Each test makes the one order that deadlocked, by condition, never a wall-clock wait:
 * another transaction holds a row until the delete and then the write wait for it (or the write
 * is done), then lets go.
 */
const t = await useApp();
t.clock.freeze();
const { admin, mod, author } = await raceCallers(t);

/**
 * `hold` runs in another transaction; then the first of the streamer's delete and `write` is
 * sent and waits, then the second, which waits too or ends; then the other transaction lets
 * go. Answers both.
 */
async function besideDelete(
  sid: number,
  hold: (other: PoolClient) => Promise<unknown>,
  write: () => Promise<Answer>,
  first: 'delete' | 'write' = 'delete',
): Promise<{ del: Answer; write: Answer }> {
  const sent: Promise<Answer>[] = [];
  await whileHeld(t.database.pool!, hold, async (untilWaiting) => {
    const del = () => admin.del(`/api/streamers?id=${sid}`);
    const [one, two] = first === 'delete' ? [del, write] : [write, del];
    sent.push(one());
    await untilWaiting(1);
    let done = false;
    sent.push(two().finally(() => (done = true)));
    await untilWaiting(2, () => done);
  });
  const [a, b] = await Promise.all(sent);
  return first === 'delete' ? { del: a!, write: b! } : { del: b!, write: a! };
}

const rerating = (speaker: Client, sid: number) =>
  speaker.post(`/api/reviews?streamer_id=${sid}&request=1`, { reason: 'New overlay, new games since.' });

const holdStreamer = (sid: number) => (other: PoolClient) =>
  other.query('select 1 from streamers where id = $1 for share', [sid]);

describe.skipIf(!t.database.pool)("a write beside its streamer's delete (PostgreSQL)", () => {
  it('a pin waits for the delete, then answers 404 Comment not found', async () => {
    const sid = await t.streamer(undefined, R(5));
    const posted = await author.post('/api/comments', { streamer_id: sid, body: 'Pin me while it goes' });
    expect(posted.status).toBe(201);
    const id = posted.body.id as number;
    const res = await besideDelete(sid, holdStreamer(sid), () =>
      mod.put(`/api/comments?id=${id}&pin=1`, { pinned: true }),
    );
    expect([res.del.status, res.write.status]).toEqual([200, 404]);
    expect(res.write.body.error).toBe('Comment not found');
  });

  it('a rating waits for the delete, then answers 404 Streamer not found', async () => {
    const sid = await t.streamer(undefined, R(5));
    const res = await besideDelete(sid, holdStreamer(sid), () =>
      mod.put(`/api/streamers?id=${sid}`, { r: R(6) }),
    );
    expect([res.del.status, res.write.status]).toEqual([200, 404]);
    expect(res.write.body.error).toBe('Streamer not found');
  });

  it('a publish of the reviews waits for the delete, then answers 404 Streamer not found', async () => {
    const sid = await t.streamer(undefined, R(5));
    expect((await mod.put(`/api/reviews?streamer_id=${sid}`, { r: R(4) })).status).toBe(200);
    const res = await besideDelete(sid, holdStreamer(sid), () =>
      admin.post(`/api/reviews?streamer_id=${sid}&publish=1`, {}),
    );
    expect([res.del.status, res.write.status]).toEqual([200, 404]);
    expect(res.write.body.error).toBe('Streamer not found');
  });

  it('a re-rating request waits for the delete, then answers 404 Streamer not found', async () => {
    const { id: sid, speaker } = await spokenFor(t, admin, `goingvoice${process.pid}`);
    const res = await besideDelete(sid, holdStreamer(sid), () => rerating(speaker, sid));
    expect([res.del.status, res.write.status]).toEqual([200, 404]);
    expect(res.write.body.error).toBe('Streamer not found');
  });

  it('a re-rating request taken before the delete: 201, then the delete 200 takes it along', async () => {
    const { id: sid, user, speaker } = await spokenFor(t, admin, `gonevoice${process.pid}`);
    // The speaker's account row held: the request stops at it (its row's foreign key) holding
    // the streamer's row while the delete comes.
    const res = await besideDelete(
      sid,
      (other) => other.query('select 1 from users where id = $1 for update', [user.id]),
      () => rerating(speaker, sid),
      'write',
    );
    expect([res.del.status, res.write.status]).toEqual([200, 201]);
    expect(
      await t.db.selectFrom('rerating_requests').select('id').where('streamer_id', '=', sid).execute(),
    ).toEqual([]);
  });

  it('a like whose comment is locked before its streamer: both answer 200', async () => {
    const sid = await t.streamer(undefined, R(5));
    const posted = await author.post('/api/comments', { streamer_id: sid, body: 'Like me while it goes' });
    const likerUser = await t.user();
    const liker = await t.signedIn(likerUser);
    const id = posted.body.id as number;
    // The liker's account row held: the like stops at it (its like's foreign key) holding the
    // comment's row (and, in the one order, the streamer's) while the delete comes.
    const res = await besideDelete(
      sid,
      (other) => other.query('select 1 from users where id = $1 for update', [likerUser.id]),
      () => liker.put(`/api/comments?id=${id}&like=1`, { liked: true }),
      'write',
    );
    expect([res.del.status, res.write.status]).toEqual([200, 200]);
  });

  it("the queue's bulk hide whose comments are locked before their streamer: both answer 200", async () => {
    const sid = await t.streamer(undefined, R(5));
    const authorUser = await t.user();
    const posted = await (
      await t.signedIn(authorUser)
    ).post('/api/comments', { streamer_id: sid, body: 'Hide me while it goes' });
    const id = posted.body.id as number;
    // The author's account row held: the hide stops at it (its notification's foreign key)
    // holding the comment's row (and, in the one order, the streamer's) while the delete comes.
    const res = await besideDelete(
      sid,
      (other) => other.query('select 1 from users where id = $1 for update', [authorUser.id]),
      () => mod.put('/api/moderation/comments', { ids: [id], action: 'hide' }),
      'write',
    );
    expect([res.del.status, res.write.status]).toEqual([200, 200]);
  });
});
