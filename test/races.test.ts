import { beforeAll, describe, expect, it } from 'vitest';
import { insertComment } from '../src/comments/queries.ts';
import type { Batch } from '../src/db/batched.ts';
import { writeBatched } from '../src/db/transaction.ts';
import { countRows, useApp } from './helpers/app.ts';
import type { Client } from './helpers/client.ts';

const t = await useApp();
let admin: Client;
beforeAll(async () => {
  admin = await t.admin();
});

/** Fires `n` requests at once and returns their statuses and bodies. */
async function together<T>(n: number, send: (i: number) => Promise<{ status: number; body: T }>) {
  return Promise.all(Array.from({ length: n }, (_, i) => send(i)));
}

const statuses = (results: { status: number }[]) => results.map((r) => r.status).sort();

describe('concurrent requests end with exactly one winner and clean 409s', () => {
  it('the same streamer name (in any letter case): one 201, the rest 409', async () => {
    const results = await together(8, (i) =>
      t.client().post('/api/streamers', { name: i % 2 ? 'Race Name' : 'RACE name' }),
    );
    expect(statuses(results)).toEqual([201, ...Array(7).fill(409)]);
    expect(
      results.filter((r) => r.status === 409).every((r) => r.body.error === 'Streamer already exists'),
    ).toBe(true);
    const rows = await t.db
      .selectFrom('streamers')
      .select('id')
      .where('name_key', '=', 'race name')
      .execute();
    expect(rows).toHaveLength(1);
  });

  it('the same group name: one 201, the rest 409 Group name already exists', async () => {
    const results = await together(8, () => admin.post('/api/rater_groups', { name: 'Race Team' }));
    expect(statuses(results)).toEqual([201, ...Array(7).fill(409)]);
    expect(new Set(results.filter((r) => r.status === 409).map((r) => r.body.error))).toEqual(
      new Set(['Group name already exists']),
    );
  });

  it('the same streamer linked by several new teams: one 201, the rest 409 This streamer already has a team', async () => {
    const sid = await t.streamer();
    const results = await together(6, (i) =>
      admin.post('/api/rater_groups', { name: `Link Race ${i}`, streamer_id: sid }),
    );
    expect(statuses(results)).toEqual([201, ...Array(5).fill(409)]);
    expect(new Set(results.filter((r) => r.status === 409).map((r) => r.body.error))).toEqual(
      new Set(['This streamer already has a team']),
    );
  });

  it('several "add owner" requests to one team leave exactly one owner', async () => {
    const g = await admin.post('/api/rater_groups', { name: 'Owner Race' });
    const users = await Promise.all(Array.from({ length: 6 }, () => t.user()));
    const results = await together(6, (i) =>
      admin.post('/api/rater_groups?members=1', {
        group_id: g.body.id,
        login: users[i]!.login,
        role: 'owner',
      }),
    );
    expect(statuses(results)).toEqual(Array(6).fill(200));
    const roles = await t.db
      .selectFrom('rater_group_members')
      .select('role')
      .where('group_id', '=', g.body.id)
      .execute();
    expect(roles).toHaveLength(6);
    expect(roles.filter((r) => r.role === 'owner')).toHaveLength(1);
  });

  it('concurrent community ratings by one member keep one rating, the last one written', async () => {
    const sid = await t.streamer();
    const g = await admin.post('/api/rater_groups', { name: 'Rating Race', streamer_id: sid });
    const u = await t.user();
    await admin.post('/api/rater_groups?members=1', { group_id: g.body.id, login: u.login });
    const member = await t.signedIn(u);
    const results = await together(8, (i) =>
      member.put('/api/community_ratings', { group_id: g.body.id, r: { s: i + 1 } }),
    );
    expect(statuses(results)).toEqual(Array(8).fill(200));
    const rows = await t.db
      .selectFrom('community_ratings')
      .select('s')
      .where('group_id', '=', g.body.id)
      .execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.s).toBeGreaterThanOrEqual(1);
  });

  it('concurrent comments are all stored, each acknowledged exactly once', async () => {
    const sid = await t.streamer();
    const before = await countRows(t.db, 'comments');
    const results = await together(20, (i) =>
      t.client().post('/api/comments', { streamer_id: sid, body: `parallel ${i}` }),
    );
    expect(statuses(results)).toEqual(Array(20).fill(201));
    expect(new Set(results.map((r) => r.body.id)).size).toBe(20);
    expect(await countRows(t.db, 'comments')).toBe(before + 20);
  });
});

