import { describe, expect, it } from 'vitest';
import { useApp } from './helpers/app.ts';

/** Issue 30 item 17: the shared-password administrator writes as the site's administration. */
const t = await useApp();

describe("the administrator's comments", () => {
  it('show as the site administration with the admin staff role, not as Anonym', async () => {
    const admin = await t.admin();
    const sid = await t.streamer();
    const posted = await admin.post('/api/comments', {
      streamer_id: sid,
      body: 'from the staff',
      author: 'Pepa',
    });
    expect(posted.status).toBe(201);
    expect(posted.body).toMatchObject({ author: 'Administrace', is_admin: true });
    const item = (await t.client().get(`/api/comments?streamer_id=${sid}`)).body.find(
      (c: { id: number }) => c.id === posted.body.id,
    );
    expect(item).toMatchObject({ author: 'Administrace', is_admin: true, user_role: 'admin', user_id: null });
  });

  it('a guest is still Anonym and no staff', async () => {
    const sid = await t.streamer();
    const posted = await t.client().post('/api/comments', { streamer_id: sid, body: 'a guest here' });
    const item = (await t.client().get(`/api/comments?streamer_id=${sid}`)).body[0];
    expect(posted.body.author).toBe('Anonym');
    expect(item).toMatchObject({ author: 'Anonym', is_admin: false, user_role: null });
  });
});
