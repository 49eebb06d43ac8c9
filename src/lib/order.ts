/**
 * Ascending order by `<`: strings by their code units (`Array.prototype.sort`'s own order),
 * numbers and bigints by value. For names and keys the service made itself; `localeCompare`
 * would ask ICU's collator, which maps a few MiB of the runtime's locale data for good.
 */
export const ascending = <T extends string | number | bigint>(a: T, b: T): number =>
  a < b ? -1 : a > b ? 1 : 0;
