import { describe, expect, it } from 'vitest';
import { useApp } from './helpers/app.ts';
import type { Client } from './helpers/client.ts';
import { R } from './helpers/streamers.ts';

/**
 * DECISIONS.md "Fifth wave" → "Words and repeats" (issue 45, item 17): the administrator's
 * `hold_words` hold comments that contain one as a whole word or phrase, whatever letters they
 * are written in, for guests and users but never for staff or the streamer's own voice; with
 * `refuse_repeats` on, an author's comment of the last 10 minutes again is 409, also when the
 * copies race.
 */
const t = await useApp({ TRUST_PROXY: '127.0.0.1' });
const admin = await t.admin();
const moderator = await t.signedIn(await t.user({}, { mod: true }));
const user = await t.signedIn(await t.user());
const guest = (address: string) => t.client({ 'x-forwarded-for': address });
const sid = await t.streamer('Words Streamer');
const other = await t.streamer('Other Streamer');

const setWords = (words: unknown, c: Client = admin) => c.put('/api/settings', { hold_words: words });
const post = (c: Client, body: string, streamer = sid) =>
  c.post('/api/comments', { streamer_id: streamer, body });
const stored = async (body: string) =>
  (await t.db.selectFrom('comments').select(['body', 'pending']).where('body', '=', body).execute()).map(
    (r) => r.pending,
  );

describe('hold_words in the settings', () => {
  it('the administrator sets the list, each word once in any case; staff read it, nobody else does', async () => {
    expect((await setWords([' free coins ', 'scam', 'scam', ' SCAM ', 'Free Coins'])).body).toEqual({
      ok: true,
    });
    expect((await admin.get('/api/settings')).body.hold_words).toEqual(['free coins', 'scam']);
    expect((await moderator.get('/api/settings')).body.hold_words).toEqual(['free coins', 'scam']);
    expect((await user.get('/api/settings')).body).not.toHaveProperty('hold_words');
    expect((await t.client().get('/api/settings')).body).not.toHaveProperty('hold_words');
    expect((await setWords(['x'], moderator)).status).toBe(401);
  });

  it.each([
    ['a word of one character', ['ok', ' x ']],
    ['a word over 60 characters', ['y'.repeat(61)]],
    ['201 words', Array.from({ length: 201 }, (_, i) => `word${i}`)],
    ['not a list', 'scam'],
    ['a number in the list', ['scam', 7]],
    ['null', null],
  ])('%s: 400 Invalid word list, and the list stays as it was', async (_, words) => {
    await setWords(['keep me']);
    const res = await setWords(words);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: 'Invalid word list', code: 'invalid_word_list' });
    expect((await admin.get('/api/settings')).body.hold_words).toEqual(['keep me']);
  });

  it('200 words of 60 characters are taken; an empty list clears it', async () => {
    const words = Array.from({ length: 200 }, (_, i) => `${i}`.padStart(60, 'w'));
    expect((await setWords(words)).status).toBe(200);
    expect((await admin.get('/api/settings')).body.hold_words).toHaveLength(200);
    expect((await setWords([])).status).toBe(200);
    expect((await admin.get('/api/settings')).body.hold_words).toEqual([]);
  });
});

