import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LAZY_MODULES } from '../src/lib/lazy-modules.ts';
import { PLAIN_PAGES } from '../src/shared/pages.ts';
import { createPostgres, createSqlite } from './soak/lib/database.ts';
import { adminBrowser, createStreamer, expectStatus } from './soak/lib/http.ts';
import { entry, ROOT, Service } from './helpers/service.ts';

/**
 * The writers of mail, push, calendars and feeds (src/lib/lazy-modules.ts) load at their first
 * use: the bundle leaves them out, and a service without e-mail that serves its pages never
 * loads them, not even web-push at its first start (its VAPID key pair is made by Node.js's own
 * crypto, lib/p256.ts). Nor does it load Node.js's fetch client, undici (src/lib/node-http.ts): not by an ES import of node:http
 * (Node.js 24), not by the page's API client made on the server (any Node.js).
 */

// At exit, the lazy modules this process loaded (each module's files are in require's cache).
const REPORT = `data:text/javascript,${encodeURIComponent(`
import { createRequire } from 'node:module';
const require = createRequire(${JSON.stringify(join(ROOT, 'package.json'))});
process.on('exit', () => {
  const names = ${JSON.stringify(LAZY_MODULES)}.filter((n) =>
    Object.keys(require.cache).some((f) => f.includes('/node_modules/' + n + '/')));
  process.stderr.write('LAZY LOADED [' + names.join(',') + ']\\n');
  // The built-in modules Node.js loaded, by name (its own tests read the same list).
  const undici = process.moduleLoadList.some((m) => m.endsWith('internal/deps/undici/undici'));
  process.stderr.write('FETCH CLIENT LOADED ' + undici + '\\n');
  const sqlite = Object.keys(require.cache).some((f) => f.includes('/node_modules/better-sqlite3'));
  process.stderr.write('SQLITE DRIVER LOADED ' + sqlite + '\\n');
});`)}`;

// At exit, Intl's constructors the process called (each loads ICU's code and data for good).
const ICU = `data:text/javascript,${encodeURIComponent(`
const used = new Set();
for (const name of ['DateTimeFormat', 'NumberFormat', 'Collator', 'PluralRules', 'RelativeTimeFormat', 'ListFormat']) {
  const made = Intl[name];
  Intl[name] = new Proxy(made, {
    construct: (target, args, newTarget) => (used.add(name), Reflect.construct(target, args, newTarget)),
    apply: (target, self, args) => (used.add(name), Reflect.apply(target, self, args)),
  });
}
process.on('exit', () => process.stderr.write('ICU FORMATS [' + [...used].join(',') + ']\\n'));`)}`;

let service: Service | undefined;
afterAll(async () => {
  await service?.stop();
});

describe('what only some services need', () => {
  it.runIf(entry === 'dist')('is not in the bundle', () => {
    const bundle = readFileSync(join(ROOT, 'dist/src/main.js'), 'utf8');
    for (const name of LAZY_MODULES) expect(bundle, name).not.toContain(`node_modules/${name}/`);
  });

  it('is not loaded by a service without e-mail that serves its pages', async () => {
    // The first start makes the VAPID key pair (lib/p256.ts) and keeps it; the next one reads it.
    const database = createSqlite();
    const start = () =>
      Service.start({ databaseUrl: database.url, from: entry, nodeArgs: ['--import', REPORT] });
    service = await start();
    await service.stop();
    expect(service.grep(/LAZY LOADED/)).toEqual(['LAZY LOADED []']);
    service = await start();
    for (const path of ['/', '/api/streamers', '/healthz'])
      expect((await fetch(service.url + path)).status).toBe(200);
    await service.stop();
    expect(service.grep(/LAZY LOADED/)).toEqual(['LAZY LOADED []']);
    expect(service.grep(/FETCH CLIENT LOADED/)).toEqual(['FETCH CLIENT LOADED false']);
  }, 60_000);

  it.runIf(process.env.TEST_DATABASE_URL)(
    "a service on PostgreSQL never loads SQLite's driver (stop 96: one missing for its Node.js stopped it)",
    async () => {
      const database = await createPostgres();
      service = await Service.start({
        databaseUrl: database.url,
        from: entry,
        nodeArgs: ['--import', REPORT],
      });
      expect((await fetch(service.url + '/api/streamers')).status).toBe(200);
      await service.stop();
      expect(service.grep(/SQLITE DRIVER LOADED/)).toEqual(['SQLITE DRIVER LOADED false']);
      await database.cleanup();
    },
    60_000,
  );

  it('a service with e-mail on, in a time zone, makes no ICU format (lib/time-zone.ts)', async () => {
    service = await Service.start({
      databaseUrl: createSqlite().url,
      from: entry,
      nodeArgs: ['--import', ICU],
      env: { SMTP_URL: 'smtp://127.0.0.1:9', MAIL_FROM: 'a@example.org', TZ: 'Europe/Prague' },
    });
    for (const path of ['/', '/api/streamers', '/healthz'])
      expect((await fetch(service.url + path)).status).toBe(200);
    await service.stop();
    expect(service.grep(/ICU FORMATS/)).toEqual(['ICU FORMATS []']);
  }, 60_000);

  it("the page's first view, rendered on the server, makes no ICU format (shared/formats.ts)", async () => {
    service = await Service.start({
      databaseUrl: createSqlite().url,
      from: entry,
      nodeArgs: ['--import', ICU],
    });
    // Rated streamers: the ranking writes their counts and scores, a streamer's page its rating's age.
    const admin = await adminBrowser(service.url);
    const ids: number[] = [];
    for (const name of ['Ranked One', 'Ranked Two', 'Ranked Three']) {
      const id = await createStreamer(admin, name);
      const r = { s: 7, g: 8, a: 6, v: 5, n: 9, ns: 4, o: 7 };
      expectStatus(await admin.put(`/api/streamers?id=${id}`, { r, status: 'live' }), 200, 'rating');
      ids.push(id);
    }
    const pages = [...Object.values(PLAIN_PAGES), ...ids.map((id) => `/s/${id}`), '/admin', '/no-such-page'];
    for (const path of pages) {
      const res = await fetch(service.url + path, { headers: { accept: 'text/html' } });
      expect(await res.text(), path).toContain('<div id="app">');
    }
    await service.stop();
    expect(service.grep(/ICU FORMATS/)).toEqual(['ICU FORMATS []']);
  }, 60_000);
});
