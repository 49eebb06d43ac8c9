import { beforeAll, describe, expect, it } from 'vitest';
import { DAY, MINUTE } from '../src/lib/clock.ts';
import { pruneKeys } from '../src/idempotency/queries.ts';
import { startApp, useApp } from './helpers/app.ts';
import type { Client } from './helpers/client.ts';
import { dbKind, reopen } from './helpers/database.ts';

/** Issue 30 item 11: a POST's `Idempotency-Key` makes its retry answer the first answer. */
const t = await useApp();
let sid: number;
let user: Client;
beforeAll(async () => {
  sid = await t.streamer('Idempotent');
  user = await t.signedIn(await t.user({ login: 'retrier', display_name: 'Retrier' }));
});

let n = 0;
const freshKey = () => `key-${process.pid}-${++n}-${Math.random().toString(36).slice(2)}`;
const post = (c: Client, key: string | undefined, body: string, extra: Record<string, unknown> = {}) =>
  c.post(
    '/api/comments',
    { streamer_id: sid, body, ...extra },
    { headers: key === undefined ? {} : { 'idempotency-key': key } },
  );
const stored = async (body: string) =>
  Number(
    (
      await t.db
        .selectFrom('comments')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('body', '=', body)
        .executeTakeFirstOrThrow()
    ).n,
  );
const keys = async () =>
  Number(
    (
      await t.db
        .selectFrom('idempotency_keys')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('Idempotency-Key on POST', () => {
  it('a retried comment with the same key is stored once and answers the same status and body, marked as a replay', async () => {
    const key = freshKey();
    const first = await post(user, key, 'retried once');
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await post(user, key, 'retried once');
    expect(again.status).toBe(201);
    expect(again.text).toBe(first.text);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.headers.get('content-type')).toBe(first.headers.get('content-type'));
    expect(again.headers.get('set-cookie')).toBeNull();
    expect(await stored('retried once')).toBe(1);
  });

  it('without the header every POST is a new write and nothing is kept', async () => {
    const before = await keys();
    await post(user, undefined, 'no key twice');
    const second = await post(user, undefined, 'no key twice');
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(await stored('no key twice')).toBe(2);
    expect(await keys()).toBe(before);
  });

  it('a 4xx answer is kept and replayed as well', async () => {
    const key = freshKey();
    const first = await post(user, key, 'x');
    expect(first.status).toBe(400);
    const again = await post(user, key, 'x');
    expect(again.status).toBe(400);
    expect(again.body).toEqual(first.body);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
  });

  it('the same key with another body, or another path: 422 and nothing stored', async () => {
    const key = freshKey();
    await post(user, key, 'first body');
    const other = await post(user, key, 'second body');
    expect(other.status).toBe(422);
    expect(other.body).toEqual({
      error: 'This Idempotency-Key was used for a different request',
      code: 'idempotency_key_reused',
    });
    const otherPath = await user.post(
      '/api/reports',
      { comment_id: 1, reason: 'spam' },
      {
        headers: { 'idempotency-key': key },
      },
    );
    expect(otherPath.status).toBe(422);
    expect(await stored('second body')).toBe(0);
  });

  it('ten parallel requests with one key: exactly one is stored, the others get 409 or the replay', async () => {
    const key = freshKey();
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(user, key, 'in parallel')));
    expect(await stored('in parallel')).toBe(1);
    const fresh = answers.filter((a) => a.status === 201 && a.headers.get('idempotent-replayed') === null);
    expect(fresh).toHaveLength(1);
    for (const a of answers) {
      if (a.status === 409) expect(a.body.code).toBe('idempotency_key_in_use');
      else expect(a.text).toBe(fresh[0]!.text);
    }
  });

  it("another client with the same key does not get the first one's answer: its own write is made", async () => {
    const key = freshKey();
    const first = await post(user, key, 'mine alone');
    const other = await t.signedIn(await t.user({ login: 'other-sender', display_name: 'Other' }));
    const theirs = await post(other, key, 'mine alone');
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.id).not.toBe(first.body.id);
    // A guest (by address) and a guest with a session are senders of their own too.
    const guest = await post(t.client(), key, 'mine alone');
    expect(guest.status).toBe(201);
    expect(guest.headers.get('idempotent-replayed')).toBeNull();
    expect(await stored('mine alone')).toBe(3);
  });

  it('a malformed key: 400 with its message and code, nothing stored', async () => {
    const before = await keys();
    for (const key of ['x'.repeat(256), Buffer.from('klíč').toString('latin1'), '']) {
      const res = await post(user, key, 'bad key');
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        error: 'Idempotency-Key must be 1 to 255 printable ASCII characters',
        code: 'invalid_idempotency_key',
      });
    }
    expect(await stored('bad key')).toBe(0);
    expect(await keys()).toBe(before);
    expect((await post(user, 'x'.repeat(255), 'long key')).status).toBe(201);
  });

  it('a claim whose request never answered blocks its key for a minute only', async () => {
    const key = freshKey();
    const sender = `user:${(await user.get('/api/oauth/me')).body.user?.id ?? ''}`;
    expect(sender).not.toBe('user:');
    // As an instance that claimed the key and died before answering.
    const first = await post(user, key, 'abandoned');
    await t.db.deleteFrom('comments').where('body', '=', 'abandoned').execute();
    await t.db
      .updateTable('idempotency_keys')
      .set({ status: null, headers: null, body: null })
      .where('key', '=', key)
      .execute();
    expect(first.status).toBe(201);
    expect((await post(user, key, 'abandoned')).status).toBe(409);
    t.clock.advance(MINUTE + 1000);
    const taken = await post(user, key, 'abandoned');
    expect(taken.status).toBe(201);
    expect(taken.headers.get('idempotent-replayed')).toBeNull();
    expect(await stored('abandoned')).toBe(1);
  });

  it('a key is kept for a day: after it, the same request is a new write, and the upkeep deletes old keys', async () => {
    const key = freshKey();
    await post(user, key, 'a day later');
    t.clock.advance(DAY - MINUTE);
    expect((await post(user, key, 'a day later')).headers.get('idempotent-replayed')).toBe('true');
    t.clock.advance(MINUTE + 1000);
    const later = await post(user, key, 'a day later');
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(await stored('a day later')).toBe(2);
    t.clock.advance(DAY + 1000);
    await pruneKeys(t.db, t.clock.now());
    expect(await keys()).toBe(0);
  });
});

describe.runIf(dbKind === 'postgres')('two instances on one database', () => {
  it('the same key sent to both at once is stored once', async () => {
    const second = await startApp({}, { database: reopen(t.database) });
    try {
      second.clock.offset = t.clock.offset;
      const key = freshKey();
      // The same browser (its session cookie) behind a proxy that spreads it over both instances.
      const other = second.client();
      for (const [k, v] of user.cookies) other.cookies.set(k, v);
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => post(i % 2 === 0 ? user : other, key, 'two instances')),
      );
      expect(await stored('two instances')).toBe(1);
      for (const a of answers.filter((x) => x.status === 201)) expect(a.body.author).toBe('Retrier');
      expect(answers.every((a) => a.status === 201 || a.status === 409)).toBe(true);
      expect(answers.filter((a) => a.status === 201 && !a.headers.get('idempotent-replayed'))).toHaveLength(
        1,
      );
    } finally {
      await second.close();
    }
  });
});
