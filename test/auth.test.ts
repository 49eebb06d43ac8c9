import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import { generateAdminPasswordIfNone, storeAdminHash, storedAdminHash } from '../src/auth/admin-password.ts';
import { hashPassword, verifyPassword } from '../src/auth/passwords.ts';
import { parseConfig } from '../src/config/config.ts';
import { HOUR } from '../src/lib/clock.ts';
import { ADMIN_PASSWORD, countRows, startApp, type TestApp, useApp } from './helpers/app.ts';
import type { Answer } from './helpers/client.ts';
import { createTestDatabase } from './helpers/database.ts';
import { migrateToLatest } from '../src/db/migrator.ts';
import { fullDisk } from './helpers/full-disk.ts';
import { sql } from 'kysely';

const t = await useApp();

/** SPEC.md: a failed administrator login is answered after 1 second. */
const FAILED_LOGIN_DELAY_MS = 1000;

/**
 * Sends a login that must fail with the app's clock holding its sleeps, and expects the
 * answer to wait for the failed-login delay on that clock: the delay is asked for before
 * any answer, nothing is answered while it lasts (other requests come and go meanwhile),
 * and the answer follows once the clock has moved by it. No real time passes.
 */
async function afterTheDelay(app: TestApp, send: () => Promise<Answer>): Promise<Answer> {
  app.clock.holdSleeps = true;
  const sleptBefore = app.clock.sleeps.length;
  try {
    const asked = app.clock.nextSleep();
    let answered = false;
    const answer = send().then((res) => ((answered = true), res));
    const first = await Promise.race([asked, answer.then((res) => `answered ${res.status} at once`)]);
    expect(first).toBe(FAILED_LOGIN_DELAY_MS);
    await app.client().get('/api/auth/check');
    expect(answered, 'answered before the delay was over').toBe(false);
    app.clock.advance(FAILED_LOGIN_DELAY_MS);
    const res = await answer;
    expect(app.clock.sleeps.slice(sleptBefore)).toEqual([FAILED_LOGIN_DELAY_MS]);
    return res;
  } finally {
    app.clock.holdSleeps = false;
  }
}

