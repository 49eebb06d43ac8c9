/** Sorts names the Czech way ("Kája" before "Kelly"), as people here read them. */
const collator = new Intl.Collator('cs', { sensitivity: 'base', numeric: true });
export const byCzech = (a: string, b: string): number => collator.compare(a, b);
