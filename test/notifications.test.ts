import { describe, expect, it } from 'vitest';
import * as notificationShown from '../src/db/migrations/018-notification-shown.ts';
import { startApp, useApp, type TestUser } from './helpers/app.ts';
import { createTestDatabase } from './helpers/database.ts';
import type { Client } from './helpers/client.ts';

/** DECISIONS.md "Fourth wave" → "Notifications", over HTTP on SQLite and PostgreSQL. */
const t = await useApp();
const admin = await t.admin();

const person = async (login?: string) => {
  const user = await t.user(login ? { login, display_name: `Name ${login}` } : {});
  return { user, c: await t.signedIn(user) };
};
const comment = async (c: Client, streamer_id: number, body = 'a comment here', extra = {}) => {
  const res = await c.post('/api/comments', { streamer_id, body, ...extra });
  expect(res.status).toBe(201);
  return res.body.id as number;
};
const notificationRows = async () =>
  Number(
    (
      await t.db
        .selectFrom('notifications')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const inbox = async (c: Client, q = '') => {
  const res = await c.get(`/api/notifications${q}`);
  expect(res.status).toBe(200);
  return res.body as { unread: number; items: any[] };
};
const kinds = async (c: Client) => (await inbox(c)).items.map((n) => [n.kind, n.comment_id]);
let seq = 0;
const login = () => `nf${process.pid}x${++seq}`;

describe('who is notified, and of what', () => {
  it('a reply notifies the author of the comment it names and of its thread, with the fields of the contract', async () => {
    const sid = await t.streamer('Reply streamer');
    const a = await person();
    const b = await person();
    const top = await comment(a.c, sid);
    const second = await comment(b.c, sid, 'second in thread', { reply_to: top });
    const guestReply = await comment(t.client(), sid, 'a guest answers', {
      reply_to: second,
      author: 'Pepa',
    });
    const aBox = await inbox(a.c);
    expect(aBox.unread).toBe(2);
    expect(aBox.items).toEqual([
      {
        id: expect.any(Number),
        kind: 'reply',
        at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        read: false,
        streamer_id: sid,
        streamer_name: 'Reply streamer',
        comment_id: guestReply,
        actor: 'Pepa',
      },
      expect.objectContaining({ kind: 'reply', comment_id: second, actor: b.user.display_name }),
    ]);
    expect(await kinds(b.c)).toEqual([['reply', guestReply]]);
  });

  it('nobody is notified of their own action: replying to, mentioning or liking oneself', async () => {
    const sid = await t.streamer();
    const name = login();
    const a = await person(name);
    const top = await comment(a.c, sid, `me myself @${name}`);
    await comment(a.c, sid, `again @${name.toUpperCase()}`, { reply_to: top });
    expect((await a.c.put(`/api/comments?id=${top}&like=1`, { liked: true })).status).toBe(200);
    expect(await inbox(a.c)).toEqual({ unread: 0, items: [] });
  });

  it('a mention: @login folded, not followed by a letter, digit or _, at most 5 users per comment', async () => {
    const sid = await t.streamer();
    const names = Array.from({ length: 7 }, login);
    const people = await Promise.all(names.map((n) => person(n)));
    const [p0, p1, p2, p3, p4, p5] = people as { user: TestUser; c: Client }[];
    const author = await person();
    // p1 is named with a trailing letter (another login), p0 in capitals, then everyone.
    const body = `@${names[1]}z hi @${names[0]!.toUpperCase()}, ${names.map((n) => `@${n}`).join(' ')}`;
    const id = await comment(author.c, sid, body);
    for (const p of [p0, p1, p2, p3, p4]) expect(await kinds(p!.c)).toEqual([['mention', id]]);
    expect(await kinds(p5!.c)).toEqual([]);
    expect((await inbox(p0!.c)).items[0].actor).toBe(author.user.display_name);
  });

  it('a like notifies once per comment and liker, however often it is toggled', async () => {
    const sid = await t.streamer();
    const a = await person();
    const b = await person();
    const id = await comment(a.c, sid);
    for (let i = 0; i < 10; i++) {
      expect((await b.c.put(`/api/comments?id=${id}&like=1`, { liked: i % 2 === 0 })).status).toBe(200);
    }
    const c = await person();
    await c.c.put(`/api/comments?id=${id}&like=1`, { liked: true });
    expect((await inbox(a.c)).items.map((n) => [n.kind, n.actor])).toEqual([
      ['like', c.user.display_name],
      ['like', b.user.display_name],
    ]);
  });

  it('staff hiding a comment notifies its author once (single and bulk); the author hiding it does not', async () => {
    const sid = await t.streamer();
    const a = await person();
    const mod = await person();
    await t.db.insertInto('moderators').values({ user_id: mod.user.id }).execute();
    const one = await comment(a.c, sid, 'first one');
    const two = await comment(a.c, sid, 'second one');
    const own = await comment(a.c, sid, 'my own');
    expect((await admin.put(`/api/comments?id=${one}`, { hidden: true })).status).toBe(200);
    await admin.put(`/api/comments?id=${one}`, { hidden: false });
    await admin.put(`/api/comments?id=${one}`, { hidden: true });
    const bulk = await mod.c.put('/api/moderation/comments', { action: 'hide', ids: [two] });
    expect(bulk.body).toEqual({ ok: true, count: 1 });
    await a.c.put(`/api/comments?id=${own}`, { hidden: true });
    expect((await inbox(a.c)).items.map((n) => [n.kind, n.comment_id, n.actor])).toEqual([
      ['hidden', two, null],
      ['hidden', one, null],
    ]);
    // A moderator hiding their own comment is their own action.
    const mine = await comment(mod.c, sid, 'a moderator speaks');
    await mod.c.put('/api/moderation/comments', { action: 'hide', user_id: mod.user.id });
    expect((await inbox(mod.c)).items.filter((n) => n.comment_id === mine)).toEqual([]);
  });

  it('a reply, mention or like whose comment is hidden or deleted is left out of the list and the count; hidden stays', async () => {
    const sid = await t.streamer();
    const name = login();
    const a = await person(name);
    const b = await person();
    const top = await comment(a.c, sid);
    const reply = await comment(b.c, sid, `yes @${name}`, { reply_to: top });
    await b.c.put(`/api/comments?id=${top}&like=1`, { liked: true });
    expect((await inbox(a.c)).unread).toBe(3);
    await admin.put(`/api/comments?id=${reply}`, { hidden: true });
    expect(await inbox(a.c)).toMatchObject({ unread: 1, items: [{ kind: 'like', comment_id: top }] });
    await admin.put(`/api/comments?id=${reply}`, { hidden: false });
    expect((await inbox(a.c)).unread).toBe(3);
    await admin.put(`/api/comments?id=${top}`, { hidden: true });
    // The like is about the hidden comment now; the hidden notice is new.
    expect(await kinds(a.c)).toEqual([
      ['hidden', top],
      ['mention', reply],
      ['reply', reply],
    ]);
    expect((await admin.del(`/api/comments?id=${top}`)).status).toBe(200);
    const after = await inbox(a.c);
    expect(after.items.map((n) => [n.kind, n.comment_id])).toEqual([
      ['hidden', null],
      ['mention', reply],
      ['reply', reply],
    ]);
  });

  it('every path that hides, shows or deletes a comment keeps the list and the count: its author, bulk moderation, an account that leaves with its comments', async () => {
    const sid = await t.streamer();
    const a = await person();
    const bName = login();
    const b = await person(bName);
    const mod = await person();
    await t.db.insertInto('moderators').values({ user_id: mod.user.id }).execute();
    const top = await comment(a.c, sid);
    const [r1, r2, r3] = [
      await comment(b.c, sid, 'first answer', { reply_to: top }),
      await comment(b.c, sid, 'second answer', { reply_to: top }),
      await comment(b.c, sid, 'third answer', { reply_to: top }),
    ];
    const seen = async () => {
      const { unread, items } = await inbox(a.c);
      return { unread, ids: items.map((n) => n.comment_id) };
    };
    expect(await seen()).toEqual({ unread: 3, ids: [r3, r2, r1] });
    // The author hides their own answer, then shows it again.
    expect((await b.c.put(`/api/comments?id=${r1}`, { hidden: true })).status).toBe(200);
    expect(await seen()).toEqual({ unread: 2, ids: [r3, r2] });
    await b.c.put(`/api/comments?id=${r1}`, { hidden: false });
    expect(await seen()).toEqual({ unread: 3, ids: [r3, r2, r1] });
    // Staff in bulk: hide two, show one back, delete it.
    const bulk = (action: string, ids: number[]) => mod.c.put('/api/moderation/comments', { action, ids });
    expect((await bulk('hide', [r1, r2])).body).toEqual({ ok: true, count: 2 });
    expect(await seen()).toEqual({ unread: 1, ids: [r3] });
    expect((await bulk('show', [r1])).body).toEqual({ ok: true, count: 1 });
    expect(await seen()).toEqual({ unread: 2, ids: [r3, r1] });
    expect((await bulk('delete', [r1])).body).toEqual({ ok: true, count: 1 });
    expect(await seen()).toEqual({ unread: 1, ids: [r3] });
    // Read ones leave the list too, and the count stays.
    await a.c.put('/api/notifications', { all: true });
    expect((await bulk('show', [r2])).body).toEqual({ ok: true, count: 1 });
    expect(await seen()).toEqual({ unread: 0, ids: [r3, r2] });
    await b.c.put(`/api/comments?id=${r3}`, { hidden: true });
    expect(await seen()).toEqual({ unread: 0, ids: [r2] });
    // The answers' author leaves and takes their comments along.
    const r4 = await comment(b.c, sid, 'fourth answer', { reply_to: top });
    expect(await seen()).toEqual({ unread: 1, ids: [r4, r2] });
    const gone = await b.c.request('DELETE', '/api/account', {
      body: { confirm: bName, delete_comments: true },
    });
    expect(gone.status).toBe(200);
    expect(await seen()).toEqual({ unread: 0, ids: [] });
  });

  it('migration 018 marks the notifications about comments already hidden or deleted', async () => {
    const database = await createTestDatabase();
    const other = await startApp({}, { database });
    try {
      const sid = await other.streamer();
      const a = await other.user();
      const b = await other.user();
      const [ac, bc] = [await other.signedIn(a), await other.signedIn(b)];
      const top = await comment(ac, sid);
      const kept = await comment(bc, sid, 'kept', { reply_to: top });
      const hidden = await comment(bc, sid, 'hidden', { reply_to: top });
      const deleted = await comment(bc, sid, 'deleted', { reply_to: top });
      await bc.put(`/api/comments?id=${top}&like=1`, { liked: true });
      const staff = await other.admin();
      await staff.put(`/api/comments?id=${hidden}`, { hidden: true });
      await staff.del(`/api/comments?id=${deleted}`);
      await staff.put(`/api/comments?id=${top}`, { hidden: true });
      // The database as it was before 018, with every notification of that time.
      const db = database.db;
      await db.schema.dropIndex('notifications_unread').execute();
      await db.schema.dropIndex('notifications_list').execute();
      await db.schema
        .createIndex('notifications_user')
        .on('notifications')
        .columns(['user_id', 'id'])
        .execute();
      await db.schema.alterTable('notifications').dropColumn('shown').execute();
      // Migration 018 itself, on that database (the later ones do not touch these notifications).
      await notificationShown.up(db);
      const flags = await db
        .selectFrom('notifications')
        .select(['kind', 'comment_id', 'shown'])
        .where('user_id', 'in', [a.id, b.id])
        .orderBy('id')
        .execute();
      expect(flags).toEqual([
        { kind: 'reply', comment_id: kept, shown: 1 },
        { kind: 'reply', comment_id: hidden, shown: 0 },
        { kind: 'reply', comment_id: null, shown: 0 },
        { kind: 'like', comment_id: top, shown: 0 },
        { kind: 'hidden', comment_id: hidden, shown: 1 },
        { kind: 'hidden', comment_id: top, shown: 1 },
      ]);
      expect((await inbox(ac)).unread).toBe(2);
    } finally {
      await other.close();
      await database.cleanup();
    }
  });
});

describe('abuse: at most the contract’s notifications', () => {
  it('a body naming a thousand names notifies at most 5 users', async () => {
    const sid = await t.streamer();
    const names = Array.from({ length: 8 }, login);
    await Promise.all(names.map((n) => person(n)));
    const author = await person();
    const before = await notificationRows();
    // 1,000 characters: the same names over and over, then everyone.
    const body = `${names.map((n) => `@${n}`).join(' ')} `.repeat(20).slice(0, 1000);
    await comment(author.c, sid, body);
    expect((await notificationRows()) - before).toBe(5);
  });

  it('a reply chain notifies the thread’s author once per reply, never twice for one', async () => {
    const sid = await t.streamer();
    const name = login();
    const a = await person(name);
    const b = await person();
    const top = await comment(a.c, sid);
    let last = top;
    for (let i = 0; i < 5; i++) last = await comment(b.c, sid, `again @${name} @${name}`, { reply_to: last });
    const box = await inbox(a.c);
    // Each reply: one `reply` and one `mention` at most.
    expect(box.unread).toBe(10);
    const pairs = box.items.map((n) => `${n.kind}:${n.comment_id}`);
    expect(new Set(pairs).size).toBe(pairs.length);
  });

  it('the database refuses a second notification of one kind, comment and recipient', async () => {
    const sid = await t.streamer();
    const a = await person();
    const b = await person();
    const id = await comment(a.c, sid);
    await b.c.put(`/api/comments?id=${id}&like=1`, { liked: true });
    const row = await t.db
      .selectFrom('notifications')
      .selectAll()
      .where('comment_id', '=', id)
      .executeTakeFirstOrThrow();
    const { id: _, ...copy } = row;
    await expect(t.db.insertInto('notifications').values(copy).execute()).rejects.toThrow();
    await expect(
      t.db
        .insertInto('notifications')
        .values({ ...copy, kind: 'hidden', actor_user_id: a.user.id })
        .execute(),
    ).rejects.toThrow();
  });
});

describe('reading and marking', () => {
  it('anonymous: 401 Not logged in; limit outside 1-100 or not an integer: 400; before pages by id', async () => {
    expect((await t.client().get('/api/notifications')).body).toEqual({
      error: 'Not logged in',
      code: 'not_logged_in',
    });
    expect((await t.client().put('/api/notifications', { all: true })).status).toBe(401);
    const sid = await t.streamer();
    const a = await person();
    const b = await person();
    for (let i = 0; i < 5; i++) {
      const id = await comment(a.c, sid, `number ${i}`);
      await b.c.put(`/api/comments?id=${id}&like=1`, { liked: true });
    }
    for (const bad of ['0', '101', '2.5', 'x', '-1', '']) {
      const res = await a.c.get(`/api/notifications?limit=${bad}`);
      expect([res.status, typeof res.body.error]).toEqual([400, 'string']);
    }
    const first = await inbox(a.c, '?limit=2');
    expect(first.items).toHaveLength(2);
    expect(first.unread).toBe(5);
    const next = await inbox(a.c, `?limit=100&before=${first.items[1].id}`);
    expect(next.items.map((n) => n.id)).toEqual([...next.items.map((n) => n.id)].sort((x, y) => y - x));
    expect(next.items).toHaveLength(3);
    expect(Math.max(...next.items.map((n) => n.id))).toBeLessThan(first.items[1].id);
  });

  it('PUT marks ids read (others’ ignored) or all; answers the unread count', async () => {
    const sid = await t.streamer();
    const a = await person();
    const b = await person();
    for (let i = 0; i < 3; i++) {
      const id = await comment(a.c, sid, `mark ${i}`);
      await b.c.put(`/api/comments?id=${id}&like=1`, { liked: true });
    }
    const theirs = await comment(b.c, sid, 'theirs');
    await a.c.put(`/api/comments?id=${theirs}&like=1`, { liked: true });
    const bItem = (await inbox(b.c)).items[0];
    const items = (await inbox(a.c)).items;
    const res = await a.c.put('/api/notifications', { read: [items[0].id, bItem.id] });
    expect(res.body).toEqual({ ok: true, unread: 2 });
    expect((await inbox(a.c)).items.map((n) => n.read)).toEqual([true, false, false]);
    expect((await inbox(b.c)).unread).toBe(1);
    for (const body of [
      {},
      { read: [] },
      { read: Array.from({ length: 101 }, (_, i) => i + 1) },
      { read: 'x' },
    ]) {
      expect((await a.c.put('/api/notifications', body)).status).toBe(400);
    }
    expect((await a.c.put('/api/notifications', { all: true })).body).toEqual({ ok: true, unread: 0 });
  });
});

describe('your data', () => {
  it('notifications are in the account export and go with the account', async () => {
    const sid = await t.streamer();
    const name = login();
    const a = await person(name);
    const b = await person();
    const id = await comment(a.c, sid);
    await b.c.put(`/api/comments?id=${id}&like=1`, { liked: true });
    const exported = await a.c.get('/api/account/export');
    expect(exported.body.notifications).toEqual([
      {
        id: expect.any(Number),
        kind: 'like',
        streamer_id: sid,
        comment_id: id,
        created_at: expect.any(String),
        read: false,
      },
    ]);
    const gone = await a.c.request('DELETE', '/api/account', { body: { confirm: name } });
    expect(gone.status).toBe(200);
    expect(
      await t.db.selectFrom('notifications').select('id').where('user_id', '=', a.user.id).execute(),
    ).toEqual([]);
  });
});