describe('administrator authentication', () => {
  it('check answers admin false for a visitor and true after login', async () => {
    const c = t.client();
    expect((await c.get('/api/auth/check')).body).toEqual({ admin: false });
    expect((await c.post('/api/auth/login', { password: ADMIN_PASSWORD })).body).toEqual({ ok: true });
    expect((await c.get('/api/auth/check')).body).toEqual({ admin: true });
  });

  it('the ?action= form is the same operation as the pretty path', async () => {
    const c = t.client();
    expect((await c.get('/api/auth?action=check')).body).toEqual({ admin: false });
    const login = await c.post('/api/auth?action=login', { password: ADMIN_PASSWORD });
    expect(login.status).toBe(200);
    expect((await c.get('/api/auth?action=check')).body).toEqual({ admin: true });
    expect((await c.post('/api/auth?action=logout')).body).toEqual({ ok: true });
    expect((await c.get('/api/auth?action=check')).body).toEqual({ admin: false });
  });

  it.each([
    ['GET', '/api/auth/login'],
    ['GET', '/api/auth/logout'],
    ['POST', '/api/auth/check'],
    ['GET', '/api/auth?action=login'],
    ['POST', '/api/auth?action=check'],
    ['GET', '/api/auth?action=nope'],
    ['POST', '/api/auth'],
    ['DELETE', '/api/auth/login'],
    ['GET', '/api/auth/other'],
  ])('%s %s is 404 Not found', async (method, path) => {
    const res = await t.client().request(method, path);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: 'Not found', code: 'not_found' });
  });

  it('an empty or missing password is 400 Password required', async () => {
    for (const body of [{ password: '' }, {}, { password: null }]) {
      const res = await t.client().post('/api/auth/login', body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Password required', code: 'password_required' });
    }
  });

  it('a wrong password is 401 Invalid password after a 1-second delay', async () => {
    const c = t.client();
    const res = await afterTheDelay(t, () => c.post('/api/auth/login', { password: 'wrong' }));
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Invalid password', code: 'invalid_password' });
    expect((await c.get('/api/auth/check')).body).toEqual({ admin: false });
  });

  it('a refused and an accepted password are said in the log with the guest tag, never the address (stop 96)', async () => {
    const said = (msg: string) =>
      t.logs.filter((l) => l.includes(msg)).map((l) => JSON.parse(l) as Record<string, unknown>);
    const [refused, accepted] = [said('administrator password refused'), said('administrator signed in')];
    const c = t.client();
    await afterTheDelay(t, () => c.post('/api/auth/login', { password: 'wrong' }));
    expect((await c.post('/api/auth/login', { password: ADMIN_PASSWORD })).status).toBe(200);
    const refusedNow = said('administrator password refused').slice(refused.length);
    const acceptedNow = said('administrator signed in').slice(accepted.length);
    expect([refusedNow.length, acceptedNow.length]).toEqual([1, 1]);
    for (const line of [...refusedNow, ...acceptedNow]) {
      expect(line.guest_tag).toMatch(/^[0-9a-f]{10}$/);
      expect(JSON.stringify(line)).not.toContain('127.0.0.1');
      expect(JSON.stringify(line)).not.toContain(ADMIN_PASSWORD);
    }
    expect(refusedNow[0]!.level).toBe(40);
  });

  it("a login whose session finds no room (a full disk) answers 503 and is not said as signed in (an operator's bad day)", async () => {
    const said = () => t.logs.filter((l) => l.includes('administrator signed in')).length;
    const before = said();
    const login = () => t.client().post('/api/auth/login', { password: ADMIN_PASSWORD });
    const refused = t.database.sqlite
      ? await new Promise<Answer>((resolve, reject) => {
          fullDisk(t.database.sqlite!, async () => resolve(await login())).catch(reject);
        })
      : await (async () => {
          // PostgreSQL's own disk-full error (53100) on the session's row.
          await sql`create function sessions_full() returns trigger language plpgsql as
            $$ begin raise exception 'could not extend file' using errcode = 'disk_full'; end $$`.execute(
            t.db,
          );
          await sql`create trigger sessions_full before insert on sessions execute function sessions_full()`.execute(
            t.db,
          );
          try {
            return await login();
          } finally {
            await sql`drop trigger sessions_full on sessions`.execute(t.db);
            await sql`drop function sessions_full()`.execute(t.db);
          }
        })();
    expect([refused.status, refused.headers.get('set-cookie')]).toEqual([503, null]);
    expect(said()).toBe(before);
    expect((await login()).status).toBe(200);
    expect(said()).toBe(before + 1);
  });

  it('every failure looks the same: the same answer after the same delay (form, ?action=, no or a broken stored hash)', async () => {
    const invalid = { error: 'Invalid password', code: 'invalid_password' };
    const form = await afterTheDelay(t, () =>
      t.client().request('POST', '/api/auth/login', { form: { password: 'wrong' } }),
    );
    const action = await afterTheDelay(t, () =>
      t.client().post('/api/auth?action=login', { password: 'wrong' }),
    );
    for (const res of [form, action]) expect([res.status, res.body]).toEqual([401, invalid]);

    const database = await createTestDatabase();
    try {
      await migrateToLatest(database.db);
      const app = await startApp({ ADMIN_PASSWORD: '' }, { database });
      try {
        const none = await afterTheDelay(app, () =>
          app.client().post('/api/auth/login', { password: 'any' }),
        );
        await storeAdminHash(database.db, 'not a hash');
        const broken = await afterTheDelay(app, () =>
          app.client().post('/api/auth/login', { password: 'not a hash' }),
        );
        for (const res of [none, broken]) expect([res.status, res.body]).toEqual([401, invalid]);
      } finally {
        await app.close();
      }
    } finally {
      await database.cleanup();
    }
  });

  it('a form-encoded login works like JSON', async () => {
    const c = t.client();
    const res = await c.request('POST', '/api/auth/login', { form: { password: ADMIN_PASSWORD } });
    expect(res.status).toBe(200);
    expect((await c.get('/api/auth/check')).body).toEqual({ admin: true });
  });

  it('login issues a new session id and the old id stops working', async () => {
    const user = await t.user();
    const c = await t.signedIn(user);
    const before = c.sid;
    await c.post('/api/auth/login', { password: ADMIN_PASSWORD });
    expect(c.sid).toBeDefined();
    expect(c.sid).not.toBe(before);
    // the session keeps its signed-in user
    expect((await c.get('/api/rater_groups?my=1')).status).toBe(200);
    const stale = t.client();
    stale.cookies.set('sid', before!);
    expect((await stale.get('/api/rater_groups?my=1')).status).toBe(401);
  });

  it('logout clears only the administrator flag', async () => {
    const user = await t.user();
    const c = await t.signedIn(user);
    await c.post('/api/auth/login', { password: ADMIN_PASSWORD });
    expect((await c.post('/api/auth/logout')).body).toEqual({ ok: true });
    expect((await c.get('/api/auth/check')).body).toEqual({ admin: false });
    expect((await c.get('/api/rater_groups?my=1')).status).toBe(200);
  });

  it('logout of a session with nothing else in it deletes the session row', async () => {
    const c = await t.admin();
    const rows = await countRows(t.db, 'sessions');
    await c.post('/api/auth/logout');
    expect(await countRows(t.db, 'sessions')).toBe(rows - 1);
    expect(c.sid).toBeUndefined();
  });

  it('the administrator flag lapses 12 hours after login', async () => {
    const c = await t.admin();
    t.clock.advance(11 * HOUR);
    expect((await c.get('/api/auth/check')).body).toEqual({ admin: true });
    t.clock.advance(1 * HOUR + 1000);
    expect((await c.get('/api/auth/check')).body).toEqual({ admin: false });
    expect((await c.del('/api/streamers?id=1')).status).toBe(401);
    t.clock.offset = 0;
  });
});

