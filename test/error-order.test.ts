import { describe, expect, it } from 'vitest';
import { useApp } from './helpers/app.ts';
import { R } from './helpers/streamers.ts';

/**
 * DECISIONS.md "Errors": where several errors apply, authentication and role (401/403) come
 * before missing input (400). The operations whose caller rule depends on a row (a streamer's
 * reply and schedule, staff reviews, re-rating requests, a browser's own comments) ask for its
 * id only once the caller has passed. Over HTTP on SQLite and PostgreSQL.
 */
const t = await useApp();
const admin = await t.admin();

const errorOf = async (res: Promise<{ status: number; body: { error?: string } }>) => {
  const { status, body } = await res;
  return `${status} ${body.error}`;
};

describe('no id: who is calling is answered first', () => {
  it('anonymous: 401 on every operation that needs a caller, never 400', async () => {
    const c = t.client();
    expect(await errorOf(c.put('/api/reviews', { r: R(5) }))).toBe('401 Unauthorized');
    expect(await errorOf(c.post('/api/reviews?publish=1', {}))).toBe('401 Unauthorized');
    expect(await errorOf(c.post('/api/reviews?request=1', { reason: 'Please look again' }))).toBe(
      '401 Not logged in',
    );
    expect(await errorOf(c.put('/api/streamers?reply=1', { body: 'Thanks for the rating' }))).toBe(
      '401 Not logged in',
    );
    expect(await errorOf(c.put('/api/streamers?schedule=1', { segments: [] }))).toBe('401 Not logged in');
    expect(await errorOf(c.get('/api/comments?mine=1'))).toBe('401 Not logged in');
  });

  it('a signed-in user who is not staff: 401 on staff reviews and publishing; 400 where the right depends on the streamer', async () => {
    const plain = await t.signedIn(await t.user());
    expect(await errorOf(plain.put('/api/reviews', { r: R(5) }))).toBe('401 Unauthorized');
    expect(await errorOf(plain.post('/api/reviews?publish=1', {}))).toBe('401 Unauthorized');
    expect(await errorOf(plain.post('/api/reviews?request=1', { reason: 'Please look again' }))).toBe(
      '400 Missing streamer_id',
    );
    expect(await errorOf(plain.put('/api/streamers?reply=1', { body: 'Thanks for the rating' }))).toBe(
      '400 Missing id',
    );
    expect(await errorOf(plain.put('/api/streamers?schedule=1', { segments: [] }))).toBe('400 Missing id');
    expect(await errorOf(plain.get('/api/comments?mine=1'))).toBe('400 Missing streamer_id');
  });

  it('a moderator publishing: 401; staff who may: 400 for the missing streamer', async () => {
    const mod = await t.signedIn(await t.user({}, { mod: true }));
    expect(await errorOf(mod.post('/api/reviews?publish=1', {}))).toBe('401 Unauthorized');
    expect(await errorOf(mod.put('/api/reviews', { r: R(5) }))).toBe('400 Missing streamer_id');
    expect(await errorOf(admin.post('/api/reviews?publish=1', {}))).toBe('400 Missing streamer_id');
  });
});

describe('the id given: who may act on the row is answered before the body, the body before the row', () => {
  it("someone else's comment edited with a short body: 403 Not your comment; an unknown one: 400", async () => {
    const sid = await t.streamer(`Order ${process.pid}`);
    const author = await t.signedIn(await t.user());
    const other = await t.signedIn(await t.user());
    const id = (await author.post('/api/comments', { streamer_id: sid, body: 'the author wrote this' })).body
      .id;
    expect(await errorOf(other.put(`/api/comments?id=${id}`, { body: 'x' }))).toBe('403 Not your comment');
    expect(await errorOf(other.put(`/api/comments?id=${id}`, { hidden: true, body: 'x' }))).toBe(
      '403 Not your comment',
    );
    expect(await errorOf(other.put('/api/comments?id=999999', { body: 'x' }))).toBe(
      '400 Komentář je příliš krátký',
    );
    expect(await errorOf(author.put(`/api/comments?id=${id}`, { body: 'x' }))).toBe(
      '400 Komentář je příliš krátký',
    );
  });

  it('a pin with no body by one who may not pin: 403 Not allowed; by staff: 400; an unknown comment: 400', async () => {
    const sid = await t.streamer(`Pin order ${process.pid}`);
    const author = await t.signedIn(await t.user());
    const id = (await author.post('/api/comments', { streamer_id: sid, body: 'pin me if you may' })).body.id;
    expect(await errorOf(author.put(`/api/comments?id=${id}&pin=1`, {}))).toBe('403 Not allowed');
    expect(await errorOf(admin.put(`/api/comments?id=${id}&pin=1`, {}))).toBe('400 Nothing to update');
    expect(await errorOf(author.put('/api/comments?id=999999&pin=1', {}))).toBe('400 Nothing to update');
  });

  it("a rater adding to another's team without a login: 403 Owner only; its owner: 400", async () => {
    const owner = await t.user();
    const group = (await admin.post('/api/rater_groups', { name: `Order team ${owner.id}` })).body;
    await admin.post('/api/rater_groups?members=1', {
      group_id: group.id,
      login: owner.login,
      role: 'owner',
    });
    const outsider = await t.signedIn(await t.user());
    expect(await errorOf(outsider.post('/api/team_members', { group_id: group.id }))).toBe('403 Owner only');
    const own = await t.signedIn(owner);
    expect(await errorOf(own.post('/api/team_members', { group_id: group.id }))).toBe(
      '400 Missing group_id or login',
    );
  });

  it("a moderator's role grant with a bad id, and a moderator's lock with a malformed body: 403 Admin only", async () => {
    const mod = await t.signedIn(await t.user({}, { mod: true }));
    expect(await errorOf(mod.put('/api/users?id=abc', { is_admin: true }))).toBe('403 Admin only');
    expect(await errorOf(admin.put('/api/users?id=abc', { is_admin: true }))).toBe('400 Missing id');
    const sid = await t.streamer(`Lock order ${process.pid}`);
    const malformed = { body: '{bad', headers: { 'content-type': 'application/json' } };
    expect(await errorOf(mod.request('PUT', `/api/streamers?id=${sid}&lock=1`, malformed))).toBe(
      '403 Admin only',
    );
    expect(await errorOf(t.client().request('PUT', `/api/streamers?id=${sid}&lock=1`, malformed))).toBe(
      '401 Unauthorized',
    );
    expect(await errorOf(admin.request('PUT', `/api/streamers?id=${sid}&lock=1`, malformed))).toBe(
      '400 Invalid JSON',
    );
  });
});

