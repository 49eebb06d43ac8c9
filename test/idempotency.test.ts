import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DAY, MINUTE } from '../src/lib/clock.ts';
import { pruneKeys } from '../src/idempotency/queries.ts';
import { ADMIN_PASSWORD, startApp, useApp } from './helpers/app.ts';
import type { Client } from './helpers/client.ts';
import { dbKind, reopen } from './helpers/database.ts';
import { startFakeDiscord } from './helpers/fake-discord.ts';

/**
 * Issue 30 item 11: a POST's `Idempotency-Key` makes its retry answer the first answer.
 * Issue 40: the key, the operation's writes and the kept answer commit together. Issue 45
 * items 2 and 3: only answers of operations that ran are kept; the sign-ins take no key.
 */
const discord = await startFakeDiscord();
afterAll(() => discord.close());
const t = await useApp({ DISCORD_API_URL: discord.apiUrl });
let sid: number;
let user: Client;
let userId: number;
let admin: Client;
let mod: Client;
let modId: number;
beforeAll(async () => {
  sid = await t.streamer('Idempotent');
  const retrier = await t.user({ login: 'retrier', display_name: 'Retrier' });
  userId = retrier.id;
  user = await t.signedIn(retrier);
  admin = await t.admin();
  const moderator = await t.user({ login: 'keeper-mod', display_name: 'Keeper' }, { mod: true });
  modId = moderator.id;
  mod = await t.signedIn(moderator);
});

let n = 0;
const freshKey = () => `key-${process.pid}-${++n}-${Math.random().toString(36).slice(2)}`;
const keyed = (key: string | undefined): { headers: Record<string, string> } => ({
  headers: key === undefined ? {} : { 'idempotency-key': key },
});
const post = (c: Client, key: string | undefined, body: string, extra: Record<string, unknown> = {}) =>
  c.post('/api/comments', { streamer_id: sid, body, ...extra }, keyed(key));
