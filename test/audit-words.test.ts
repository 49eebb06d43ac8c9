import { describe, expect, it } from 'vitest';
import { csAudit } from '../web/src/locales/audit-cs.ts';
import { enAudit } from '../web/src/locales/audit-en.ts';

/** The audit log's English sentences count as English does: one comment, two comments (stop 96). */
const provider = (p: string) => (p === 'provider_a' ? 'Twitch' : 'Kick');
const who = { login: 'bobkick', provider: 'provider_b' as const };

describe("the audit log's English", () => {
  it('says one of a thing in the singular and more in the plural', () => {
    const bulk = (count: number) =>
      enAudit['comment.bulk']({ action: 'hide', count, selector: { ids: [1] } }, provider);
    expect([bulk(1), bulk(2)]).toEqual(['Hid 1 selected comment', 'Hid 2 selected comments']);
    const timeout = (hours: number) => enAudit['user.timeout']({ ...who, hours }, provider);
    expect([timeout(1), timeout(24)]).toEqual([
      'Timed out bobkick (Kick) for 1 hour',
      'Timed out bobkick (Kick) for 24 hours',
    ]);
    const sessions = (count: number) => enAudit['user.sessions']({ ...who, count }, provider);
    expect(sessions(1)).toBe('Signed bobkick (Kick) out everywhere (1 session)');
    const block = (days: number) =>
      enAudit['block.add']({ guest_tag: 'abc', author: 'Troll', days }, provider);
    expect([block(1), block(7)]).toEqual([
      'Blocked the address of guest abc (Troll) for 1 day',
      'Blocked the address of guest abc (Troll) for 7 days',
    ]);
  });

  it("says an administrator's rename as a rename in both languages, beside a new total when there is one", () => {
    const same = { name: 'Old', from: 6, to: 6, renamed: 'New' };
    expect(enAudit['streamer.edit'](same, provider)).toBe('Renamed Old to New');
    expect(csAudit['streamer.edit'](same, provider)).toBe('Přejmenování Old na New');
    const both = { name: 'Old', from: 6, to: 7, renamed: 'New' };
    expect(enAudit['streamer.edit'](both, provider)).toBe('Rated Old: 6 → 7, renamed to New');
    expect(csAudit['streamer.edit'](both, provider)).toBe('Hodnocení Old: 6 → 7, přejmenován na New');
    expect(csAudit['streamer.edit']({ name: 'Old', from: null, to: 7 }, provider)).toBe(
      'Hodnocení Old: bez hodnocení → 7',
    );
  });

  it('names a person by display name as the page does, by login in older entries that lack it', () => {
    const cool = { login: 'coolstreamer', display_name: 'CoolStreamer', provider: 'provider_a' as const };
    const older = { login: 'coolstreamer', provider: 'provider_a' as const, banned: true };
    expect(enAudit['user.ban']({ ...cool, banned: true }, provider)).toBe('Banned CoolStreamer (Twitch)');
    expect(csAudit['user.ban']({ ...cool, banned: true }, provider)).toBe('Zablokován CoolStreamer (Twitch)');
    expect(enAudit['user.ban'](older, provider)).toBe('Banned coolstreamer (Twitch)');
    expect(enAudit['user.ban']({ ...cool, login: '', banned: true }, provider)).toBe('Banned a deleted user');
  });
});
