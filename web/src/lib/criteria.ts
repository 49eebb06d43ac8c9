import type { ScoreKey } from '../../../src/shared/rules.ts';

/**
 * The words of one criterion: its name, the abbreviation the ranking shows and the
 * explanation in the help (issue 17, #12). Each language keeps them together in one table,
 * so the ranking, the editor, the radar and the help say the same; the explanation does not
 * repeat the name (it is shown beside it).
 */
export interface CriterionWords {
  name: string;
  short: string;
  help: string;
}
export type CriteriaTable = Record<ScoreKey, CriterionWords>;

type CriterionKey = `criteria.${ScoreKey}` | `criteria.${ScoreKey}.short` | `criteria.${ScoreKey}.help`;

/** A language's table as its message keys (`criteria.s`, `criteria.s.short`, `criteria.s.help`). */
export function criteriaKeys(table: CriteriaTable): Record<CriterionKey, string> {
  const keys: Record<string, string> = {};
  for (const [k, w] of Object.entries(table)) {
    keys[`criteria.${k}`] = w.name;
    keys[`criteria.${k}.short`] = w.short;
    keys[`criteria.${k}.help`] = w.help;
  }
  return keys;
}
