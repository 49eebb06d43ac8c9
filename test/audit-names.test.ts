import { beforeAll, describe, expect, it } from 'vitest';
import type { Client } from './helpers/client.ts';
import { useSignIn } from './helpers/signin.ts';

const { t, fake, signIn } = await useSignIn();
let admin: Client;
beforeAll(async () => {
  admin = await t.admin();
});

/** The newest `n` entries, newest first. */
const newest = async (n: number) => (await admin.get(`/api/audit?limit=${n}`)).body;

/** Signs in through the fake provider as this account; its id and a client signed in as it. */
async function account(provider: 'provider_a' | 'provider_b', id: string, login: string, name: string) {
  fake[provider === 'provider_a' ? 'a' : 'b'].nextUser = { id, login, display_name: name };
  const c = t.client();
  expect((await signIn(c, provider)).status).toBe(302);
  return { c, id: (await c.get('/api/oauth/me')).body.user.id as number };
}

/** An entry as an older version wrote it: the person by login only. */
async function oldEntry(action: string, target: number | null, params: object) {
  const row = await t.db
    .insertInto('audit_log')
    .values({
      at: t.clock.now().toISOString(),
      actor: 'admin',
      actor_user_id: null,
      action,
      target_id: target,
      summary: `written by an older version (${action})`,
      params: JSON.stringify(params),
      details: null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/**
 * The audit log names people as the rest of the page does: by their display name as the
 * provider gave it. A Twitch login is lower-cased ("coolstreamer" for "CoolStreamer"), and a
 * team entry kept the login as the administrator typed it, folded.
 */
describe('the audit log names people by their display name', () => {
  it('new entries keep the login and the display name, and their summaries say the name', async () => {
    const { id } = await account('provider_a', '9001', 'coolstreamer', 'CoolStreamer');
    const g = await admin.post('/api/rater_groups', { name: 'Names Team' });
    await admin.post('/api/rater_groups?members=1', { group_id: g.body.id, login: 'COOLSTREAMER' });
    await admin.put(`/api/users?id=${id}`, { banned: true, timeout_hours: 2 });
    await admin.put(`/api/users?id=${id}`, { banned: false });
    await admin.put(`/api/users?id=${id}`, { is_mod: true, is_admin: true });
    await admin.del(`/api/sessions?user_id=${id}`);
    const members = (await admin.get('/api/rater_groups')).body.find((x: any) => x.id === g.body.id).members;
    await admin.del(`/api/rater_groups?member=${members[0].member_id}`);
    const who = { login: 'coolstreamer', display_name: 'CoolStreamer', provider: 'provider_a' };
    const entries = (await newest(8)).reverse();
    expect(entries.map((e: any) => [e.action, e.params, e.summary])).toEqual([
      ['member.add', { ...who, team: 'Names Team', role: 'rater' }, expect.any(String)],
      ['user.ban', { ...who, banned: true }, 'Banned CoolStreamer (provider_a)'],
      ['user.timeout', { ...who, hours: 2 }, 'Timed out CoolStreamer (provider_a) for 2 hours'],
      ['user.ban', { ...who, banned: false }, 'Unbanned CoolStreamer (provider_a)'],
      ['user.moderator', { ...who, moderator: true }, 'Made CoolStreamer (provider_a) a moderator'],
      ['user.admin', { ...who, admin: true }, 'Made CoolStreamer (provider_a) an administrator'],
      ['user.sessions', { ...who, count: 1 }, 'Signed CoolStreamer (provider_a) out everywhere'],
      [
        'member.remove',
        { ...who, team: 'Names Team' },
        'Removed CoolStreamer (provider_a) from team Names Team',
      ],
    ]);
    expect(entries[0].summary).toBe('Added CoolStreamer (provider_a) to team Names Team as rater');
  });

  it("a team entry keeps the login as the provider gave it, not as typed (Kick's carry capitals)", async () => {
    await account('provider_b', '424242', '', 'KickCaps');
    const g = await admin.post('/api/rater_groups', { name: 'Kick Team' });
    await admin.post('/api/rater_groups?members=1', {
      group_id: g.body.id,
      login: 'kickcaps',
      provider: 'provider_b',
    });
    const [entry] = await newest(1);
    expect([entry.params, entry.summary]).toEqual([
      {
        login: 'KickCaps',
        display_name: 'KickCaps',
        provider: 'provider_b',
        team: 'Kick Team',
        role: 'rater',
      },
      'Added KickCaps (provider_b) to team Kick Team as rater',
    ]);
  });

  it('older entries, shown, take the name of the account their login surely names; nothing is written', async () => {
    const { id } = await account('provider_a', '9002', 'oldtimer', 'OldTimer');
    const other = await t.user({ login: 'someoneelse' });
    // Two accounts hold one login (a rename at Twitch, the old account not back since): unsure.
    await t.user({ login: 'twice', display_name: 'Twice One' });
    await t.user({ login: 'Twice', display_name: 'Twice Two' });
    const ids = [
      await oldEntry('user.ban', id, { login: 'oldtimer', provider: 'provider_a', banned: true }),
      // About another user than the login's account: not named after it.
      await oldEntry('user.ban', other.id, { login: 'oldtimer', provider: 'provider_a', banned: true }),
      // A team entry kept the typed login folded; on Kick no such account.
      await oldEntry('member.add', 1, {
        login: 'oldtimer',
        provider: 'provider_a',
        team: 'T',
        role: 'rater',
      }),
      await oldEntry('member.add', 1, {
        login: 'oldtimer',
        provider: 'provider_b',
        team: 'T',
        role: 'rater',
      }),
      await oldEntry('member.remove', 1, { login: 'TWICE', provider: 'provider_a', team: 'T' }),
      // A deleted account's entry stays unnamed.
      await oldEntry('user.ban', id, { login: '', provider: 'provider_a', banned: false }),
    ];
    const shown = (await newest(6)).reverse();
    expect(shown.map((e: any) => e.params.display_name)).toEqual([
      'OldTimer',
      undefined,
      'OldTimer',
      undefined,
      undefined,
      undefined,
    ]);
    const stored = await t.db.selectFrom('audit_log').select('params').where('id', 'in', ids).execute();
    expect(stored.filter((row) => row.params?.includes('display_name'))).toEqual([]);
  });

  it('a deleted account is forgotten: login and display name, in new and older team entries', async () => {
    const { c, id } = await account('provider_b', '777777', '', 'GoneSoon');
    const g = await admin.post('/api/rater_groups', { name: 'Gone Team' });
    await admin.post('/api/rater_groups?members=1', {
      group_id: g.body.id,
      login: 'gonesoon',
      provider: 'provider_b',
    });
    const older = await oldEntry('member.add', g.body.id, {
      login: 'gonesoon',
      provider: 'provider_b',
      team: 'Gone Team',
      role: 'rater',
    });
    await admin.put(`/api/users?id=${id}`, { banned: true });
    await admin.put(`/api/users?id=${id}`, { banned: false });
    expect((await c.del('/api/account', { body: { confirm: 'GoneSoon' } })).status).toBe(200);
    const entries = await t.db
      .selectFrom('audit_log')
      .select(['id', 'params', 'summary'])
      .where('id', '>=', older - 1)
      .orderBy('id')
      .execute();
    expect(entries.map((e) => e.params).filter((params) => /gonesoon/i.test(params ?? ''))).toEqual([]);
    expect(entries.map((e) => e.summary).slice(-2)).toEqual([
      'Banned a deleted user',
      'Unbanned a deleted user',
    ]);
  });
});
