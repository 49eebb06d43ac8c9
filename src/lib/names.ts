import { createRequire } from 'node:module';

/**
 * Unicode's confusables (UTS #39, confusables.txt) as the kept package `unhomoglyph` ships
 * them: each character that looks like another mapped to its prototype (Cyrillic `а` to `a`,
 * dotless `ı` to `i`, `m` to `rn`). Loaded once, about 6,300 entries.
 */
const PROTOTYPES: ReadonlyMap<string, string> = new Map(
  Object.entries(createRequire(import.meta.url)('unhomoglyph/data.json') as Record<string, string>),
);

/** Compatibility forms unified, then marks and invisible format characters dropped. */
const bare = (s: string): string => s.normalize('NFKD').replace(/[\p{M}\p{Cf}]/gu, '');

/** UTS #39's skeleton step: every character replaced by its prototype. */
function skeleton(s: string): string {
  let out = '';
  for (const ch of s) out += PROTOTYPES.get(ch) ?? ch;
  return out;
}

/**
 * A name as people read it, for comparing names that only look different (DECISIONS.md
 * "Names and limits"): compatibility forms unified (fullwidth letters, ligatures), diacritics
 * and invisible format characters removed, letter case folded, look-alike letters mapped to
 * their confusable skeleton (UTS #39), and white space and punctuation dropped.
 * `Administrátor`, `ａｄｍｉｎｉｓｔｒａｔｏｒ`, `аdmin` (Cyrillic а), `admın`, `A d m i n` and
 * `admin.` fold like `admin`. The result is for comparing, not for reading (`m` becomes
 * `rn`). Every comparison of names goes through here, and the stored folds of users'
 * names (`login_fold`, `display_fold`) are made here too (migration 011 recomputed them).
 */
export function foldName(name: string): string {
  // Lower case first: the skeleton keeps case (`I` and `l` are alike, `i` and `l` are not).
  // A prototype's own compatibility form or lower case can have a prototype of its own
  // (`⏨` is `10`, then `lo`): the step repeats until nothing changes (twice at most in the
  // data), so a fold folds to itself.
  let folded = bare(name).toLowerCase();
  for (let i = 0; i < 4; i++) {
    const next = bare(skeleton(folded)).toLowerCase();
    if (next === folded) break;
    folded = next;
  }
  return folded.replace(/[\p{White_Space}\p{P}]/gu, '');
}
