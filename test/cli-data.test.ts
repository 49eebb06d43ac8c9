import { spawn, spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { sqliteDriver } from '../src/db/sqlite-driver.ts';
import { answers, app, database, dir, env, migratedDatabase, TOOL, tool } from './helpers/cli.ts';
import { dbKind, type TestDatabase } from './helpers/database.ts';
import { commentRow, streamerRow } from './helpers/rows.ts';

/** A database `demo` filled and its export, made once for the tests that only read them. */
const demo = { d: null as unknown as TestDatabase, file: join(dir, 'demo.json') };
beforeAll(async () => {
  demo.d = await database();
  expect((await tool(demo.d, ['demo'])).code).toBe(0);
  expect((await tool(demo.d, ['export', demo.file])).code).toBe(0);
});
const demoData = () => JSON.parse(readFileSync(demo.file, 'utf8'));

/**
 * A database whose export is several times what a pipe or a 64 KiB file size limit holds: 400
 * long comments, written straight to it once (posted one by one, they took a third of the file).
 */
let talkative: Promise<TestDatabase> | undefined;
const talkativeDatabase = () =>
  (talkative ??= (async () => {
    const d = await migratedDatabase();
    const at = new Date().toISOString();
    const { id } = await d.db
      .insertInto('streamers')
      .values(streamerRow('Talkative', at))
      .returning('id')
      .executeTakeFirstOrThrow();
    const rows = Array.from({ length: 400 }, (_, i) => commentRow(id, `${i} ${'long '.repeat(190)}`, at));
    await d.db.insertInto('comments').values(rows).execute();
    return d;
  })());

// Each test runs the tool as a process, several times; a busy machine needs the time.
describe('streamer-rating export, import and backup', { timeout: 120_000 }, () => {
  it('export then import into an empty database reproduces every API answer', async () => {
    const source = await database();
    const a = await app(source);
    await tool(source, ['demo']);
    const admin = await a.admin();
    const u = await a.user({ login: 'exported' });
    const member = await a.signedIn(u);
    const team = (await admin.get('/api/rater_groups')).body[0];
    await admin.post('/api/rater_groups?members=1', { group_id: team.id, login: 'exported' });
    await member.put('/api/community_ratings', { group_id: team.id, r: { s: 4, g: 5 } });
    await admin.put('/api/settings', { auth_enabled: true });
    await a.client().post('/api/streamers', { name: 'Suggested Later', submitter: 'x' });

    const before = await answers(a);

    const file = join(dir, 'export.json');
    expect((await tool(source, ['export', file])).code).toBe(0);
    const exported = readFileSync(file, 'utf8');
    expect(exported).not.toMatch(/admin_password_hash|session_secret|"sessions"/);

    const target = await database();
    const imp = await tool(target, ['import', file]);
    expect(imp.code, imp.err).toBe(0);
    const b = await app(target);
    expect(await answers(b)).toEqual(before);
    // ids continue after the imported ones
    const created = await (await b.admin()).post('/api/streamers?admin=1', { name: 'After Import' });
    expect(created.status).toBe(201);
    expect(created.body.id).toBeGreaterThan(Math.max(...(before.full as any[]).map((s) => s.id)));
  });

  it('import refuses a non-empty database unless --force, and rejects a foreign file', async () => {
    const d = await database();
    expect((await tool(d, ['import', demo.file])).code).toBe(0);
    const refused = await tool(d, ['import', demo.file]);
    expect(refused.code).toBe(1);
    expect(refused.err).toContain('--force');
    expect((await tool(d, ['import', demo.file, '--force'])).code).toBe(0);
    const junk = join(dir, 'junk.json');
    writeFileSync(junk, '{"hello": 1}');
    const bad = await tool(d, ['import', junk, '--force']);
    expect(bad.code).toBe(1);
    expect(bad.err).toContain('not a streamer-rating-export');
  });

  it('import loads an export from an older version, without the columns added since', async () => {
    const before = await answers(await app(demo.d));
    // As a version before migrations 003 and 004 wrote it: no folded login keys, no hiding.
    const data = demoData();
    const added: Record<string, string[]> = {
      users: ['login_key', 'display_key'],
      comments: ['hidden', 'hidden_by', 'edited_at'],
    };
    for (const [table, columns] of Object.entries(added)) {
      for (const row of data.tables[table]) {
        for (const column of columns) {
          expect(row, `${table}.${column}`).toHaveProperty(column);
          delete row[column];
        }
      }
    }
    const old = join(dir, 'old.json');
    writeFileSync(old, JSON.stringify(data));

    const target = await database();
    const imp = await tool(target, ['import', old]);
    expect(imp.code, imp.err).toBe(0);
    expect(await answers(await app(target))).toEqual(before);
    // The folded keys are made again: users are found by login and by name, in any case.
    expect((await tool(target, ['users', 'list', 'KICKKAREL'])).out).toContain('kick_karel');
    expect((await tool(target, ['users', 'mod', 'provider_b', 'Kick_Karel'])).code).toBe(0);
  });

  it('import loads streamers and teams whose names fold alike (a file from before migrations 045 and 047): the oldest holds the name', async () => {
    const file = join(dir, 'alike.json');
    const data = demoData();
    const [first, second] = [...data.tables.streamers].sort((a, b) => a.id - b.id);
    second.name = `${first.name}.`;
    for (const row of data.tables.streamers) delete row.name_fold;
    const team = data.tables.rater_groups[0];
    data.tables.rater_groups.push({
      ...team,
      id: team.id + 1,
      name: team.name.toUpperCase(),
      streamer_id: null,
    });
    for (const row of data.tables.rater_groups) delete row.name_fold;
    writeFileSync(file, JSON.stringify(data));

    const target = await database();
    const imp = await tool(target, ['import', file]);
    expect(imp.code, imp.err).toBe(0);
    const admin = await (await app(target)).admin();
    const names = ((await admin.get('/api/streamers?all=1')).body as { name: string }[]).map((s) => s.name);
    expect(names).toEqual(expect.arrayContaining([first.name, second.name]));
    const again = await admin.post('/api/streamers?admin=1', { name: `${first.name}!` });
    expect(again.body.code).toBe('streamer_exists');
    const teams = ((await admin.get('/api/rater_groups')).body as { name: string }[]).map((g) => g.name);
    expect(teams).toEqual(expect.arrayContaining([team.name, team.name.toUpperCase()]));
    expect((await admin.post('/api/rater_groups', { name: `${team.name}.` })).body.code).toBe(
      'group_name_exists',
    );
  });

  it('import loads a guest blocked twice (a file from before migration 048): the block that ends last (stop 96)', async () => {
    const file = join(dir, 'blocked-twice.json');
    const data = demoData();
    const block = { guest_tag: 'f'.repeat(64), created_at: '2026-01-01T00:00:00.000Z', created_by: 'admin' };
    data.tables.address_blocks = [
      { ...block, id: 1, expires_at: '2999-03-01T00:00:00.000Z' },
      { ...block, id: 2, expires_at: '2999-02-01T00:00:00.000Z' },
    ];
    writeFileSync(file, JSON.stringify(data));
    const target = await database();
    const imp = await tool(target, ['import', file]);
    expect(imp.code, imp.err).toBe(0);
    const admin = await (await app(target)).admin();
    const blocks = (await admin.get('/api/moderation/blocks')).body as { id: number; expires_at: string }[];
    expect(blocks.map((b) => [b.id, b.expires_at])).toEqual([[1, '2999-03-01T00:00:00.000Z']]);
  });

  it("import makes the notifications' shown flag again (a file from before migration 018)", async () => {
    const source = await database();
    await tool(source, ['demo']);
    const a = await app(source);
    const [x, y] = [await a.user({ login: 'asked' }), await a.user({ login: 'answered' })];
    const [xc, yc] = [await a.signedIn(x), await a.signedIn(y)];
    const sid = (await a.client().get('/api/streamers')).body[0].id;
    const post = async (c: typeof xc, body: string, extra = {}) =>
      (await c.post('/api/comments', { streamer_id: sid, body, ...extra })).body.id as number;
    const top = await post(xc, 'a question here');
    const kept = await post(yc, 'an answer', { reply_to: top });
    const hidden = await post(yc, 'another answer', { reply_to: top });
    await (await a.admin()).put(`/api/comments?id=${hidden}`, { hidden: true });
    const before = (await xc.get('/api/notifications')).body;
    expect(before).toMatchObject({ unread: 1, items: [{ kind: 'reply', comment_id: kept }] });
    const file = join(dir, 'shown.json');
    expect((await tool(source, ['export', file])).code).toBe(0);
    const data = JSON.parse(readFileSync(file, 'utf8'));
    for (const row of data.tables.notifications) delete row.shown;
    writeFileSync(file, JSON.stringify(data));

    const target = await database();
    const imp = await tool(target, ['import', file]);
    expect(imp.code, imp.err).toBe(0);
    const b = await app(target);
    expect((await (await b.signedIn(x)).get('/api/notifications')).body).toEqual(before);
  });

  it('import refuses a file with a column the database has not, and changes nothing', async () => {
    const file = join(dir, 'newer.json');
    const data = demoData();
    data.tables.streamers[0].from_the_future = 1;
    writeFileSync(file, JSON.stringify(data));
    const r = await tool(demo.d, ['import', '--force', file]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('"streamers" rows have a column "from_the_future"');
    const a = await app(demo.d);
    expect((await a.client().get('/api/streamers')).body.length).toBeGreaterThanOrEqual(5);
  });

  it("an export file is the service user's alone (0600, as a backup); an export read only in part ends quietly", async () => {
    const d = await talkativeDatabase();
    const file = join(dir, 'private.json');
    writeFileSync(file, 'an older file, once readable by all', { mode: 0o644 });
    expect((await tool(d, ['export', file])).code).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);

    // Several times what a pipe holds (64 KiB): the tool is still writing when the reader stops.
    expect(statSync(file).size).toBeGreaterThan(4 * 64 * 1024);
    const child = spawn(process.execPath, [...TOOL, 'export', '-'], { env: env(d) });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => (err += chunk.toString()));
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect([code, err]).toEqual([0, '']);
  });

  it("an export that runs out of room keeps yesterday's under its name, and says so (an operator's bad day)", async () => {
    const d = await talkativeDatabase();
    const file = join(dir, 'nightly.json');
    expect((await tool(d, ['export', file])).code).toBe(0);
    const before = readFileSync(file, 'utf8');
    expect(before.length).toBeGreaterThan(100 * 1024);
    // A file size limit (ulimit -f, KiB) stands for a full disk or a quota: a write past 64 KiB
    // fails (EFBIG), after SQLite opened its files (its index to the log takes 32 KiB).
    const r = spawnSync(
      'bash',
      ['-c', 'ulimit -f 64 && exec "$0" "$@"', process.execPath, ...TOOL, 'export', file],
      {
        env: { ...env(d), TSX_DISABLE_CACHE: '1' },
        encoding: 'utf8',
      },
    );
    expect([r.status, r.stderr]).toEqual([
      1,
      `Error: cannot write ${file}: no room left on its disk (or over its size limit); nothing was replaced\n`,
    ]);
    expect(readFileSync(file, 'utf8')).toBe(before);
    expect(readdirSync(dir).filter((name) => name.endsWith('.partial'))).toEqual([]);
  });

  it.runIf(dbKind === 'postgres')('backup on PostgreSQL points to pg_dump', async () => {
    const r = await tool(demo.d, ['backup', join(dir, 'pg.db')]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('pg_dump');
  });

  it.runIf(dbKind === 'sqlite')(
    'backup of a SQLite database while the service writes gives a consistent copy',
    async () => {
      const d = await database();
      const a = await app(d);
      const sid = await a.streamer('Busy');
      let writing = true;
      let written = 0;
      // The copy starts once a few comments are in, however fast the machine writes them.
      let underWay = () => {};
      const writesUnderWay = new Promise<void>((resolve) => (underWay = resolve));
      const writer = (async () => {
        const c = a.client();
        while (writing) {
          const r = await c.post('/api/comments', { streamer_id: sid, body: `write ${written}` });
          if (r.status === 201 && ++written === 5) underWay();
        }
      })();
      await writesUnderWay;
      const file = join(dir, 'backup.db');
      const child = spawn(process.execPath, [...TOOL, 'backup', file], {
        env: env(d),
      });
      const code = await new Promise((resolve) => child.on('close', resolve));
      writing = false;
      await writer;
      expect(code).toBe(0);
      const copy = new (sqliteDriver())(file, { readonly: true });
      try {
        expect(copy.pragma('integrity_check', { simple: true })).toBe('ok');
        const n = (copy.prepare('select count(*) as n from comments').get() as { n: number }).n;
        expect(n).toBeGreaterThan(0);
        expect(n).toBeLessThanOrEqual(written);
        expect(copy.prepare('select name from streamers').all()).toEqual([{ name: 'Busy' }]);
      } finally {
        copy.close();
      }
    },
  );
});
