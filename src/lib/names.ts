import { createRequire } from 'node:module';
import { stripInvisible } from './input.ts';

/**
 * Unicode's confusables (UTS #39, confusables.txt) as the kept package `unhomoglyph` ships
 * them: each character that looks like another mapped to its prototype (Cyrillic `а` to `a`,
 * dotless `ı` to `i`, `m` to `rn`). Loaded once, about 6,300 entries.
 */
const PROTOTYPES: ReadonlyMap<string, string> = new Map(
  Object.entries(createRequire(import.meta.url)('unhomoglyph/data.json') as Record<string, string>),
);

/**
 * Latin small capitals as their letters. UTS #39 maps some (`ᴄ`, `ꜱ`), leaves others out (`ᴀ`,
 * `ᴅ`, `ɴ`) or maps them to other letters (`ᴍ` to the turned `ʍ`, `ᴋ` to `ĸ`), and no
 * compatibility form unifies them: `ᴀᴅᴍɪɴ` reads as ADMIN but folded apart from `admin` (a
 * browser walk, stop 91). Looked up before the prototypes.
 */
const SMALL_CAPITALS: ReadonlyMap<string, string> = new Map(
  [...'ᴀʙᴄᴅᴇꜰɢʜɪᴊᴋʟᴍɴᴏᴘꞯʀꜱᴛᴜᴠᴡʏᴢ'].map((c, i) => [c, 'abcdefghijklmnopqrstuvwyz'.charAt(i)]),
);

/** Compatibility forms unified, then marks, format characters and invisible ones (fillers, bidi controls) dropped. */
const bare = (s: string): string => stripInvisible(s.normalize('NFKD').replace(/[\p{M}\p{Cf}]/gu, ''));

/**
 * Letters alike in one case and not in the other: capital `I` is the look-alike of `l` (and of
 * `1` and `|`, whose skeleton is `l`), its lower case `i` is not. A fold that ignores case must
 * make one letter of them, or `agraeIus` would pass for nobody while showing as `agraelus`,
 * and `ADMlN` or `Adm1n` as `ADMIN` and `AdmIn`: `i` folds as `l` (issue 45, item 9).
 */
const oneOfCase = (s: string): string => s.replaceAll('i', 'l');

/** UTS #39's skeleton step: every character replaced by its prototype (a small capital by its letter). */
function skeleton(s: string): string {
  let out = '';
  for (const ch of s) out += SMALL_CAPITALS.get(ch) ?? PROTOTYPES.get(ch) ?? ch;
  return out;
}

/**
 * A symbol that compatibility forms would unify into several characters is dropped first, as
 * those letters are decoration too: `™` (`TM`), `℠`, `℡`, `㈱`, so `Alice™` is `Alice`. The
 * others go through the fold: one letter (`Ⓐ`, `🄰`) or a look-alike (`|` of `l`) is that
 * letter, the rest (`✓`, `©`, `★`) is dropped at the end.
 */
const signsDropped = (name: string): string =>
  name.replace(/\p{S}/gu, (c) => ([...c.normalize('NFKD')].length > 1 ? '' : c));

/**
 * A name as people read it, for comparing names that only look different (DECISIONS.md
 * "Names and limits"): compatibility forms unified (fullwidth letters, ligatures), diacritics,
 * format characters and invisible ones (bidi controls, fillers) removed, letter case folded,
 * look-alike letters mapped to their confusable skeleton (UTS #39) as written and in lower case (`I`, `l`,
 * `1` and `i` are one letter, `O`, `0` and `o` another), and white space, punctuation and
 * symbols dropped (a symbol is decoration, not part of whose name it is: `ModMax ✓` and
 * `★Admin★` are `ModMax` and `Admin`, `Alice™` is `Alice`). `Administrátor`, `ａｄｍｉｎｉｓｔｒａｔｏｒ`, `аdmin` (Cyrillic а), `admın`,
 * `A d m i n`, `admin.`, `ADMlN`, `Adm1n` and `\u202Eadmin` fold like `admin`, `МоdМах`
 * (Cyrillic capitals) like `ModMax`. The result is
 * for comparing, not for reading (`m` becomes `rn`, `i` becomes `l`). Every comparison of
 * names goes through here, and the stored folds of users' names (`login_fold`,
 * `display_fold`) are made here too (migrations 011 and 026 recomputed them).
 */
export const foldName = (name: string): string => foldWords(signsDropped(name)).replace(/[ \p{S}]+/gu, '');

