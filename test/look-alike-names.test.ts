import { describe, expect, it } from 'vitest';
import { countRows, useApp } from './helpers/app.ts';
import type { Client } from './helpers/client.ts';

/**
 * Issue 45, item 9: names that pass for others. A stored name keeps no bidi control and no
 * invisible character (lib/input.ts `nameLine`, `sanitize`), and the fold that compares names
 * (lib/names.ts) meets the skeleton of either letter case: `I`, `l`, `1` and `i` are one letter.
 */
const t = await useApp();
const admin = await t.admin();
const RESERVED = { error: 'Jméno je vyhrazeno', code: 'name_reserved' };
const comment = (c: Client, streamer_id: number, author: string) =>
  c.post('/api/comments', { streamer_id, body: 'a guest comment', author });
const storedAuthor = async (id: number) =>
  (await t.db.selectFrom('comments').select('author').where('id', '=', id).executeTakeFirstOrThrow()).author;
/** Each of `authors` is refused as a reserved name, and no comment is stored. */
async function refusedEach(sid: number, authors: string[]) {
  const before = await countRows(t.db, 'comments');
  for (const author of authors) {
    const res = await comment(t.client(), sid, author);
    expect([author, res.status, res.body]).toEqual([author, 400, RESERVED]);
  }
  expect(await countRows(t.db, 'comments')).toBe(before);
}

describe('look-alike names of either letter case', () => {
  it.each([
    'ADMlN',
    'Adm1n',
    'AdmIn',
    'ADM|N',
    'M0DERAT0R',
    'adm\u0131n',
    'Admin\u3164',
    '\u115Fadmin',
    'ad\u2800min',
  ])('a guest named %j is refused as the reserved name it shows, and nothing is stored', async (author) => {
    const sid = await t.streamer();
    const before = await countRows(t.db, 'comments');
    const res = await comment(t.client(), sid, author);
    expect([res.status, res.body]).toEqual([400, RESERVED]);
    expect(await countRows(t.db, 'comments')).toBe(before);
  });

  it('agraeIus with a capital I is the verified agraelus, as are agrae1us and AGRAELUS', async () => {
    const sid = await t.streamer();
    await t.user({ login: 'agraelus', display_name: 'agraelus' });
    for (const author of ['agraeIus', 'agrae1us', 'AGRAELUS', 'agrae|us']) {
      const res = await comment(t.client(), sid, author);
      expect([author, res.status, res.body]).toEqual([author, 400, RESERVED]);
    }
  });

  it('a display name with a capital I holds its name against the l of a guest', async () => {
    const sid = await t.streamer();
    await t.user({ login: 'kamil_cz', display_name: 'KAMIL' });
    for (const author of ['kamll', 'KAM1L', 'Kamil']) {
      const res = await comment(t.client(), sid, author);
      expect([author, res.status, res.body]).toEqual([author, 400, RESERVED]);
    }
  });

  it('capitals that look like Latin ones pass for nobody: Cyrillic МоdМах is the user ModMax', async () => {
    const sid = await t.streamer();
    await t.user({ login: 'mod_max', display_name: 'ModMax' });
    for (const author of ['\u041c\u043ed\u041c\u0430\u0445', 'M\u041eDM\u0410X', 'modmax']) {
      const res = await comment(t.client(), sid, author);
      expect([author, res.status, res.body]).toEqual([author, 400, RESERVED]);
    }
  });

  it('a symbol beside a name is decoration: ModMax ✓, ✔ModMax and ★Admin★ pass for nobody', async () => {
    const sid = await t.streamer();
    await t.user({ login: 'mod_max', display_name: 'ModMax' });
    await refusedEach(sid, [
      'ModMax \u2713',
      '\u2714\uFE0FModMax',
      'ModMax \u{1F6E1}',
      '\u2605Admin\u2605',
      'moderator $',
    ]);
    for (const author of ['Pepa \u2605', '\u2713 Lili']) {
      expect([author, (await comment(t.client(), sid, author)).status]).toEqual([author, 201]);
    }
  });

  it('a sign whose compatibility form is letters is decoration too: Alice™, Admin℠, Admin©, mod★ pass for nobody', async () => {
    const sid = await t.streamer();
    await t.user({ login: 'alice_tm', display_name: 'Alice' });
    await t.user({ login: 'mod', display_name: 'mod' });
    // ™ is TM and ℠ SM once unified (NFKD), ℡ TEL, ㈱ (株): the sign goes before, as ✓ goes.
    await refusedEach(sid, [
      'Alice\u2122',
      'Admin\u2120',
      'Admin\u00A9',
      'mod\u2605',
      'Moderator\u2121',
      'Alice \u3231',
    ]);
    // A circled or squared letter reads as its letter (a look-alike), not as a sign.
    await refusedEach(sid, ['\u24B6dmin', '\u{1F130}lice']);
    for (const author of ['Pepa\u2122', 'Lili \u2120']) {
      expect([author, (await comment(t.client(), sid, author)).status]).toEqual([author, 201]);
    }
  });

  it('names that only contain such letters stay allowed: Admin Pepa, administratorka, Anonym, Lili', async () => {
    const sid = await t.streamer();
    for (const author of ['Admin Pepa', 'administratorka', 'Anonym', 'Lili', 'Il Divo']) {
      expect([author, (await comment(t.client(), sid, author)).status]).toEqual([author, 201]);
    }
  });
});

