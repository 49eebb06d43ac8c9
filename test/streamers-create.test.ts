import { describe, expect, it } from 'vitest';
import { countRows } from './helpers/app.ts';
import { R, useStreamers } from './helpers/streamers.ts';

const { t, admin, find } = await useStreamers();

describe('POST /api/streamers (suggest and add)', () => {
  it('a visitor suggestion answers 201 {ok, id} and is stored as added_by viewer', async () => {
    const res = await t.client().post('/api/streamers', { name: 'Suggested One', submitter: 'fan' });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({ ok: true, id: expect.any(Number) });
    const s = await find(res.body.id);
    expect(s).toMatchObject({
      name: 'Suggested One',
      platform: 'provider_a',
      provider_b: '',
      kick_name: '',
      status: 'offline',
      game: '',
      title: '',
      evaluated: false,
      community_locked: false,
      added_by: 'viewer',
      r: R(0),
      reward: 0,
      team_id: null,
      team_name: null,
    });
    // Issue 26 ("The changes"): the label is never returned; a guest's suggestion has no account.
    expect(s).not.toHaveProperty('submitter');
    expect(s).toHaveProperty('suggested_by', null);
    expect(s).not.toHaveProperty('notes');
  });

  it('?admin=1 without an administrator session is 401 Unauthorized and stores nothing', async () => {
    const before = await countRows(t.db, 'streamers');
    const res = await t.client().post('/api/streamers?admin=1', { name: 'Sneaky' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ error: 'Unauthorized', code: 'unauthorized' });
    expect(await countRows(t.db, 'streamers')).toBe(before);
  });

  it('?admin=1 by an administrator stores added_by admin', async () => {
    const res = await admin.post('/api/streamers?admin=1', { name: 'Admin Added', platform: 'provider_b' });
    expect(res.status).toBe(201);
    expect(await find(res.body.id)).toMatchObject({ added_by: 'admin', platform: 'provider_b' });
  });

  it('names are sanitized: tags, control characters and extra white space go, NFC, cut to 100', async () => {
    const res = await t.client().post('/api/streamers', {
      name: '  <b>Cafe\u0301</b>\u0000   Tom\t\n<script>x</script> ',
    });
    expect(res.status).toBe(201);
    expect((await find(res.body.id)).name).toBe('Café Tomx');
    const long = await t.client().post('/api/streamers', { name: 'L'.repeat(150) });
    expect((await find(long.body.id)).name).toBe('L'.repeat(100));
  });

  it.each([[''], ['a'], ['<i>b</i>'], ['   '], [' \u0000x ']])(
    'name %j (shorter than 2 after sanitizing) is 400 Invalid streamer name',
    async (name) => {
      const before = await countRows(t.db, 'streamers');
      const res = await t.client().post('/api/streamers', { name });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Invalid streamer name', code: 'invalid_streamer_name' });
      expect(await countRows(t.db, 'streamers')).toBe(before);
    },
  );

  it('a missing or non-text name is 400 Invalid streamer name', async () => {
    for (const body of [{}, { name: null }, { name: { x: 1 } }, { name: ['ab'] }]) {
      const res = await t.client().post('/api/streamers', body);
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ error: 'Invalid streamer name', code: 'invalid_streamer_name' });
    }
  });

  it('a duplicate name, in any letter case, is 409 Streamer already exists', async () => {
    await t.client().post('/api/streamers', { name: 'Twin Name' });
    for (const name of ['Twin Name', 'twin name', ' TWIN   name ', '<b>Twin</b> Name']) {
      const res = await t.client().post('/api/streamers', { name });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ error: 'Streamer already exists', code: 'streamer_exists' });
    }
  });

  it('a name that only looks like a taken one is 409 Streamer already exists (DECISIONS.md "Names and limits")', async () => {
    await t.client().post('/api/streamers', { name: 'Mirror Alpha' });
    const before = await countRows(t.db, 'streamers');
    // Cyrillic М and А, an accent, spaced letters, punctuation and a symbol, capital I for l.
    const alike = [
      '\u041Cirror \u0410lpha',
      'M\u00EDrror Alpha',
      'M i r r o r Alpha',
      'Mirror-Alpha.',
      'Mirror Alpha \u2713',
    ];
    for (const name of [...alike, 'MIRROR AIPHA']) {
      for (const [client, path] of [
        [t.client(), '/api/streamers'],
        [admin, '/api/streamers?admin=1'],
      ] as const) {
        const res = await client.post(path, { name });
        expect(res.status, name).toBe(409);
        expect(res.body).toEqual({ error: 'Streamer already exists', code: 'streamer_exists' });
      }
    }
    expect(await countRows(t.db, 'streamers')).toBe(before);
    // Names that differ to the eye still differ.
    expect((await admin.post('/api/streamers?admin=1', { name: 'Mirror Alphas' })).status).toBe(201);
  });

  it('an unknown platform becomes provider_a; kick_name and provider_b are taken and sanitized', async () => {
    const a = await t
      .client()
      .post('/api/streamers', { name: 'Plat One', platform: 'youtube', kick_name: ' <b>kk</b> ' });
    const b = await t
      .client()
      .post('/api/streamers', { name: 'Plat Two', platform: 'provider_b', provider_b: 'kb' });
    expect(await find(a.body.id)).toMatchObject({
      platform: 'provider_a',
      kick_name: 'kk',
      provider_b: 'kk',
    });
    expect(await find(b.body.id)).toMatchObject({ platform: 'provider_b', provider_b: 'kb' });
  });

  it('the submitter is trimmed, cut to 60 characters, and never returned (issue 26)', async () => {
    const res = await t
      .client()
      .post('/api/streamers', { name: 'Submitted', submitter: `  ${'ž'.repeat(70)}  ` });
    const row = await t.db
      .selectFrom('streamers')
      .select('submitter')
      .where('id', '=', res.body.id)
      .executeTakeFirstOrThrow();
    expect(row.submitter).toBe('ž'.repeat(60));
    // Issue 17: the suggestion queue shows who suggested; visitors never see the label.
    expect(JSON.stringify((await t.client().get('/api/streamers?all=1')).body)).not.toContain('žžž');
    expect(JSON.stringify((await t.client().get(`/api/streamers?id=${res.body.id}`)).body)).not.toContain(
      'žžž',
    );
    expect(JSON.stringify((await admin.get('/api/streamers?all=1')).body)).not.toContain('žžž');
    expect(await find(res.body.id)).toMatchObject({ added_by: 'viewer', suggested_by: null });
    // A streamer the administrator added carries no label at all.
    const added = await admin.post('/api/streamers?admin=1', { name: 'No Label' });
    expect(await find(added.body.id)).not.toHaveProperty('submitter');
  });

  it('a submitter of any length is cut, never refused; cuts never split an emoji', async () => {
    const long = await t
      .client()
      .post('/api/streamers', { name: 'Long Submitter', submitter: 'x'.repeat(5000) });
    expect(long.status).toBe(201);
    const emoji = await t
      .client()
      .post('/api/streamers', { name: 'Emoji Submitter', submitter: '😀'.repeat(70) });
    const rows = await t.db
      .selectFrom('streamers')
      .select(['id', 'submitter'])
      .where('id', 'in', [long.body.id, emoji.body.id])
      .orderBy('id')
      .execute();
    expect(rows.map((r) => r.submitter)).toEqual(['x'.repeat(60), '😀'.repeat(60)]);
  });

  it('a field of the wrong shape is refused with the message of that very field', async () => {
    const cases: [unknown, string, string][] = [
      [{ name: { x: 1 } }, 'Invalid streamer name', 'invalid_streamer_name'],
      [{ name: 'Shape Test', submitter: { x: 1 } }, 'Invalid submitter', 'invalid_field'],
      [{ name: 'Shape Test', kick_name: ['a'] }, 'Invalid kick_name', 'invalid_field'],
    ];
    for (const [body, error, code] of cases) {
      const res = await t.client().post('/api/streamers', body);
      expect([res.status, res.body]).toEqual([400, { error, code }]);
    }
  });

  it('form-encoded bodies are accepted', async () => {
    const res = await t.client().request('POST', '/api/streamers', { form: { name: 'Form Posted' } });
    expect(res.status).toBe(201);
  });
});