const count = async (
  table: 'comments' | 'address_blocks' | 'streamers' | 'idempotency_keys',
  where?: [string, string],
) => {
  let q = t.db.selectFrom(table).select((eb) => eb.fn.countAll<number | string>().as('n'));
  if (where) q = q.where(where[0] as any, '=', where[1]);
  return Number((await q.executeTakeFirstOrThrow()).n);
};
const stored = (body: string) => count('comments', ['body', body]);
const keys = () => count('idempotency_keys');
const keyRows = (key: string) => count('idempotency_keys', ['key', key]);
/** A guest's comment, whose author a moderator can block. */
const guestComment = async (body: string) => {
  // Every guest of the tests has one address: the block an earlier test made is lifted.
  await t.db.deleteFrom('address_blocks').execute();
  const res = await t.client().post('/api/comments', { streamer_id: sid, body, author: 'Blockable' });
  expect(res.status, res.text).toBe(201);
  return res.body.id as number;
};
const blocks = (commentId: number) => count('address_blocks', ['comment_id', String(commentId)]);

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

  it('a 4xx keeps nothing: the retry with the same key runs the operation again', async () => {
    const key = freshKey();
    const tooShort = await post(user, key, 'x');
    expect(tooShort.status).toBe(400);
    expect(await keyRows(key)).toBe(0);
    const again = await post(user, key, 'x');
    expect(again.status).toBe(400);
    expect(again.headers.get('idempotent-replayed')).toBeNull();

    // A name taken: 409; once the name is free, the retry of the very same request adds it.
    const taken = await t.streamer('Taken Then Free');
    const name = { name: 'Taken Then Free' };
    const refused = await admin.post('/api/streamers?admin=1', name, keyed(key + '-s'));
    expect(refused.status).toBe(409);
    expect(await keyRows(key + '-s')).toBe(0);
    expect((await admin.del(`/api/streamers?id=${taken}`)).status).toBe(200);
    const retried = await admin.post('/api/streamers?admin=1', name, keyed(key + '-s'));
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    expect(await count('streamers', ['name', 'Taken Then Free'])).toBe(1);
    expect(await keyRows(key + '-s')).toBe(1);
  });

  it('a POST that runs no operation keeps nothing: 405, a guard refusing, a body refused by its schema', async () => {
    const before = await keys();
    const key = freshKey();
    expect((await user.post('/api/settings', {}, keyed(key))).status).toBe(405);
    expect([401, 403]).toContain(
      (await user.post('/api/moderation/blocks', { comment_id: 1 }, keyed(key))).status,
    );
    expect((await t.client().post('/api/rater_groups', { name: 'x' }, keyed(key))).status).toBe(401);
    expect(
      (await mod.post('/api/moderation/blocks', { comment_id: 1, days: 'many' }, keyed(key))).status,
    ).toBe(400);
    expect(await keys()).toBe(before);
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
    const otherPath = await user.post('/api/reports', { comment_id: 1, reason: 'spam' }, keyed(key));
    expect(otherPath.status).toBe(422);
    expect(await stored('second body')).toBe(0);
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

  it('the sign-ins take no key: nothing of a login is stored, and a key on one is ignored', async () => {
    const before = await keys();
    const used = freshKey();
    expect((await post(user, used, 'a key used before a login')).status).toBe(201);
    for (const key of [freshKey(), used, 'x'.repeat(300)]) {
      const login = await t.client().post('/api/auth/login', { password: ADMIN_PASSWORD }, keyed(key));
      expect(login.status, login.text).toBe(200);
      expect(login.headers.get('idempotent-replayed')).toBeNull();
      const wrong = await t
        .client()
        .post('/api/auth?action=login', { password: 'a wrong guess' }, keyed(key));
      expect(wrong.status).toBe(401);
    }
    expect(await keys()).toBe(before + 1);
    const stamped = await t.db.selectFrom('idempotency_keys').select('request').execute();
    const { createHash } = await import('node:crypto');
    for (const body of [{ password: ADMIN_PASSWORD }, { password: 'a wrong guess' }]) {
      for (const path of ['/api/auth/login', '/api/auth?action=login']) {
        const hash = createHash('sha256')
          .update(`POST ${path}\n${JSON.stringify(body)}`)
          .digest('hex');
        expect(stamped.map((r) => r.request)).not.toContain(hash);
      }
    }
  });

  it('the API document names the key on every POST that writes, but the sign-ins', async () => {
    type Op = { parameters?: { name: string }[]; responses: Record<string, unknown> };
    const doc = t.app.swagger() as unknown as { paths: Record<string, Record<string, Op>> };
    // A POST that only answers 405 runs nothing to keep.
    const writes = (op: Op) => Object.keys(op.responses).some((code) => code.startsWith('2'));
    const posts = Object.entries(doc.paths).flatMap(([path, ops]) =>
      ops.post && writes(ops.post) ? [[path, ops.post] as const] : [],
    );
    expect(posts.length).toBeGreaterThan(5);
    for (const [path, op] of posts) {
      const takesKey = (op.parameters ?? []).some((p) => p.name === 'Idempotency-Key');
      // The one-click unsubscription (RFC 8058) is posted by mail providers, which send no key;
      // a repeat changes nothing.
      expect(takesKey, path).toBe(!path.startsWith('/api/auth') && path !== '/api/mail/unsubscribe');
    }
  });

  it('every POST that takes a key keeps its answer and runs once', async () => {
    const hook = discord.webhook();
    expect(
      (await admin.put('/api/settings', { discord_webhooks: [{ url: hook.url, events: [] }] })).status,
    ).toBe(200);
    const webhookId = (await admin.get('/api/settings')).body.discord_webhooks[0].id as number;
    const team = await admin.post('/api/rater_groups', { name: 'Keyed Team' });
    const owner = await t.user({ login: 'team-owner-k' });
    const rater = await t.user({ login: 'team-rater-k' });
    await admin.post('/api/rater_groups?members=1', {
      group_id: team.body.id,
      login: owner.login,
      role: 'owner',
    });
    const ownerClient = await t.signedIn(owner);
    const reported = await guestComment('to be reported once');
    const blocked = await guestComment('to be blocked once');
    const cases: [Client, string, Record<string, unknown>, number][] = [
      [mod, '/api/moderation/blocks', { comment_id: blocked }, 201],
      [admin, '/api/settings/discord/test', { id: webhookId }, 202],
      [user, '/api/streamers', { name: 'Suggested Once' }, 201],
      [t.client(), '/api/reports', { comment_id: reported, reason: 'spam' }, 201],
      [admin, '/api/rater_groups', { name: 'Made Once' }, 201],
      [admin, '/api/rater_groups?members=1', { group_id: team.body.id, login: rater.login }, 200],
      [ownerClient, '/api/team_members', { group_id: team.body.id, login: rater.login }, 200],
    ];
    for (const [client, path, body, status] of cases) {
      const before = await t.db
        .selectFrom('audit_log')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow();
      const key = freshKey();
      const first = await client.post(path, body, keyed(key));
      expect(first.status, `${path} ${first.text}`).toBe(status);
      expect(await keyRows(key), path).toBe(1);
      const again = await client.post(path, body, keyed(key));
      expect(again.status, path).toBe(status);
      expect(again.text, path).toBe(first.text);
      expect(again.headers.get('idempotent-replayed'), path).toBe('true');
      const after = await t.db
        .selectFrom('audit_log')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow();
      expect(Number(after.n) - Number(before.n), path).toBeLessThanOrEqual(1);
    }
    expect(await count('streamers', ['name', 'Suggested Once'])).toBe(1);
    expect(await blocks(blocked)).toBe(1);
    const tests = await t.db.selectFrom('discord_outbox').select('id').where('event', '=', 'test').execute();
    expect(tests).toHaveLength(1);
  });

  it("the operation's writes and the kept answer are one transaction: when keeping fails, nothing of the operation stays", async () => {
    const commentId = await guestComment('blocked in the end');
    const key = freshKey();
    const sender = `user:${modId}`;
    const at = t.clock.now().toISOString();
    // Another request with this key commits its row at the last moment: inside this one's
    // transaction, as its block is written (a trigger), after the look-up found the key free.
    const planted = `insert into idempotency_keys (sender, key, request, status, headers, body, created_at)
      values ('${sender}', '${key}', 'another request', 201, '{}', '{}', '${at}')`;
    if (dbKind === 'sqlite') {
      await sql
        .raw(`create trigger plant_key after insert on address_blocks begin ${planted}; end`)
        .execute(t.db);
    } else {
      await sql
        .raw(
          `create function plant_key() returns trigger language plpgsql as $$ begin ${planted}; return new; end $$`,
        )
        .execute(t.db);
      await sql
        .raw(
          'create trigger plant_key after insert on address_blocks for each row execute function plant_key()',
        )
        .execute(t.db);
    }
    const refused = await mod.post('/api/moderation/blocks', { comment_id: commentId }, keyed(key));
    await sql.raw('drop trigger plant_key' + (dbKind === 'sqlite' ? '' : ' on address_blocks')).execute(t.db);
    expect(refused.status).toBe(409);
    expect(refused.body.code).toBe('idempotency_key_in_use');
    expect(await blocks(commentId)).toBe(0);
    expect(await keyRows(key)).toBe(0);
    const audited = await t.db
      .selectFrom('audit_log')
      .select('id')
      .where('action', '=', 'block.add')
      .where('params', 'like', '%Blockable%')
      .execute();
    const auditedBefore = audited.length;

    // As after a process died before its commit: the key is free, and the retry runs once.
    const retried = await mod.post('/api/moderation/blocks', { comment_id: commentId }, keyed(key));
    expect(retried.status).toBe(201);
    expect(retried.headers.get('idempotent-replayed')).toBeNull();
    const replayed = await mod.post('/api/moderation/blocks', { comment_id: commentId }, keyed(key));
    expect(replayed.text).toBe(retried.text);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(await blocks(commentId)).toBe(1);
    const auditedAfter = await t.db
      .selectFrom('audit_log')
      .select('id')
      .where('action', '=', 'block.add')
      .where('params', 'like', '%Blockable%')
      .execute();
    expect(auditedAfter.length).toBe(auditedBefore + 1);
  });

  it('ten parallel requests with one key run the operation once; every one answers its answer', async () => {
    const commentId = await guestComment('blocked in parallel');
    const key = freshKey();
    const answers = await Promise.all(
      Array.from({ length: 10 }, () =>
        mod.post('/api/moderation/blocks', { comment_id: commentId }, keyed(key)),
      ),
    );
    expect(await blocks(commentId)).toBe(1);
    const fresh = answers.filter((a) => a.status === 201 && a.headers.get('idempotent-replayed') === null);
    expect(fresh).toHaveLength(1);
    for (const a of answers) {
      expect(a.status, a.text).toBe(201);
      expect(a.text).toBe(fresh[0]!.text);
    }

    // Copies that fail on the winner's write (a name taken) get its answer too.
    const streamerKey = freshKey();
    const named = await Promise.all(
      Array.from({ length: 10 }, () =>
        admin.post('/api/streamers?admin=1', { name: 'Added In Parallel' }, keyed(streamerKey)),
      ),
    );
    expect(await count('streamers', ['name', 'Added In Parallel'])).toBe(1);
    const made = named.filter((a) => a.headers.get('idempotent-replayed') === null);
    expect(made).toHaveLength(1);
    for (const a of named) {
      expect(a.status, a.text).toBe(201);
      expect(a.text).toBe(made[0]!.text);
    }
  });

  it('ten parallel comment posts with one key store one comment, in its own transaction (one group commit)', async () => {
    const key = freshKey();
    const body = 'ten copies of one comment';
    const answers = await Promise.all(Array.from({ length: 10 }, () => post(user, key, body)));
    expect(await stored(body)).toBe(1);
    const fresh = answers.filter((a) => a.status === 201 && a.headers.get('idempotent-replayed') === null);
    expect(fresh).toHaveLength(1);
    for (const a of answers) {
      expect(a.status, a.text).toBe(201);
      expect(a.text).toBe(fresh[0]!.text);
    }
    expect(await keyRows(key)).toBe(1);
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
    expect(userId).toBeGreaterThan(0);
  });
});

describe.runIf(dbKind === 'postgres')('two instances on one database', () => {
  it('the same key sent to both at once runs the operation once', async () => {
    const second = await startApp({}, { database: reopen(t.database) });
    try {
      second.clock.offset = t.clock.offset;
      const commentId = await guestComment('blocked from two instances');
      const key = freshKey();
      // The same browser (its session cookie) behind a proxy that spreads it over both instances.
      const other = second.client();
      for (const [k, v] of mod.cookies) other.cookies.set(k, v);
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          (i % 2 === 0 ? mod : other).post('/api/moderation/blocks', { comment_id: commentId }, keyed(key)),
        ),
      );
      expect(await blocks(commentId)).toBe(1);
      expect(answers.every((a) => a.status === 201)).toBe(true);
      expect(answers.filter((a) => !a.headers.get('idempotent-replayed'))).toHaveLength(1);
    } finally {
      await second.close();
    }
  });
});