describe('a comment with a held word', () => {
  it('waits for staff, from a guest or a user, whatever letters, case and punctuation it uses', async () => {
    await setWords(['free coins', 'scam']);
    const cases: [Client, string][] = [
      [guest('203.0.113.1'), 'Get FREE, ｃｏｉｎｓ here'],
      [user, 'this is a S.C.A.M? no: a ѕсаm'],
      [user, 'what a scam!'],
      // Spelt out letter by letter, with spaces, dots or dashes, look-alikes or not.
      [user, 'this is a S.C.A.M, really'],
      [guest('203.0.113.2'), 's c a m here'],
      [user, 'F-R-E-E coins for all'],
      [user, 'a s с а m (Cyrillic с and а)'],
      // Digits for letters, and a phrase run together or spelt out whole (a troll's walk).
      [user, '5c4m tady je'],
      [user, 'h3re: SC4M'],
      [guest('203.0.113.3'), 'freecoins now'],
      [user, 'f r e e c o i n s hned'],
    ];
    for (const [client, body] of cases) {
      const res = await post(client, body);
      expect(res.status, body).toBe(201);
      expect(res.body.pending, body).toBe(true);
      expect(await stored(body)).toEqual([1]);
    }
    const list = (await t.client().get(`/api/comments?streamer_id=${sid}`)).body as { body: string }[];
    expect(list.map((c) => c.body)).not.toContain('what a scam!');
  });

  it('only as a whole word or phrase', async () => {
    await setWords(['scam', 'free coins', 'sea']);
    // Spelt out, the letters join into one word only: `s c a m p i` is `scampi`.
    for (const body of [
      'scampi for dinner',
      'free coinsurance',
      'coins for free',
      's c a m p i',
      'a s c a mp',
      // A number alone stays a number; digits in a longer word make that word.
      'the 5 c 4 m tour',
      'rated 534 of 1000',
      '5c4mpi',
    ]) {
      const res = await post(user, body);
      expect(res.status, body).toBe(201);
      expect(res.body.pending, body).toBeUndefined();
    }
  });

  it('never for staff, nor for the user who speaks for the streamer on its page', async () => {
    await setWords(['scam']);
    const res = await admin.post('/api/streamers?admin=1', {
      name: 'Voiced',
      platform: 'provider_a',
      provider_a: 'voicedchannel',
    });
    const voiced = res.body.id as number;
    expect((await admin.put(`/api/streamers?id=${voiced}`, { r: R(6) })).status).toBe(200);
    const voice = await t.signedIn(await t.user({ provider: 'provider_a', login: 'voicedchannel' }));
    for (const [client, body, streamer] of [
      [admin, 'staff says scam', sid],
      [moderator, 'a moderator says scam', sid],
      [voice, 'the streamer says scam', voiced],
    ] as const) {
      const posted = await post(client, body, streamer);
      expect(posted.status, body).toBe(201);
      expect(posted.body.pending, body).toBeUndefined();
      expect(await stored(body)).toEqual([0]);
    }
    // On another streamer's page the streamer is a user like any other.
    const elsewhere = await post(voice, 'the streamer says scam elsewhere', sid);
    expect(elsewhere.body.pending).toBe(true);
  });
});

describe('an edit that brings in a held word', () => {
  it('is held as a new comment would be: off the list and the count, its reply notice put away, back on approval', async () => {
    await setWords([]);
    const streamer = await t.streamer('Edited Streamer');
    const parent = await post(moderator, 'a question from staff', streamer);
    const reply = await user.post('/api/comments', {
      streamer_id: streamer,
      body: 'an honest answer',
      reply_to: parent.body.id,
    });
    expect(reply.status).toBe(201);
    const count = async () =>
      (await admin.get(`/api/streamers?all=1&id=${streamer}`)).body.comment_count as number;
    const unread = async () => (await moderator.get('/api/notifications')).body.unread as number;
    expect(await count()).toBe(2);
    const unreadBefore = await unread();
    expect(unreadBefore).toBeGreaterThan(0);

    await setWords(['scam']);
    const edited = await user.put(`/api/comments?id=${reply.body.id}`, { body: 'an honest ѕсаm answer' });
    expect([edited.status, edited.body]).toEqual([200, { ok: true }]);
    expect(await stored('an honest ѕсаm answer')).toEqual([1]);
    const list = (await t.client().get(`/api/comments?streamer_id=${streamer}`)).body as { id: number }[];
    expect(list.map((c) => c.id)).toEqual([parent.body.id]);
    expect(await count()).toBe(1);
    expect(await unread()).toBe(unreadBefore - 1);
    const queue = (await moderator.get('/api/moderation/comments?filter=pending')).body as {
      items?: { id: number }[];
    };
    expect(JSON.stringify(queue)).toContain(`"id":${reply.body.id}`);

    const approved = await moderator.put('/api/moderation/comments', {
      action: 'approve',
      ids: [reply.body.id],
    });
    expect(approved.body).toEqual({ ok: true, count: 1 });
    expect(await count()).toBe(2);
    expect(await unread()).toBe(unreadBefore);
  });

  it("never staff's, nor that of who speaks for the streamer; a word-free edit stays published", async () => {
    await setWords(['scam']);
    const own = await post(moderator, 'staff wrote this first');
    expect(
      (await moderator.put(`/api/comments?id=${own.body.id}`, { body: 'staff calls it a scam' })).status,
    ).toBe(200);
    expect(await stored('staff calls it a scam')).toEqual([0]);
    const mine = await post(user, 'a plain remark');
    expect((await user.put(`/api/comments?id=${mine.body.id}`, { body: 'a plainer remark' })).status).toBe(
      200,
    );
    expect(await stored('a plainer remark')).toEqual([0]);
  });

  it('spelt out letter by letter is held as the word is', async () => {
    await setWords(['scam']);
    const mine = await post(user, 'a fair remark on the stream');
    expect(await stored('a fair remark on the stream')).toEqual([0]);
    expect((await user.put(`/api/comments?id=${mine.body.id}`, { body: 'a fair s.c.a.m' })).status).toBe(200);
    expect(await stored('a fair s.c.a.m')).toEqual([1]);
  });
});