/**
 * A text folded as `foldName` folds a name, with its words kept apart: every run of white space
 * and punctuation becomes one space, none at either end. For finding a word or a phrase in a
 * comment whatever letters it is written with (DECISIONS.md "Words and repeats"): `F.r.e.e
 * ＣＯＩＮＳ` folds to `f r e e colns`, `Free coins!` to `free colns`.
 */
export function foldWords(text: string): string {
  // The skeleton of the letters as written first, then of their lower case: a capital can look
  // like a Latin capital where its lower case looks like no Latin letter (Cyrillic `М` is `M`,
  // its `м` is not `m`), so `МоdМах` folds like `ModMax`; the lower case's own look-alikes
  // (Cyrillic `а`) are mapped on the next step. A prototype's own compatibility form or lower
  // case can have a prototype of its own (`⏨` is `10`, then `lo`): the step repeats until
  // nothing changes (three times at most in the data), so a fold folds to itself.
  let folded = bare(text);
  for (let i = 0; i < 5; i++) {
    const next = bare(skeleton(folded)).toLowerCase();
    if (next === folded) break;
    folded = next;
  }
  return oneOfCase(folded.replace(/[\p{White_Space}\p{P}]+/gu, ' ').trim());
}

/**
 * Three or more single letters apart by white space or punctuation (`s c a m`, `S.C.A.M`,
 * `f-r-e-e`): a word spelt out, letter by letter.
 */
const SPELT_OUT =
  /(?<![\p{L}\p{M}\p{N}])\p{L}\p{M}*(?:[\p{White_Space}\p{P}]+\p{L}\p{M}*(?![\p{L}\p{M}\p{N}])){2,}/gu;
const APART = /[\p{White_Space}\p{P}]+/u;

/**
 * The text with each spelt-out run's letters joined; `apart` keeps its first letter (1), its
 * last (2) or both (3) a word of their own, as a one-letter word beside it (`a s c a m`) is.
 */
const joinSpelt = (text: string, apart: number): string =>
  text.replace(SPELT_OUT, (run) => {
    const letters = run.split(APART);
    const first = apart & 1 ? `${letters.shift()} ` : '';
    const last = apart & 2 ? ` ${letters.pop()}` : '';
    return first + letters.join('') + last;
  });

/**
 * A text's words as the administrator's word rules read them (DECISIONS.md "Words and
 * repeats", `like '% word %'`): its fold (`foldWords`; `folded` when the caller has it) between
 * spaces. A text that spells a word out letter by letter adds, each on a line of its own, the
 * fold of the text with those letters joined (the run's first or last letter apart too), so
 * `s c a m` and `a S.C.A.M` hold as `scam` does; one with digits for letters in a word adds
 * the fold with them read as letters (`5c4m`). A fold has no line break: no word or phrase
 * matches across two lines.
 */
export function ruleWords(text: string, folded = foldWords(text)): string {
  const spelt = text.search(SPELT_OUT) !== -1;
  const leet = text.search(LEET_WORD) !== -1;
  if (!spelt && !leet) return ` ${folded} `;
  const lines = new Set([folded]);
  if (spelt) for (const apart of [0, 1, 2, 3]) lines.add(foldWords(joinSpelt(text, apart)));
  if (leet) lines.add(foldWords(text.replace(LEET_WORD, (word) => word.replace(/\d/g, (d) => LEET[d] ?? d))));
  return ` ${[...lines].join(' \n ')} `;
}

/**
 * Digits written for the letters they look like (`5c4m`, `h4te`), in a word that also has a
 * letter: a number alone (`45 minut`) stays a number. `0` and `1` are letters already in every
 * fold (`foldWords`' look-alikes).
 */
const LEET: Record<string, string> = { '3': 'e', '4': 'a', '5': 's', '6': 'g', '7': 't', '8': 'b', '9': 'g' };
const LEET_WORD = /(?=[\p{L}\p{N}]*\p{L})(?=[\p{L}\p{N}]*[3-9])(?<![\p{L}\p{N}])[\p{L}\p{N}]+/gu;

/**
 * The folds (`foldName`) of names that must not fold alike, in the order given, each kept by
 * the first name that folds to it: a later one that folds the same, or a name that folds to
 * nothing (all symbols), gets null. Stored folds are unique, and null is never taken
 * (streamers' `name_fold`: the rows from before the rule keep their names, and the oldest of
 * look-alike ones holds the fold).
 */
export function foldsOnce(names: readonly string[]): (string | null)[] {
  const taken = new Set<string>();
  return names.map((name) => {
    const fold = foldName(name);
    if (fold === '' || taken.has(fold)) return null;
    taken.add(fold);
    return fold;
  });
}
