/**
 * Sorts names the Czech way ("Kája" before "Kelly"), as people here read them. The collator is
 * made at the first comparison: a module that merely loads (the server's rendering of an
 * administration page, which has no names yet) loads none of ICU's collation data.
 */
let collator: Intl.Collator | undefined;
export const byCzech = (a: string, b: string): number =>
  (collator ??= new Intl.Collator('cs', { sensitivity: 'base', numeric: true })).compare(a, b);