describe('administrator password sources', () => {
  it('hashes are argon2id with m>=19 MiB, t>=2, p=1 and keep long passwords whole', async () => {
    const long = 'x'.repeat(80);
    const hash = await hashPassword(long);
    const m = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(hash);
    expect(m).not.toBeNull();
    expect(Number(m![1])).toBeGreaterThanOrEqual(19_456);
    expect(Number(m![2])).toBeGreaterThanOrEqual(2);
    expect(Number(m![3])).toBe(1);
    expect(await verifyPassword(hash, long)).toBe(true);
    expect(await verifyPassword(hash, 'x'.repeat(79))).toBe(false);
    expect(await verifyPassword(hash, 'x'.repeat(81))).toBe(false);
  });

  it('a bcrypt $2y$ hash from a PHP deployment logs in through ADMIN_PASSWORD_HASH', async () => {
    const php = bcrypt.hashSync('php-secret', 4).replace(/^\$2b\$/, '$2y$');
    const app = await startApp({ ADMIN_PASSWORD: '', ADMIN_PASSWORD_HASH: php });
    try {
      const c = app.client();
      expect((await c.post('/api/auth/login', { password: 'php-secret' })).status).toBe(200);
      const nope = await afterTheDelay(app, () => app.client().post('/api/auth/login', { password: 'nope' }));
      expect(nope.status).toBe(401);
    } finally {
      await app.close();
    }
  });

  it('$2a$ and $2b$ hashes verify too', async () => {
    for (const prefix of ['$2a$', '$2b$']) {
      const hash = bcrypt.hashSync('pw', 4).replace(/^\$2.\$/, prefix);
      expect(await verifyPassword(hash, 'pw')).toBe(true);
    }
  });

  it('the first start generates a password once, stores its hash and it logs in', async () => {
    const database = await createTestDatabase();
    try {
      await migrateToLatest(database.db);
      const config = parseConfig({ DATABASE_URL: database.url });
      const password = await generateAdminPasswordIfNone(database.db, config);
      expect(password).toMatch(/^[A-Za-z0-9_-]{20}$/);
      expect(await generateAdminPasswordIfNone(database.db, config)).toBeNull();
      const hash = await storedAdminHash(database.db);
      expect(hash).toMatch(/^\$argon2id\$/);
      expect(await verifyPassword(hash!, password!)).toBe(true);

      const app = await startApp({ ADMIN_PASSWORD: '' }, { database });
      try {
        expect((await app.client().post('/api/auth/login', { password })).status).toBe(200);
      } finally {
        await app.close();
      }
    } finally {
      await database.cleanup();
    }
  });

  it('ADMIN_PASSWORD wins over a hash stored in the database', async () => {
    const database = await createTestDatabase();
    try {
      await migrateToLatest(database.db);
      await generateAdminPasswordIfNone(database.db, parseConfig({ DATABASE_URL: database.url }));
      const app = await startApp({ ADMIN_PASSWORD: 'from-env' }, { database });
      try {
        expect((await app.client().post('/api/auth/login', { password: 'from-env' })).status).toBe(200);
      } finally {
        await app.close();
      }
    } finally {
      await database.cleanup();
    }
  });
});

describe('failed-login throttling', () => {
  it('more than 10 logins a minute from one address get 429 with Retry-After', async () => {
    const app = await startApp({ RATE_LIMIT: 'on' });
    try {
      const c = app.client();
      const results = await Promise.all(
        Array.from({ length: 11 }, () => c.post('/api/auth/login', { password: '' })),
      );
      expect(results.filter((r) => r.status === 400)).toHaveLength(10);
      const limited = results.find((r) => r.status === 429)!;
      expect(limited.body).toEqual({ error: 'Too many requests', code: 'too_many_requests' });
      expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
      app.clock.advance(61_000);
      expect((await c.post('/api/auth/login', { password: '' })).status).toBe(400);
    } finally {
      await app.close();
    }
  });
});
