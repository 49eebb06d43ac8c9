import { describe, expect, it } from 'vitest';
import { DAY } from '../src/lib/clock.ts';
import { ADMIN_PASSWORD, countRows, startApp, useApp } from './helpers/app.ts';
import { reopen } from './helpers/database.ts';

const t = await useApp();

describe('session cookie', () => {
  it('is HttpOnly, SameSite=Lax, Path=/, without Domain or Secure on http, and carries 256 random bits', async () => {
    const res = await t.client().post('/api/auth/login', { password: ADMIN_PASSWORD });
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^sid=[A-Za-z0-9_-]{43};/);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    expect(cookie).toContain('Path=/');
    expect(cookie).not.toMatch(/domain=/i);
    expect(cookie).not.toMatch(/secure/i);
  });

  it('is Secure when the request came over https (X-Forwarded-Proto)', async () => {
    const res = await t
      .client({ 'x-forwarded-proto': 'https' })
      .post('/api/auth/login', { password: ADMIN_PASSWORD });
    expect(res.headers.get('set-cookie')).toContain('Secure');
  });

  it('is named __Host-sid and Secure when BASE_URL is https, with HSTS on every answer', async () => {
    const app = await startApp({ BASE_URL: 'https://rating.example' });
    try {
      const c = app.client({ origin: 'https://rating.example' });
      const res = await c.post('/api/auth/login', { password: ADMIN_PASSWORD });
      const cookie = res.headers.get('set-cookie') ?? '';
      expect(cookie).toMatch(/^__Host-sid=[A-Za-z0-9_-]{43};/);
      for (const attribute of ['Path=/', 'HttpOnly', 'SameSite=Lax', 'Secure']) {
        expect(cookie.split('; ')).toContain(attribute);
      }
      expect(cookie).not.toMatch(/Domain=/i);
      expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
      expect((await c.get('/api/auth/check')).body).toEqual({ admin: true });
      expect((await app.client().get('/nope')).headers.get('strict-transport-security')).toBeTruthy();
    } finally {
      await app.close();
    }
  });

  it('ids are unique: 50 logins give 50 different ids', async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const c = t.client();
      await c.post('/api/auth/login', { password: ADMIN_PASSWORD });
      ids.add(c.sid!);
    }
    expect(ids.size).toBe(50);
  });

  it('the database holds a keyed hash of the id, never the cookie value', async () => {
    const c = await t.admin();
    const rows = await t.db.selectFrom('sessions').select('id').execute();
    expect(rows.some((r) => r.id === c.sid)).toBe(false);
  });

  it('a forged or malformed cookie is just anonymous', async () => {
    for (const sid of ['x', 'A'.repeat(43), "'; drop table sessions; --"]) {
      const c = t.client();
      c.cookies.set('sid', sid);
      const res = await c.get('/api/auth/check');
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ admin: false });
    }
  });
});

describe('anonymous traffic', () => {
  it('1,000 anonymous requests create no session rows and set no cookie', async () => {
    const sid = await t.streamer();
    const before = await countRows(t.db, 'sessions');
    const c = t.client();
    for (let i = 0; i < 250; i++) {
      const answers = await Promise.all([
        c.get('/api/streamers'),
        c.get(`/api/comments?streamer_id=${sid}`),
        c.get('/api/auth/check'),
        c.post('/api/auth/logout'),
      ]);
      for (const a of answers) expect(a.headers.get('set-cookie')).toBeNull();
    }
    expect(await countRows(t.db, 'sessions')).toBe(before);
  });
});

describe('timeouts (server-side, with a controllable clock)', () => {
  it('a session idle for more than 14 days is gone', async () => {
    const user = await t.user();
    const c = await t.signedIn(user);
    expect((await c.get('/api/rater_groups?my=1')).status).toBe(200);
    t.clock.advance(14 * DAY + 60_000);
    try {
      expect((await c.get('/api/rater_groups?my=1')).status).toBe(401);
    } finally {
      t.clock.offset = 0;
    }
  });

  it('activity keeps a session alive past 14 days, but not past 30 days from its start', async () => {
    const user = await t.user();
    const c = await t.signedIn(user);
    try {
      for (let day = 10; day < 30; day += 10) {
        t.clock.advance(10 * DAY);
        expect((await c.get('/api/rater_groups?my=1')).status).toBe(200);
      }
      t.clock.advance(9 * DAY);
      expect((await c.get('/api/rater_groups?my=1')).status).toBe(200); // day 29
      t.clock.advance(1 * DAY + 60_000);
      expect((await c.get('/api/rater_groups?my=1')).status).toBe(401); // day 30+
    } finally {
      t.clock.offset = 0;
    }
  });
});

describe('several instances', () => {
  it('share sessions through the database: a login on one is valid on the other', async () => {
    const second = await startApp({}, { database: t.database });
    try {
      const c = await t.admin();
      const other = second.client();
      other.cookies = new Map(c.cookies);
      expect((await other.get('/api/auth/check')).body).toEqual({ admin: true });
      await other.post('/api/auth/logout');
      expect((await c.get('/api/auth/check')).body).toEqual({ admin: false });
    } finally {
      await second.close();
    }
  });

  it('a logout through another connection ends the session here within a second (sessions are cached in memory)', async () => {
    const database = reopen(t.database);
    const second = await startApp({}, { database });
    try {
      const c = await t.admin();
      expect((await c.get('/api/auth/check')).body).toEqual({ admin: true });
      const other = second.client();
      other.cookies = new Map(c.cookies);
      await other.post('/api/auth/logout');
      // The logout reaches this instance through the data_version poll (twice a second) or
      // NOTIFY; waited for generously, so that a busy machine's pauses do not fail the test.
      await expect
        .poll(async () => ((await c.get('/api/auth/check')).body as { admin: boolean }).admin, {
          timeout: 30_000,
          interval: 25,
        })
        .toBe(false);
    } finally {
      await second.close();
      await database.cleanup();
    }
  });
});
