import { beforeAll, describe, expect, it } from 'vitest';
import { describe as words } from '../src/audit/actions.ts';
import { titleOf } from '../web/src/lib/audit-words.ts';
import { csAudit, csAuditTitles } from '../web/src/locales/audit-cs.ts';
import { enAudit, enAuditTitles } from '../web/src/locales/audit-en.ts';
import { useApp } from './helpers/app.ts';
import type { Client } from './helpers/client.ts';

/** An audit entry on one comment names it for a moderator reading the log: its author and its streamer. */
const t = await useApp();
let admin: Client;
beforeAll(async () => {
  admin = await t.admin();
});
const latest = async () => (await admin.get('/api/audit?limit=1')).body[0];
const comment = async (streamer_id: number, author: string) => {
  const res = await t.client().post('/api/comments', { streamer_id, body: `said by ${author}`, author });
  expect(res.status).toBe(201);
  return res.body.id as number;
};
const bulk = (body: Record<string, unknown>) => admin.put('/api/moderation/comments', body);
const provider = (p: string) => p;

describe('audit entries on one comment', () => {
  it('hiding, showing and deleting a comment name its author and streamer', async () => {
    const sid = await t.streamer('Named Streamer');
    const id = await comment(sid, 'Pepa');
    await admin.put(`/api/comments?id=${id}`, { hidden: true });
    expect(await latest()).toMatchObject({
      action: 'comment.hide',
      params: { author: 'Pepa', streamer: 'Named Streamer', hidden: true },
      summary: 'Hid a comment by Pepa on Named Streamer',
    });
    await admin.put(`/api/comments?id=${id}`, { hidden: false });
    expect((await latest()).summary).toBe('Showed a comment by Pepa on Named Streamer');
    await admin.del(`/api/comments?id=${id}`);
    expect(await latest()).toMatchObject({
      action: 'comment.delete',
      params: { author: 'Pepa', streamer: 'Named Streamer' },
      summary: 'Deleted a comment by Pepa on Named Streamer',
    });
  });

  it("the moderation queue's approve, hide, show and delete of one comment name it", async () => {
    const sid = await t.streamer('Queue Streamer');
    const id = await comment(sid, 'Franta');
    await t.db.updateTable('comments').set({ pending: 1 }).where('id', '=', id).execute();
    for (const action of ['approve', 'hide', 'show', 'delete']) {
      expect((await bulk({ action, ids: [id] })).body.count).toBe(1);
      expect(await latest(), action).toMatchObject({
        action: 'comment.bulk',
        params: {
          action,
          count: 1,
          selector: { ids: [id] },
          comment: { author: 'Franta', streamer: 'Queue Streamer' },
        },
        summary: `Moderation: ${action} a comment by Franta on Queue Streamer`,
      });
    }
  });

  it('a queue action names the one comment it changed, and none when it changed more or none', async () => {
    const one = await t.streamer('First Streamer');
    const two = await t.streamer('Second Streamer');
    const a = await comment(one, 'Alena');
    const b = await comment(two, 'Bohouš');
    await bulk({ action: 'hide', ids: [a] });
    // Both selected, only Bohouš's changed (Alena's was hidden already): the entry names his.
    expect((await bulk({ action: 'hide', ids: [a, b] })).body.count).toBe(1);
    expect((await latest()).params.comment).toEqual({ author: 'Bohouš', streamer: 'Second Streamer' });
    await bulk({ action: 'show', ids: [a, b] });
    const both = await latest();
    expect(both.params).toEqual({ action: 'show', count: 2, selector: { ids: [a, b] } });
    expect(both.summary).toBe('Moderation: show on 2 comments (2 selected)');
    await bulk({ action: 'show', ids: [a] });
    expect((await latest()).params).toEqual({ action: 'show', count: 0, selector: { ids: [a] } });
  });

  it("the queue's dismissal names the one comment whose reports it closed, and none when it closed several's", async () => {
    const sid = await t.streamer('Reported Streamer');
    const [a, b, quiet] = [
      await comment(sid, 'Cyril'),
      await comment(sid, 'Dana'),
      await comment(sid, 'Ema'),
    ];
    const report = async (id: number) =>
      expect((await t.client().post('/api/reports', { comment_id: id, reason: 'spam' })).status).toBe(201);
    await report(a);
    await report(b);
    // Selected beside a comment nobody reported: only Cyril's reports close, and the entry names his comment.
    expect((await bulk({ action: 'dismiss', ids: [a, quiet] })).body.count).toBe(1);
    expect(await latest()).toMatchObject({
      action: 'comment.bulk',
      params: {
        action: 'dismiss',
        count: 1,
        selector: { ids: [a, quiet] },
        comment: { author: 'Cyril', streamer: 'Reported Streamer' },
      },
      summary: 'Moderation: dismiss a comment by Cyril on Reported Streamer',
    });
    await report(a);
    expect((await bulk({ action: 'dismiss', ids: [a, b] })).body.count).toBe(2);
    expect((await latest()).params).toEqual({ action: 'dismiss', count: 2, selector: { ids: [a, b] } });
  });

  it('a queue entry that changed one comment is titled by what happened to it, one of none or several as moderation', async () => {
    const sid = await t.streamer('Titled Streamer');
    const [a, b] = [await comment(sid, 'Hana'), await comment(sid, 'Ivo')];
    const titles = async () => {
      const entry = await latest();
      return [titleOf(enAuditTitles, entry), titleOf(csAuditTitles, entry)];
    };
    await bulk({ action: 'hide', ids: [a] });
    expect(await titles()).toEqual(['Comment hidden', 'Skrytý komentář']);
    await bulk({ action: 'show', ids: [a, b] });
    expect(await titles()).toEqual(['Comment shown', 'Zobrazený komentář']);
    expect((await t.client().post('/api/reports', { comment_id: b, reason: 'abuse' })).status).toBe(201);
    await bulk({ action: 'dismiss', ids: [b] });
    expect(await titles()).toEqual(['Reports dismissed', 'Uzavřena hlášení']);
    await t.db.updateTable('comments').set({ pending: 1 }).where('id', '=', b).execute();
    await bulk({ action: 'approve', ids: [b] });
    expect(await titles()).toEqual(['Comment approved', 'Schválen komentář']);
    await bulk({ action: 'hide', ids: [a, b] });
    expect(await titles()).toEqual(['Comments moderated', 'Hromadná moderace']);
    await bulk({ action: 'hide', ids: [a, b] });
    expect((await latest()).params.count).toBe(0);
    expect(await titles()).toEqual(['Comments moderated', 'Hromadná moderace']);
    await bulk({ action: 'delete', ids: [a] });
    expect(await titles()).toEqual(['Comment deleted', 'Smazán komentář']);
  });

  it('entries written before they named the streamer or the comment are listed and worded', async () => {
    const stored = [
      { action: 'comment.delete', params: { author: 'Old' } },
      { action: 'comment.hide', params: { author: 'Old', hidden: true } },
      { action: 'comment.bulk', params: { action: 'hide', count: 1, selector: { ids: [7] } } },
    ] as const;
    for (const e of stored) {
      await t.db
        .insertInto('audit_log')
        .values({
          at: new Date().toISOString(),
          actor: 'admin',
          actor_user_id: null,
          action: e.action,
          target_id: null,
          summary: words(e.action, e.params as never),
          params: JSON.stringify(e.params),
          details: null,
        })
        .execute();
    }
    const res = await admin.get('/api/audit?limit=3');
    expect(res.status).toBe(200);
    expect(res.body.map((e: any) => [e.action, e.params, e.summary]).reverse()).toEqual([
      ['comment.delete', { author: 'Old' }, 'Deleted a comment by Old'],
      ['comment.hide', { author: 'Old', hidden: true }, 'Hid a comment by Old'],
      ['comment.bulk', stored[2].params, 'Moderation: hide on 1 comments (1 selected)'],
    ]);
  });
});

