import type { Mutation } from './list.ts';

/**
 * Issue 45, items 9, 10 (its sign-in half) and 14: names that pass for others, provider names
 * with control characters, and the vote of who speaks for a streamer.
 */
export const NAME_MUTATIONS: Mutation[] = [
  {
    name: 'names: i and l stay two letters (the skeleton of the lower case only)',
    file: 'src/lib/names.ts',
    from: "const oneOfCase = (s: string): string => s.replaceAll('i', 'l');",
    to: 'const oneOfCase = (s: string): string => s;',
    tests: ['test/look-alike-names.test.ts', 'test/name-skeletons.test.ts'],
  },
  {
    name: 'names: the fold keeps fillers and other invisible characters',
    file: 'src/lib/names.ts',
    from: "stripInvisible(s.normalize('NFKD').replace(/[\\p{M}\\p{Cf}]/gu, ''))",
    to: "s.normalize('NFKD').replace(/[\\p{M}\\p{Cf}]/gu, '')",
    tests: ['test/name-skeletons.test.ts'],
  },
  {
    name: 'names: a stored name keeps bidi controls and fillers',
    file: 'src/lib/input.ts',
    from: "return cut(stripInvisible(stripControls(text(value) ?? '')).trim(), max);",
    to: "return cut(stripControls(text(value) ?? '').trim(), max);",
    tests: ['test/look-alike-names.test.ts'],
  },
  {
    name: 'names: the blank braille pattern U+2800 counts as visible',
    file: 'src/lib/input.ts',
    from: 'const INVISIBLE = /[\\p{Default_Ignorable_Code_Point}\\u2800]/gu;',
    to: 'const INVISIBLE = /[\\p{Default_Ignorable_Code_Point}]/gu;',
    tests: ['test/look-alike-names.test.ts'],
  },
  {
    name: "names: a streamer's name keeps invisible characters (sanitized without them)",
    file: 'src/lib/input.ts',
    from: "stripInvisible(stripControls(s.normalize('NFC').replace(/<[^>]*>/g, '')))",
    to: "stripControls(s.normalize('NFC').replace(/<[^>]*>/g, ''))",
    tests: ['test/look-alike-names.test.ts'],
  },
  {
    name: 'names: the skeleton of the lower case only (Cyrillic capitals pass for Latin ones)',
    file: 'src/lib/names.ts',
    from: '  let folded = bare(text);',
    to: '  let folded = bare(text).toLowerCase();',
    tests: ['test/look-alike-names.test.ts'],
  },
  {
    name: 'names: a symbol is part of the fold (ModMax ✓ passes for nobody)',
    file: 'src/lib/names.ts',
    from: "foldWords(name).replace(/[ \\p{S}]+/gu, '')",
    to: "foldWords(name).replaceAll(' ', '')",
    tests: ['test/look-alike-names.test.ts'],
  },
  {
    name: "migration 042: the users' folds are left as they were",
    file: 'src/db/migrations/042-name-folds-without-symbols.ts',
    from: '  await refoldUsers(db);',
    to: '',
    tests: ['test/name-skeletons.test.ts'],
  },
  {
    name: "migration 041: the held words' folds are left as they were",
    file: 'src/db/migrations/041-name-folds-of-capitals.ts',
    from: '  await refoldWords(db);',
    to: '',
    tests: ['test/name-skeletons.test.ts'],
  },
  {
    name: 'migrations 026 and 041: the stored folds are left as they were',
    file: 'src/db/migrations/refold.ts',
    from: 'if (folds.login_fold === u.login_fold && folds.display_fold === u.display_fold) continue;',
    to: 'continue;',
    tests: ['test/name-skeletons.test.ts'],
  },
  {
    name: "sign-in: the provider's names stored as they came",
    file: 'src/signin/routes.ts',
    from: 'signInUser(trx, storedProfile(result.profile), request.guestTag, clock.now())',
    to: 'signInUser(trx, result.profile, request.guestTag, clock.now())',
    tests: ['test/signin-provider-a.test.ts', 'test/signin-provider-b.test.ts'],
  },
  {
    name: 'sign-in: a display name with nothing visible left stays empty, not the login',
    file: 'src/signin/flow.ts',
    from: 'display_name: nameLine(profile.display_name) || login || profile.provider_id',
    to: 'display_name: nameLine(profile.display_name)',
    tests: ['test/signin-provider-a.test.ts'],
  },
  {
    name: 'sign-in: with no login either, the display name stays empty, not the provider id',
    file: 'src/signin/flow.ts',
    from: 'display_name: nameLine(profile.display_name) || login || profile.provider_id',
    to: 'display_name: nameLine(profile.display_name) || login',
    tests: ['test/signin-provider-b.test.ts'],
  },
  {
    name: 'votes: who speaks for a streamer votes for it',
    file: 'src/votes/vote.ts',
    from: "  if (!mayVoteFor(vote.viewer, speaksFor, vote.streamerId)) return fail('not_allowed');\n",
    to: '',
    tests: ['test/audience-score.test.ts'],
  },
  {
    name: 'votes: the rule the page asks leaves out the streamer it speaks for',
    file: 'src/votes/policy.ts',
    from: 'mayVote(who) && !speaksFor.includes(streamerId);',
    to: 'mayVote(who);',
    tests: ['test/audience-score.test.ts'],
  },
  {
    name: "votes: the speaker's earlier vote is counted",
    file: 'src/streamers/views.ts',
    from: 'const rows = stored.map((r) => countedVotes(r, own.get(r.id)));',
    to: 'const rows = stored;',
    tests: ['test/audience-score.test.ts'],
  },
  {
    name: "votes: the speaker's earlier vote stays in the histogram",
    file: 'src/votes/audience.ts',
    from: 'audience_histogram: row.audience_histogram.map((n, i) => (i === own - 1 ? n - 1 : n)),',
    to: 'audience_histogram: row.audience_histogram,',
    tests: ['test/audience-score.test.ts'],
  },
  {
    name: "votes: a speaker's vote on another streamer is left out too",
    file: 'src/votes/queries.ts',
    from: 'if (speakers.get(r.streamer_id) === r.user_id) own.set(r.streamer_id, r.score);',
    to: 'own.set(r.streamer_id, r.score);',
    tests: ['test/audience-score.test.ts'],
  },
];