describe('bidi controls and invisible characters are not stored in names', () => {
  it("a guest's name loses its bidi override (\\u202Enimda shows as admin) and its zero widths", async () => {
    const sid = await t.streamer();
    const res = await comment(t.client(), sid, '\u202Enimda\u200B \u2066Pepa\u2069');
    expect(res.status).toBe(201);
    expect(res.body.author).toBe('nimda Pepa');
    expect(await storedAuthor(res.body.id)).toBe('nimda Pepa');
  });

  it("a guest's name made only of fillers (U+3164, U+115F, U+2800) is an empty name: Anonym, as SPEC.md says", async () => {
    const sid = await t.streamer();
    const res = await comment(t.client(), sid, '\u3164\u115F\u2800\u202E\u200B');
    expect(res.status).toBe(201);
    expect(await storedAuthor(res.body.id)).toBe('Anonym');
  });

  it("a streamer's name is stored without them, and one made only of them is refused with Invalid streamer name", async () => {
    const added = await admin.post('/api/streamers?admin=1', { name: '\u202EFiller\u3164 Test\u2800' });
    expect(added.status).toBe(201);
    const row = await t.db
      .selectFrom('streamers')
      .select('name')
      .where('id', '=', added.body.id)
      .executeTakeFirstOrThrow();
    expect(row.name).toBe('Filler Test');

    const before = await countRows(t.db, 'streamers');
    for (const name of ['\u3164\u3164\u3164', '\u115F\u2800\u202E\u200B']) {
      const res = await admin.post('/api/streamers?admin=1', { name });
      expect([res.status, res.body]).toEqual([
        400,
        { error: 'Invalid streamer name', code: 'invalid_streamer_name' },
      ]);
      const guest = await t.client().post('/api/streamers', { name });
      expect(guest.status).toBe(400);
    }
    expect(await countRows(t.db, 'streamers')).toBe(before);
    const renamed = await admin.put(`/api/streamers?id=${added.body.id}`, { name: '\u2800\u3164' });
    expect([renamed.status, renamed.body.code]).toEqual([400, 'invalid_streamer_name']);
  });

  it("a suggester's label passes the name rule after they are gone", async () => {
    const res = await t
      .client()
      .post('/api/streamers', { name: 'Label Look-alike', submitter: 'ADMlN\u200B' });
    expect([res.status, res.body]).toEqual([400, RESERVED]);
  });

  it("a team's name is stored without them, and one made only of them is refused as empty", async () => {
    const made = await admin.post('/api/rater_groups', { name: 'Team\u3164 \u202EBlue' });
    expect(made.status).toBe(201);
    expect(made.body.name).toBe('Team Blue');
    const empty = await admin.post('/api/rater_groups', { name: '\u3164\u2800\u200B' });
    expect([empty.status, empty.body.code]).toEqual([400, 'missing_name']);
    const renamed = await admin.put(`/api/rater_groups?id=${made.body.id}`, { name: '\u115F' });
    expect([renamed.status, renamed.body.code]).toEqual([400, 'name_empty']);
  });
});