describe('refuse_repeats', () => {
  const setRepeats = (on: unknown) => admin.put('/api/settings', { refuse_repeats: on });

  it('is shown to everyone, off by default, and only a boolean is taken', async () => {
    expect((await t.client().get('/api/settings')).body.refuse_repeats).toBe(false);
    const res = await setRepeats('yes');
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('invalid_field');
    expect((await setRepeats(true)).status).toBe(200);
    expect((await t.client().get('/api/settings')).body.refuse_repeats).toBe(true);
    await setRepeats(false);
  });

  it('a form-encoded body sets it as JSON does', async () => {
    const form = (refuse_repeats: string) =>
      admin.put('/api/settings', undefined, { form: { refuse_repeats } });
    expect((await form('true')).status).toBe(200);
    expect((await t.client().get('/api/settings')).body.refuse_repeats).toBe(true);
    expect((await form('false')).status).toBe(200);
    expect((await t.client().get('/api/settings')).body.refuse_repeats).toBe(false);
    expect((await form('maybe')).body.code).toBe('invalid_field');
  });

  it("refuses the author's comment of the last 10 minutes again, on any streamer; nothing is stored", async () => {
    await setRepeats(true);
    try {
      expect((await post(user, 'Buy my stuff now')).status).toBe(201);
      const again = await post(user, 'BUY my stuff... now!', other);
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ error: 'Duplicate comment', code: 'duplicate_comment' });
      expect(await stored('BUY my stuff... now!')).toEqual([]);
      // Someone else may say it, and the author may say something else.
      expect((await post(await t.signedIn(await t.user()), 'Buy my stuff now')).status).toBe(201);
      expect((await post(user, 'Buy my other stuff now')).status).toBe(201);
      // A guest is one author by address.
      expect((await post(guest('203.0.113.7'), 'hello from a guest')).status).toBe(201);
      expect((await post(guest('203.0.113.7'), 'Hello from a guest')).status).toBe(409);
      expect((await post(guest('203.0.113.8'), 'hello from a guest')).status).toBe(201);
      // Staff never.
      expect((await post(moderator, 'staff repeats')).status).toBe(201);
      expect((await post(moderator, 'staff repeats')).status).toBe(201);
      // Ten minutes on, it is no repeat.
      t.clock.advance(10 * 60_000 + 1000);
      expect((await post(user, 'Buy my stuff now')).status).toBe(201);
    } finally {
      await setRepeats(false);
    }
  });

  it('off, repeats are taken', async () => {
    expect((await post(user, 'same again')).status).toBe(201);
    expect((await post(user, 'same again')).status).toBe(201);
  });

  it('two equal comments of one group (sent in one turn): one is stored', async () => {
    await setRepeats(true);
    try {
      for (const body of ['twice in one go', 'once more in one go', 'a third in one go', 'a fourth one']) {
        const [a, b] = await Promise.all([post(user, body), post(user, body, other)]);
        expect([a.status, b.status].sort(), body).toEqual([201, 409]);
        expect(await stored(body)).toEqual([0]);
      }
    } finally {
      await setRepeats(false);
    }
  });

  it('ten equal comments sent at once: one is stored', async () => {
    await setRepeats(true);
    try {
      const racer = await t.signedIn(await t.user());
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) => post(racer, 'first!!', i % 2 === 0 ? sid : other)),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([201, ...Array(9).fill(409)]);
      expect(await stored('first!!')).toEqual([0]);
    } finally {
      await setRepeats(false);
    }
  });
});
