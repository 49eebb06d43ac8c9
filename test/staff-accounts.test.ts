import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import bcrypt from 'bcryptjs';
import { noteEnvironmentPassword, storeAdminHash } from '../src/auth/admin-password.ts';
import { hashPassword } from '../src/auth/passwords.ts';
import { parseConfig } from '../src/config/config.ts';
import { type TestApp, startApp, useApp } from './helpers/app.ts';
import type { Client } from './helpers/client.ts';
import { reopen } from './helpers/database.ts';

/** DECISIONS.md "Third wave": staff accounts and sessions. */
const t = await useApp();
const admin = await t.admin();
const isAdmin = async (c: Client) => (await c.get('/api/auth/check')).body.admin as boolean;
/**
 * Waits until a change made on one instance has reached another: NOTIFY on PostgreSQL, the
 * data_version poll twice a second on SQLite (db/changes.ts). A generous bound, so that a busy
 * machine's pauses do not fail the test; the poll's period is what makes it a second.
 */
async function reached(check: () => Promise<boolean>): Promise<void> {
  await expect.poll(check, { timeout: 10_000, interval: 25 }).toBe(true);
}

describe('personal administrator accounts', () => {
  it('a user with the flag is an administrator in their own session, with every right, named in the audit log', async () => {
    const u = await t.user({ login: 'owner_one', display_name: 'Owner One' });
    const c = await t.signedIn(u);
    expect(await isAdmin(c)).toBe(false);
    expect((await admin.put(`/api/users?id=${u.id}`, { is_admin: true })).body).toEqual({ ok: true });
    expect((await admin.get('/api/users?q=owner_one')).body[0].is_admin).toBe(true);
    expect((await c.get('/api/oauth/me')).body).toMatchObject({ user: { id: u.id }, is_admin: true });
    expect(await isAdmin(c)).toBe(true);
    const added = await c.post('/api/streamers?admin=1', { name: 'Added By Account' });
    expect(added.status).toBe(201);
    expect(
      (await c.put(`/api/streamers?id=${added.body.id}&lock=1`, { community_locked: true })).status,
    ).toBe(200);
    expect((await c.get('/api/users')).status).toBe(200);
    const entry = (await admin.get('/api/audit')).body.find(
      (e: any) => e.action === 'streamer.add' && e.target_id === added.body.id,
    );
    expect(entry).toMatchObject({ actor: 'user', actor_user_id: u.id });
    // Comments carry the role for the page's badge.
    await c.post('/api/comments', { streamer_id: added.body.id, body: 'staff here' });
    expect((await t.client().get(`/api/comments?streamer_id=${added.body.id}`)).body[0]).toMatchObject({
      user_role: 'admin',
      is_admin: true,
    });
  });

  it('loses every right the moment the flag is removed or the account banned; a ban clears the flag', async () => {
    const u = await t.user();
    const c = await t.signedIn(u);
    await admin.put(`/api/users?id=${u.id}`, { is_admin: true });
    expect((await c.get('/api/users')).status).toBe(200);
    await admin.put(`/api/users?id=${u.id}`, { is_admin: false });
    expect((await c.get('/api/users')).status).toBe(401);
    await admin.put(`/api/users?id=${u.id}`, { is_admin: true });
    expect((await c.get('/api/users')).status).toBe(200);
    await admin.put(`/api/users?id=${u.id}`, { banned: true });
    expect((await c.get('/api/users')).status).toBe(401);
    expect(await isAdmin(c)).toBe(false);
    const row = (await admin.get('/api/users')).body.find((x: any) => x.id === u.id);
    expect(row).toMatchObject({ banned: true, is_admin: false });
  });

  it('a banned user cannot be made an administrator (409), and the database refuses it too', async () => {
    const u = await t.user();
    const conflict = { error: 'A banned user cannot be an administrator', code: 'banned_user_admin' };
    expect((await admin.put(`/api/users?id=${u.id}`, { banned: true, is_admin: true })).body).toEqual(
      conflict,
    );
    await admin.put(`/api/users?id=${u.id}`, { banned: true });
    expect((await admin.put(`/api/users?id=${u.id}`, { is_admin: true })).body).toEqual(conflict);
    await expect(
      t.db.updateTable('users').set({ is_admin: 1 }).where('id', '=', u.id).execute(),
    ).rejects.toThrow();
  });

  it('moderators carry their role on comments', async () => {
    const sid = await t.streamer();
    const mod = await t.signedIn(await t.user({}, { mod: true }));
    await mod.post('/api/comments', { streamer_id: sid, body: 'a moderator speaks' });
    expect((await t.client().get(`/api/comments?streamer_id=${sid}`)).body[0].user_role).toBe('moderator');
  });
});

