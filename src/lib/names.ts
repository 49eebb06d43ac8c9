/**
 * A name as people read it, for comparing names that only look different: compatibility
 * forms unified (fullwidth letters, ligatures), diacritics and combining accents removed,
 * invisible format characters removed, letter case folded, runs of white space made one
 * space, trimmed. `Administrátor`, `ADMINISTRATOR` and `ａｄｍｉｎｉｓｔｒａｔｏｒ` fold alike.
 */
export function foldName(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\p{M}\p{Cf}]/gu, '')
    .toLowerCase()
    .replace(/\s+/gu, ' ')
    .trim();
}