describe("the page's words for an entry on one comment", () => {
  const named = { author: 'Pepa', streamer: 'Kuba' };
  it('say the streamer in English and Czech when the entry names it, and nothing when it does not', () => {
    expect([
      enAudit['comment.delete']?.(named, provider),
      enAudit['comment.hide']?.({ ...named, hidden: true }, provider),
      enAudit['comment.delete']?.({ author: 'Pepa' }, provider),
      enAudit['comment.hide']?.({ author: '', hidden: false }, provider),
      enAudit['comment.pin']?.({ ...named, pinned: true }, provider),
      enAudit['comment.pin']?.({ author: 'Pepa', pinned: false }, provider),
    ]).toEqual([
      'Deleted a comment by Pepa on Kuba',
      'Hid a comment by Pepa on Kuba',
      'Deleted a comment by Pepa',
      'Showed a comment by a deleted user',
      'Pinned a comment by Pepa on Kuba',
      'Unpinned a comment by Pepa',
    ]);
    expect([
      csAudit['comment.delete']?.(named, provider),
      csAudit['comment.hide']?.({ ...named, hidden: false }, provider),
      csAudit['comment.delete']?.({ author: 'Pepa' }, provider),
      csAudit['comment.hide']?.({ author: 'Pepa', hidden: true }, provider),
      csAudit['comment.delete']?.({ author: '' }, provider),
      csAudit['comment.pin']?.({ author: '', pinned: true }, provider),
      csAudit['comment.pin']?.({ ...named, pinned: false }, provider),
    ]).toEqual([
      'Smazán komentář od Pepa u streamera Kuba',
      'Zobrazen komentář od Pepa u streamera Kuba',
      'Smazán komentář od Pepa',
      'Skryt komentář od Pepa',
      // "od" takes the genitive.
      'Smazán komentář od smazaného uživatele',
      'Připnut komentář od smazaného uživatele',
      'Odepnut komentář od Pepa u streamera Kuba',
    ]);
  });

  it("name the one comment of a queue action; a count of several or an older entry's stays", () => {
    const actions = ['approve', 'hide', 'show', 'delete', 'dismiss'] as const;
    const one = (action: (typeof actions)[number]) => ({
      action,
      count: 1,
      selector: { ids: [1] },
      comment: named,
    });
    expect(actions.map((a) => enAudit['comment.bulk']?.(one(a), provider))).toEqual([
      'Approved a comment by Pepa on Kuba',
      'Hid a comment by Pepa on Kuba',
      'Showed a comment by Pepa on Kuba',
      'Deleted a comment by Pepa on Kuba',
      'Dismissed the reports of a comment by Pepa on Kuba',
    ]);
    expect(actions.map((a) => csAudit['comment.bulk']?.(one(a), provider))).toEqual([
      'Schválen komentář od Pepa u streamera Kuba',
      'Skryt komentář od Pepa u streamera Kuba',
      'Zobrazen komentář od Pepa u streamera Kuba',
      'Smazán komentář od Pepa u streamera Kuba',
      'Uzavřena hlášení ke komentáři od Pepa u streamera Kuba',
    ]);
    // Several comments (Czech's few, 2, and other, 5) keep the moderation's title.
    for (const count of [2, 5]) {
      const several = { action: 'delete' as const, count, selector: { user_id: 1 } };
      expect(
        [enAuditTitles['comment.bulk'], csAuditTitles['comment.bulk']].map(
          (f) => typeof f === 'function' && f(several),
        ),
      ).toEqual(['Comments moderated', 'Hromadná moderace']);
    }
    const older = { action: 'hide' as const, count: 1, selector: { ids: [1] } };
    expect(enAudit['comment.bulk']?.(older, provider)).toBe('Hid 1 selected comment');
    expect(csAudit['comment.bulk']?.(older, provider)).toBe('Skryty: vybrané komentáře (1)');
  });
});