/** An app whose shared password lives in the database, as after the first start. */
async function withStoredPassword(password: string, env: Record<string, string> = {}): Promise<TestApp> {
  const app = await startApp({ ADMIN_PASSWORD: '', ...env });
  await storeAdminHash(app.db, await hashPassword(password));
  return app;
}
const login = async (app: TestApp, password: string) => {
  const c = app.client();
  expect((await c.post('/api/auth/login', { password })).status).toBe(200);
  return c;
};

describe('changing the shared password', () => {
  it("ends the flag of every session that got it from the password, the caller's too; personal administrators stay", async () => {
    const app = await withStoredPassword('the first password');
    try {
      const a = await login(app, 'the first password');
      const b = await login(app, 'the first password');
      const owner = await app.user();
      await app.db.updateTable('users').set({ is_admin: 1 }).where('id', '=', owner.id).execute();
      const personal = await app.signedIn(owner);
      const res = await a.put('/api/auth/password', { password: 'a brand new password' });
      expect([res.status, res.body]).toEqual([200, { ok: true }]);
      expect([await isAdmin(a), await isAdmin(b), await isAdmin(personal)]).toEqual([false, false, true]);
      expect((await app.client().post('/api/auth/login', { password: 'the first password' })).status).toBe(
        401,
      );
      const fresh = await login(app, 'a brand new password');
      expect(await isAdmin(fresh)).toBe(true);
      // A personal administrator may change it too.
      expect((await personal.put('/api/auth/password', { password: 'a third password here' })).status).toBe(
        200,
      );
      expect(await isAdmin(fresh)).toBe(false);
    } finally {
      await app.close();
    }
  });

  it('needs an administrator and at least 12 characters; is 409 while the environment sets the password', async () => {
    const app = await withStoredPassword('the first password');
    try {
      const a = await login(app, 'the first password');
      expect((await a.put('/api/auth/password', { password: 'short pw' })).body).toEqual({
        error: 'Password must have at least 12 characters',
        code: 'password_too_short',
      });
      expect((await a.put('/api/auth/password', {})).body.code).toBe('password_required');
      const user = await app.signedIn(await app.user());
      expect((await user.put('/api/auth/password', { password: 'x'.repeat(20) })).status).toBe(401);
      expect((await app.client().put('/api/auth/password', { password: 'x'.repeat(20) })).status).toBe(401);
      expect(await isAdmin(a)).toBe(true);
      // The settings page is told the form can work; nobody else is told anything of it.
      expect((await a.get('/api/settings/operator')).body.password_from_environment).toBe(false);
      expect((await user.get('/api/settings/operator')).body).not.toHaveProperty('password_from_environment');
    } finally {
      await app.close();
    }
    // The test app's password comes from ADMIN_PASSWORD.
    expect((await admin.put('/api/auth/password', { password: 'a long enough password' })).body).toEqual({
      error: 'Password is set by the environment',
      code: 'password_from_environment',
    });
    expect(await isAdmin(admin)).toBe(true);
    expect((await admin.get('/api/settings/operator')).body.password_from_environment).toBe(true);
  });

  it('a new ADMIN_PASSWORD_HASH at start ends the old hash’s sessions; the same hash again keeps them', async () => {
    const first = bcrypt.hashSync('env password one', 4);
    const app = await startApp({ ADMIN_PASSWORD: '', ADMIN_PASSWORD_HASH: first });
    try {
      await noteEnvironmentPassword(app.database, app.config);
      const c = await login(app, 'env password one');
      await noteEnvironmentPassword(app.database, app.config);
      expect(await isAdmin(c)).toBe(true);
      const second = parseConfig({
        DATABASE_URL: app.database.url,
        ADMIN_PASSWORD_HASH: bcrypt.hashSync('two', 4),
      });
      await noteEnvironmentPassword(app.database, second);
      expect(await isAdmin(c)).toBe(false);
    } finally {
      await app.close();
    }
  });

  it('three instances on one database: the change ends old administrator sessions on all three within a second', async () => {
    const one = await withStoredPassword('the first password');
    const two = await startApp({ ADMIN_PASSWORD: '' }, { database: reopen(one.database) });
    const three = await startApp({ ADMIN_PASSWORD: '' }, { database: reopen(one.database) });
    try {
      const onTwo = await login(two, 'the first password');
      const onThree = await login(three, 'the first password');
      expect([await isAdmin(onTwo), await isAdmin(onThree)]).toEqual([true, true]);
      const changer = await login(one, 'the first password');
      expect((await changer.put('/api/auth/password', { password: 'rotated password 2' })).status).toBe(200);
      await reached(async () => !(await isAdmin(onTwo)));
      await reached(async () => !(await isAdmin(onThree)));
      // The same cookie works on every instance, and on none is it an administrator's any more.
      const cookieFromTwo = new (changer.constructor as typeof Client)(one.url);
      cookieFromTwo.cookies = new Map(onTwo.cookies);
      expect(await isAdmin(cookieFromTwo)).toBe(false);
    } finally {
      await three.close();
      await two.close();
      await one.close();
    }
  });

  it('a block made on one instance holds on the others at once', async () => {
    const one = await startApp({ TRUST_PROXY: '127.0.0.1' });
    const two = await startApp({ TRUST_PROXY: '127.0.0.1' }, { database: reopen(one.database) });
    try {
      const sid = await one.streamer();
      const troll = (app: TestApp) => app.client({ 'x-forwarded-for': '203.0.113.99' });
      const posted = await troll(two).post('/api/comments', { streamer_id: sid, body: 'spam spam' });
      const block = await (await one.admin()).post('/api/moderation/blocks', { comment_id: posted.body.id });
      expect(block.status).toBe(201);
      expect((await troll(two).post('/api/comments', { streamer_id: sid, body: 'more spam' })).status).toBe(
        403,
      );
    } finally {
      await two.close();
      await one.close();
    }
  });
});