describe('invariants live in the database', () => {
  it.each([
    [
      'ratings',
      { streamer_id: 0, s: 11, g: 0, a: 0, v: 0, n: 0, ns: 0, o: 0, reward: 0, notes: null, updated_at: 'x' },
    ],
    [
      'ratings',
      {
        streamer_id: 0,
        s: 0,
        g: 0,
        a: 0,
        v: 0,
        n: 0,
        ns: 0,
        o: 0,
        reward: 131,
        notes: null,
        updated_at: 'x',
      },
    ],
  ] as const)('a %s row out of range is refused by the database itself', async (table, row) => {
    const sid = await t.streamer();
    await expect(
      t.db
        .insertInto(table)
        .values({ ...row, streamer_id: sid })
        .execute(),
    ).rejects.toThrow(/check/i);
  });

  it('roles, statuses, platforms and flags outside their values are refused by the database', async () => {
    const sid = await t.streamer();
    const g = await admin.post('/api/rater_groups', { name: 'Check Team' });
    const u = await t.user();
    const attempts = [
      () =>
        t.db
          .updateTable('streamers')
          .set({ status: 'away' as never })
          .where('id', '=', sid)
          .execute(),
      () =>
        t.db
          .updateTable('streamers')
          .set({ platform: 'youtube' as never })
          .where('id', '=', sid)
          .execute(),
      () => t.db.updateTable('streamers').set({ evaluated: 2 }).where('id', '=', sid).execute(),
      () =>
        t.db
          .insertInto('rater_group_members')
          .values({ group_id: g.body.id, user_id: u.id, role: 'boss' as never, added_at: 'x' })
          .execute(),
      () => t.db.updateTable('users').set({ banned: 5 }).where('id', '=', u.id).execute(),
    ];
    for (const attempt of attempts) await expect(attempt()).rejects.toThrow(/check/i);
  });

  it('a second owner in one team is refused by the database itself', async () => {
    const g = await admin.post('/api/rater_groups', { name: 'Two Owners' });
    const [a, b] = [await t.user(), await t.user()];
    await t.db
      .insertInto('rater_group_members')
      .values({ group_id: g.body.id, user_id: a.id, role: 'owner', added_at: 'x' })
      .execute();
    await expect(
      t.db
        .insertInto('rater_group_members')
        .values({ group_id: g.body.id, user_id: b.id, role: 'owner', added_at: 'x' })
        .execute(),
    ).rejects.toThrow(/unique|duplicate/i);
  });
});

describe('comment posts written together (issue 18, issue 40: one group commit of savepoints on both databases)', () => {
  it('concurrent posts are all stored once, in fewer statements than posts on PostgreSQL, and a guest who may not post is still refused among them', async () => {
    const sid = await t.streamer('Grouped Posts');
    const other = await t.streamer('Grouped Other');
    const writer = t.database.groupCommit;
    const before = { groups: writer.groups, written: writer.written };
    const results = await together(40, (i) =>
      t.client().post('/api/comments', {
        streamer_id: i === 7 ? 999_999 : i % 2 ? sid : other,
        body: `Grouped comment ${i}`,
        author: i === 9 ? 'Admin' : `Guest ${i}`,
      }),
    );
    expect(results[7]?.status).toBe(404);
    expect(results[9]?.status).toBe(400);
    expect(results[9]?.body).toMatchObject({ code: 'name_reserved' });
    const ok = results.filter((r) => r.status === 201) as {
      status: number;
      body: { id: number; body: string };
    }[];
    expect(ok).toHaveLength(38);
    expect(new Set(ok.map((r) => r.body.id)).size).toBe(38);
    const stored = await t.db
      .selectFrom('comments')
      .select(['id', 'body'])
      .where('streamer_id', 'in', [sid, other])
      .execute();
    expect(stored.map((r) => `${r.id} ${r.body}`).sort()).toEqual(
      ok.map((r) => `${r.body.id} ${r.body.body}`).sort(),
    );
    expect(writer.written - before.written).toBeGreaterThanOrEqual(38);
    expect(writer.groups - before.groups).toBeLessThan(38);
  });

  it('a batch that fails as a whole runs again one write at a time: the write that fails fails alone', async () => {
    const sid = await t.streamer('Batch Falls Back');
    const seen: number[] = [];
    // Stores each body as a comment; a group of them fails, as a statement of many rows can.
    const batch: Batch<string, number> = {
      many: async (trx, bodies) => {
        seen.push(bodies.length);
        const ids = [];
        for (const body of bodies) {
          if (body === 'bad' && bodies.length === 1) throw new Error('this write fails');
          ids.push(
            await insertComment(trx, {
              streamer_id: sid,
              author: 'x',
              body,
              is_admin: 0,
              created_at: '2026-11-29T00:00:00Z',
            }),
          );
        }
        if (bodies.length > 1) throw new Error('the group fails');
        return ids.map((value) => ({ ok: true as const, value }));
      },
    };
    const results = await Promise.allSettled(
      ['one', 'bad', 'three'].map((body) => writeBatched(t.database, batch, body, 'content')),
    );
    // Together first (on PostgreSQL two groups in flight may share them out), then each alone.
    expect(seen.some((n) => n > 1)).toBe(true);
    expect(seen.filter((n) => n === 1)).toHaveLength(3);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    const stored = await t.db.selectFrom('comments').select('body').where('streamer_id', '=', sid).execute();
    expect(stored.map((r) => r.body).sort()).toEqual(['one', 'three']);
  });
});
