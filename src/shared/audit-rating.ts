/**
 * A rating write's audit entry in English: the service's summary (audit/actions.ts) and the
 * page's English (web/src/locales/audit-en.ts) say it in these words, written once. An
 * administrator's rename is a rating write too (SPEC.md's rating mode), said as a rename.
 */
export function ratedWords(p: { name: string; from: number | null; to: number; renamed?: string }): string {
  const total = (n: number | null) => (n === null ? 'unrated' : String(n));
  const rated = `Rated ${p.name}: ${total(p.from)} → ${p.to}`;
  if (p.renamed === undefined) return rated;
  return p.from === p.to ? `Renamed ${p.name} to ${p.renamed}` : `${rated}, renamed to ${p.renamed}`;
}