const noPassword = await startApp({ ADMIN_PASSWORD_LOGIN: 'false' });
afterAll(() => noPassword.close());

describe('ADMIN_PASSWORD_LOGIN=false', () => {
  const app = noPassword;

  it('refuses the shared password with 403 and ends sessions that had it; personal administrators work', async () => {
    expect((await app.client().post('/api/auth/login', { password: 'anything at all' })).body).toEqual({
      error: 'Password login is disabled',
      code: 'password_login_disabled',
    });
    expect((await app.client().post('/api/auth?action=login', { password: 'x' })).status).toBe(403);
    const old = await app.signedIn(await app.user(), {
      is_admin: true,
      admin_at: app.clock.now().toISOString(),
    });
    expect(await isAdmin(old)).toBe(false);
    const owner = await app.user();
    await app.db.updateTable('users').set({ is_admin: 1 }).where('id', '=', owner.id).execute();
    const personal = await app.signedIn(owner);
    expect(await isAdmin(personal)).toBe(true);
    expect((await personal.get('/api/users')).status).toBe(200);
  });
});

describe('sign out everywhere', () => {
  it('mine=1 ends every session of the signed-in user, this one included', async () => {
    const u = await t.user();
    const [a, b, c] = [await t.signedIn(u), await t.signedIn(u), await t.signedIn(u)];
    const other = await t.signedIn(await t.user());
    const res = await a.del('/api/sessions?mine=1');
    expect([res.status, res.body]).toEqual([200, { ok: true, count: 3 }]);
    expect(a.sid).toBeUndefined();
    for (const x of [a, b, c]) expect((await x.get('/api/oauth/me')).body.user).toBeNull();
    expect((await other.get('/api/oauth/me')).body.user).not.toBeNull();
  });

  it('needs a signed-in user (401 Not logged in); the administrator by password alone has no sessions of their own', async () => {
    expect((await t.client().del('/api/sessions?mine=1')).body).toEqual({
      error: 'Not logged in',
      code: 'not_logged_in',
    });
    expect((await admin.del('/api/sessions?mine=1')).status).toBe(401);
    expect((await (await t.signedIn(await t.user())).del('/api/sessions')).status).toBe(400);
  });

  it('user_id=N lets an administrator end any user’s sessions, in the audit log; others get 401', async () => {
    const u = await t.user();
    const [a, b] = [await t.signedIn(u), await t.signedIn(u)];
    for (const c of [t.client(), a, await t.signedIn(await t.user({}, { mod: true }))]) {
      expect((await c.del(`/api/sessions?user_id=${u.id}`)).status).toBe(401);
    }
    expect((await admin.del(`/api/sessions?user_id=${u.id}`)).body).toEqual({ ok: true, count: 2 });
    for (const x of [a, b]) expect((await x.get('/api/oauth/me')).body.user).toBeNull();
    expect((await admin.del('/api/sessions?user_id=99999999')).body.code).toBe('user_not_found');
    expect((await admin.del('/api/sessions?user_id=x')).body.code).toBe('missing_id');
    const entry = (await admin.get('/api/audit')).body.find((e: any) => e.action === 'user.sessions');
    expect(entry).toMatchObject({ target_id: u.id, params: { login: u.login, count: 2 } });
  });

  it('a personal administrator signed out everywhere is no administrator anywhere', async () => {
    const u = await t.user({ login: `boss_${randomBytes(2).toString('hex')}` });
    await admin.put(`/api/users?id=${u.id}`, { is_admin: true });
    const c = await t.signedIn(u);
    expect(await isAdmin(c)).toBe(true);
    await admin.del(`/api/sessions?user_id=${u.id}`);
    expect(await isAdmin(c)).toBe(false);
  });
});
