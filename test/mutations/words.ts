import type { Mutation } from './list.ts';

/** Fifth wave: "Words and repeats" (issue 45, item 17). */
const TESTS = ['test/words-and-repeats.test.ts'];

export const WORDS_MUTATIONS: Mutation[] = [
  {
    name: 'words: a held word matches inside other words',
    file: 'src/comments/hold.ts',
    from: "like ('% ' || w.fold || ' %')",
    to: "like ('%' || w.fold || '%')",
    tests: TESTS,
  },
  {
    name: 'words: the held words are compared unfolded',
    file: 'src/settings/queries.ts',
    from: 'fold: foldWords(word) }',
    to: 'fold: word }',
    tests: TESTS,
  },
  {
    name: "words: a signed-in user's comment is not asked",
    file: 'src/comments/hold.ts',
    from: '  if (rule === HOLD_WORDS) return !d.staff;',
    to: '  if (rule === HOLD_WORDS) return d.guest;',
    tests: TESTS,
  },
  {
    name: "words: staff's comments are held too",
    file: 'src/comments/hold.ts',
    from: '  if (rule === HOLD_WORDS) return !d.staff;',
    to: '  if (rule === HOLD_WORDS) return true;',
    tests: TESTS,
  },
  {
    name: "words: the streamer's own voice is held on its page",
    file: 'src/comments/post.ts',
    from: "  if (!refused.has('held_words') || refused.has('held') || post.userHeld) return false;\n",
    to: '  return false;\n',
    tests: TESTS,
  },
  {
    name: 'words: a word of one character is taken',
    file: 'src/shared/rules.ts',
    from: 'if (length < HOLD_WORDS.wordMin ||',
    to: 'if (length < 1 ||',
    tests: TESTS,
  },
  {
    name: 'words: a repeated word is kept twice',
    file: 'src/shared/rules.ts',
    from: '    else if (!words.includes(word)) words.push(word);',
    to: '    else words.push(word);',
    tests: [...TESTS, 'test/browser/web-staff.test.ts'],
  },
  {
    name: 'words: anyone reads the held words',
    file: 'src/settings/routes.ts',
    from: '...(isStaff(request.viewer) ? { hold_words',
    to: '...(true ? { hold_words',
    tests: TESTS,
  },
  {
    name: 'repeats: a repeat of any age is refused',
    file: 'src/comments/rules.ts',
    from: 'and c.created_at > ${v.repeatSince}',
    to: '',
    tests: TESTS,
  },
  {
    name: "repeats: staff's repeats are refused",
    file: 'src/comments/rules.ts',
    from: "if (rule.to === 'members') return !d.staff && d.streamerId !== null;",
    to: "if (rule.to === 'members') return d.streamerId !== null;",
    tests: TESTS,
  },
  {
    name: 'repeats: a repeat in the same group is let through',
    file: 'src/comments/rules.ts',
    from: '      or ${earlierRow(',
    to: '      or false and ${earlierRow(',
    tests: TESTS,
  },
  {
    name: 'repeats: the posts of two groups do not wait for each other',
    file: 'src/comments/post.ts',
    from: 'keys: (posts) => posts.filter((p) => appliesTo(REPEATED, p.d)).map((p) => advisoryKey(repeatLock(p.d))),',
    to: 'keys: () => [],',
    tests: TESTS,
    project: 'postgres',
  },
  {
    name: 'repeats: a refused repeat is stored',
    file: 'src/comments/rules.ts',
    from: "  if (refused.has('duplicate_comment')) throw fail('duplicate_comment');\n",
    to: '',
    tests: TESTS,
  },
];
