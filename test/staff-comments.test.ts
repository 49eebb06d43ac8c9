import { describe, expect, it } from 'vitest';
import * as staffAuthorStored from '../src/db/migrations/032-staff-author-stored.ts';
import { useApp } from './helpers/app.ts';

/**
 * Issue 30 item 17: the shared-password administrator writes as the site's administration;
 * DECISIONS.md "Fifth wave", "The change": unless they give a name, which the comment keeps.
 */
const t = await useApp();

describe("the administrator's comments", () => {
  it('show as the site administration with the admin staff role, not as Anonym', async () => {
    const admin = await t.admin();
    const sid = await t.streamer();
    const posted = await admin.post('/api/comments', { streamer_id: sid, body: 'from the staff' });
    expect(posted.status).toBe(201);
    expect(posted.body).toMatchObject({ author: 'Administrace', is_admin: true });
    const item = (await t.client().get(`/api/comments?streamer_id=${sid}`)).body.find(
      (c: { id: number }) => c.id === posted.body.id,
    );
    expect(item).toMatchObject({ author: 'Administrace', is_admin: true, user_role: 'admin', user_id: null });
  });

  it('keep the name the administrator gives, cut to 50 characters', async () => {
    const admin = await t.admin();
    const sid = await t.streamer();
    const named = await admin.post('/api/comments', { streamer_id: sid, body: 'signed', author: ' Pepa ' });
    const long = await admin.post('/api/comments', {
      streamer_id: sid,
      body: 'long',
      author: 'x'.repeat(60),
    });
    expect(named.body).toMatchObject({ author: 'Pepa', is_admin: true });
    expect(long.body.author).toBe('x'.repeat(50));
    const list = (await t.client().get(`/api/comments?streamer_id=${sid}`)).body;
    expect(list.find((c: { id: number }) => c.id === named.body.id)).toMatchObject({
      author: 'Pepa',
      is_admin: true,
      user_role: 'admin',
    });
  });

  it("migration 032 gives the label to the administrator's comments stored with the guests' default name", async () => {
    const admin = await t.admin();
    const sid = await t.streamer();
    const staff = (await admin.post('/api/comments', { streamer_id: sid, body: 'before the label' })).body.id;
    const named = (await admin.post('/api/comments', { streamer_id: sid, body: 'named', author: 'Pepa' }))
      .body.id;
    const guest = (await t.client().post('/api/comments', { streamer_id: sid, body: 'a guest' })).body.id;
    // As the administrator's comments were stored before the staff label existed.
    await t.db.updateTable('comments').set({ author: 'Anonym' }).where('id', '=', staff).execute();
    await staffAuthorStored.up(t.db);
    const authors = await t.db
      .selectFrom('comments')
      .select(['id', 'author'])
      .where('id', 'in', [staff, named, guest])
      .orderBy('id')
      .execute();
    expect(authors.map((c) => c.author)).toEqual(['Administrace', 'Pepa', 'Anonym']);
  });

  it('a guest is still Anonym and no staff', async () => {
    const sid = await t.streamer();
    const posted = await t.client().post('/api/comments', { streamer_id: sid, body: 'a guest here' });
    const item = (await t.client().get(`/api/comments?streamer_id=${sid}`)).body[0];
    expect(posted.body.author).toBe('Anonym');
    expect(item).toMatchObject({ author: 'Anonym', is_admin: false, user_role: null });
  });
});