describe('a guest posting a comment: the caller before the body', () => {
  const malformed = { body: '{bad', headers: { 'content-type': 'application/json' } };
  const plain = { body: 'hello', headers: { 'content-type': 'text/plain' } };

  it('auth_enabled true: 401 for a malformed or unsupported body; a banned session: 403 before 400', async () => {
    const banned = await t.signedIn(await t.user({}, { banned: true }));
    expect(await errorOf(banned.request('POST', '/api/comments', malformed))).toBe('403 Účet je zablokován');
    expect(await errorOf(t.client().request('POST', '/api/comments', malformed))).toBe('400 Invalid JSON');
    await admin.put('/api/settings', { auth_enabled: true });
    try {
      const guest = t.client();
      expect(await errorOf(guest.request('POST', '/api/comments', malformed))).toBe(
        '401 Pro komentování je vyžadováno přihlášení',
      );
      expect(await errorOf(guest.request('POST', '/api/comments', plain))).toBe(
        '401 Pro komentování je vyžadováno přihlášení',
      );
      const large = { body: JSON.stringify({ text: 'x'.repeat(70_000) }), headers: malformed.headers };
      expect(await errorOf(guest.request('POST', '/api/comments', large))).toBe(
        '401 Pro komentování je vyžadováno přihlášení',
      );
      expect(await errorOf(banned.request('POST', '/api/comments', malformed))).toBe(
        '401 Pro komentování je vyžadováno přihlášení',
      );
      expect(await errorOf(admin.request('POST', '/api/comments', malformed))).toBe('400 Invalid JSON');
    } finally {
      await admin.put('/api/settings', { auth_enabled: false });
    }
  });
});

describe('a malformed body: who is calling is still answered first', () => {
  const malformed = { body: '{bad', headers: { 'content-type': 'application/json' } };
  const send = (c: ReturnType<typeof t.client>, method: string, path: string) =>
    errorOf(c.request(method, path, malformed));

  it('anonymous, a signed-in user, a moderator and a banned user: 401/403 before 400 Invalid JSON', async () => {
    const sid = await t.streamer(`Malformed order ${process.pid}`);
    const anon = t.client();
    expect(await send(anon, 'PUT', `/api/streamers?id=${sid}&reply=1`)).toBe('401 Not logged in');
    expect(await send(anon, 'PUT', `/api/streamers?id=${sid}&schedule=1`)).toBe('401 Not logged in');
    expect(await send(anon, 'PUT', '/api/comments?id=1&pin=1')).toBe('401 Unauthorized');
    expect(await send(anon, 'PUT', `/api/reviews?streamer_id=${sid}`)).toBe('401 Unauthorized');
    expect(await send(anon, 'POST', `/api/reviews?streamer_id=${sid}&publish=1`)).toBe('401 Unauthorized');
    expect(await send(anon, 'POST', `/api/reviews?streamer_id=${sid}&request=1`)).toBe('401 Not logged in');
    const plain = await t.signedIn(await t.user());
    expect(await send(plain, 'PUT', `/api/reviews?streamer_id=${sid}`)).toBe('401 Unauthorized');
    expect(await send(plain, 'POST', `/api/reviews?streamer_id=${sid}&publish=1`)).toBe('401 Unauthorized');
    const mod = await t.signedIn(await t.user({}, { mod: true }));
    expect(await send(mod, 'POST', `/api/reviews?streamer_id=${sid}&publish=1`)).toBe('401 Unauthorized');
    expect(await send(mod, 'PUT', `/api/reviews?streamer_id=${sid}`)).toBe('400 Invalid JSON');
    expect(await send(admin, 'POST', `/api/reviews?streamer_id=${sid}&request=1`)).toBe(
      '403 Not your channel',
    );
    expect(await send(admin, 'PUT', `/api/streamers?id=${sid}&reply=1`)).toBe('403 Not your channel');
    const banned = await t.signedIn(await t.user({}, { banned: true }));
    expect(await send(banned, 'PUT', `/api/streamers?id=${sid}&reply=1`)).toBe('403 Účet je zablokován');
    expect(await send(banned, 'PUT', `/api/streamers?id=${sid}&schedule=1`)).toBe('403 Účet je zablokován');
    expect(await send(banned, 'PUT', '/api/comments?id=1&pin=1')).toBe('403 Účet je zablokován');
    expect(await send(banned, 'POST', `/api/reviews?streamer_id=${sid}&request=1`)).toBe(
      '403 Účet je zablokován',
    );
    expect(await send(banned, 'PUT', `/api/reviews?streamer_id=${sid}`)).toBe('403 Účet je zablokován');
  });
});
