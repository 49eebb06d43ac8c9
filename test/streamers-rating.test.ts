import { describe, expect, it } from 'vitest';
import { R, useStreamers } from './helpers/streamers.ts';

const { t, admin, find, rate } = await useStreamers();

describe('PUT /api/streamers rating mode', () => {
  it('administrator: scores clamped to 0..10 (numeric strings count, fractions truncate, junk is 0)', async () => {
    const id = await t.streamer();
    const res = await rate(id, { r: { s: 11, g: -3, a: '7', v: 7.9, n: 'abc', ns: null }, reward: 50 });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true });
    const s = await find(id);
    expect(s.r).toEqual({ s: 10, g: 0, a: 7, v: 7, n: 0, ns: 0, o: 0 });
    expect(s.evaluated).toBe(true);
  });

  it('administrator: reward clamped to 0..130, missing is 0', async () => {
    const id = await t.streamer();
    await rate(id, { r: R(1), reward: 500 });
    expect((await find(id)).reward).toBe(130);
    await rate(id, { r: R(1), reward: -4 });
    expect((await find(id)).reward).toBe(0);
    await rate(id, { r: R(1), reward: '77' });
    expect((await find(id)).reward).toBe(77);
    await rate(id, { r: R(1) });
    expect((await find(id)).reward).toBe(0);
  });

  it('administrator: status live or offline, anything else or missing is offline', async () => {
    const id = await t.streamer();
    await rate(id, { r: R(1), status: 'live' });
    expect((await find(id)).status).toBe('live');
    await rate(id, { r: R(1), status: 'away' });
    expect((await find(id)).status).toBe('offline');
    await rate(id, { r: R(1), status: 'live' });
    await rate(id, { r: R(1) });
    expect((await find(id)).status).toBe('offline');
  });

  it('administrator: game cut to 100, title to 200, notes to 2000, all trimmed; provider_b sanitized', async () => {
    const id = await t.streamer();
    await rate(id, {
      r: R(2),
      game: `  ${'g'.repeat(150)}`,
      title: `${'t'.repeat(250)}  `,
      notes: `  ${'n'.repeat(2500)}`,
      provider_b: ' <i>kick</i>name ',
    });
    const s = await find(id);
    expect(s.game).toBe('g'.repeat(100));
    expect(s.title).toBe('t'.repeat(200));
    expect(s.notes).toBe('n'.repeat(2000));
    expect(s.provider_b).toBe('kickname');
    expect(s.kick_name).toBe('kickname');
    await rate(id, { r: R(2), kick_name: 'other' });
    expect((await find(id)).provider_b).toBe('other');
    await rate(id, { r: R(2) });
    expect(await find(id)).toMatchObject({ game: '', title: '', provider_b: '' });
    expect(await find(id)).not.toHaveProperty('notes');
  });

  it('administrator: fields of any length are cut, not refused; a wrong shape names its field', async () => {
    const id = await t.streamer();
    const res = await rate(id, {
      r: R(3),
      notes: 'n'.repeat(5000),
      game: 'g'.repeat(5000),
      title: '😀'.repeat(5000),
      status: { live: true },
    });
    expect(res.status).toBe(200);
    const s = await find(id);
    expect([s.notes.length, s.game.length, [...s.title].length, s.status]).toEqual([
      2000,
      100,
      200,
      'offline',
    ]);
    expect(s.title).toBe('😀'.repeat(200));
    for (const [body, error] of [
      [{ game: ['x'] }, 'Invalid game'],
      [{ title: {} }, 'Invalid title'],
      [{ notes: [1] }, 'Invalid notes'],
    ] as const) {
      expect((await rate(id, body)).body).toEqual({ error, code: 'invalid_field' });
    }
    expect((await find(id)).game).toBe('g'.repeat(100));
  });

  it('administrator: a name renames (sanitized, unique without regard to case)', async () => {
    const id = await t.streamer('Before Rename');
    await t.streamer('Taken Name');
    expect((await rate(id, { name: '  <b>After</b>  Rename ' })).status).toBe(200);
    expect((await find(id)).name).toBe('After Rename');
    expect((await rate(id, { name: 'taken NAME' })).body).toEqual({
      error: 'Streamer already exists',
      code: 'streamer_exists',
    });
    // A look-alike of another's name is that name (Cyrillic Т and а); of its own, a rename.
    expect((await rate(id, { name: '\u0422\u0430ken Name' })).body).toEqual({
      error: 'Streamer already exists',
      code: 'streamer_exists',
    });
    expect((await rate(id, { name: 'x' })).body).toEqual({
      error: 'Invalid streamer name',
      code: 'invalid_streamer_name',
    });
    expect((await find(id)).name).toBe('After Rename');
    expect((await rate(id, { name: 'After Rename \u2713' })).status).toBe(200);
    expect((await find(id)).name).toBe('After Rename \u2713');
  });

  it('evaluated follows the score sum on every update; a zero sum stores a zero rating', async () => {
    const id = await t.streamer();
    expect((await find(id)).evaluated).toBe(false);
    await rate(id, { r: { o: 1 } });
    expect((await find(id)).evaluated).toBe(true);
    await rate(id, { r: R(0), reward: 90 });
    const s = await find(id);
    expect(s.evaluated).toBe(false);
    expect(s.r).toEqual(R(0));
    expect(
      await t.db.selectFrom('ratings').selectAll().where('streamer_id', '=', id).executeTakeFirst(),
    ).toMatchObject({ s: 0, o: 0 });
    // not evaluated, so not in the public list even though it has a rating
    expect((await t.client().get('/api/streamers')).body.some((x: any) => x.id === id)).toBe(false);
    await rate(id, {});
    expect((await find(id)).evaluated).toBe(false);
  });

  it('moderator: reward is round(30 + sum/70*100) when evaluated, else 0; body reward ignored', async () => {
    const mod = await t.signedIn(await t.user({}, { mod: true }));
    const id = await t.streamer();
    await rate(id, { r: { s: 10, g: 10, a: 10, v: 10, n: 10, ns: 10, o: 10 }, reward: 5 }, mod);
    expect((await find(id)).reward).toBe(130);
    await rate(id, { r: { s: 1 } }, mod);
    expect((await find(id)).reward).toBe(31); // 31.43
    await rate(id, { r: { s: 4 } }, mod);
    expect((await find(id)).reward).toBe(36); // 35.71 rounds up, not down
    await rate(id, { r: { s: 6 } }, mod);
    expect((await find(id)).reward).toBe(39); // 38.57
    await rate(id, { r: { s: 10, g: 10, a: 10, v: 5 } }, mod);
    expect((await find(id)).reward).toBe(80); // 30 + 35/70*100
    await rate(id, { r: { s: 3, g: 3, a: 3, v: 3, n: 3, ns: 3, o: 3 } }, mod);
    expect((await find(id)).reward).toBe(60);
    await rate(id, { r: R(0), reward: 100 }, mod);
    expect((await find(id)).reward).toBe(0);
  });

  it("moderator: a zero sum clears evaluated and the reward, as the administrator's does", async () => {
    const mod = await t.signedIn(await t.user({}, { mod: true }));
    const id = await t.streamer(undefined, R(5));
    expect(await find(id)).toMatchObject({ evaluated: true });
    await rate(id, { r: R(0) }, mod);
    expect(await find(id)).toMatchObject({ evaluated: false, reward: 0, r: R(0) });
    expect((await t.client().get('/api/streamers')).body.some((x: any) => x.id === id)).toBe(false);
  });

  it('moderator: cannot change status, game, title or provider_b; may set notes and scores', async () => {
    const mod = await t.signedIn(await t.user({}, { mod: true }));
    const id = await t.streamer();
    await rate(id, { r: R(1), status: 'live', game: 'Chess', title: 'Hello', provider_b: 'kb' });
    await rate(
      id,
      { r: R(4), notes: 'mod note', status: 'offline', game: 'X', title: 'Y', provider_b: 'zz' },
      mod,
    );
    expect(await find(id)).toMatchObject({
      status: 'live',
      game: 'Chess',
      title: 'Hello',
      provider_b: 'kb',
      notes: 'mod note',
      r: R(4),
      evaluated: true,
    });
  });

  it('an administrator who is also a moderator follows the administrator rules', async () => {
    const both = await t.signedIn(await t.user({}, { mod: true }));
    await both.post('/api/auth/login', { password: 'correct horse battery staple' });
    const id = await t.streamer();
    await rate(id, { r: R(1), reward: 7, status: 'live' }, both);
    expect(await find(id)).toMatchObject({ reward: 7, status: 'live' });
  });

  it('anonymous callers and signed-in non-moderators get 401 Unauthorized and change nothing', async () => {
    const id = await t.streamer();
    for (const c of [t.client(), await t.signedIn(await t.user())]) {
      const res = await rate(id, { r: R(5) }, c);
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ error: 'Unauthorized', code: 'unauthorized' });
    }
    expect((await find(id)).evaluated).toBe(false);
  });

  it.each([[''], ['?id='], ['?id=0'], ['?id=-3'], ['?id=abc']])('PUT %s is 400 Missing id', async (q) => {
    const res = await admin.put(`/api/streamers${q}`, { r: R(1) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Missing id', code: 'missing_id' });
  });

  it('an unknown id is 404 Streamer not found, also a huge one', async () => {
    for (const id of [999999, 99999999999999]) {
      const res = await rate(id, { r: R(1) });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: 'Streamer not found', code: 'streamer_not_found' });
    }
  });

  it('broken JSON is 400 Invalid JSON and leaves the rating unchanged', async () => {
    const id = await t.streamer(undefined, R(3));
    const res = await admin.put(`/api/streamers?id=${id}`, '{"r": {"s": 9', {
      headers: { 'content-type': 'application/json' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Invalid JSON', code: 'invalid_json' });
    expect((await find(id)).r).toEqual(R(3));
  });
});
