/**
 * Ascending order by `<`: strings by their code units (`Array.prototype.sort`'s own order),
 * numbers and bigints by value. For names and keys the service made itself, whose order must
 * not depend on the runtime's locale data, as `localeCompare`'s (ICU's collation) does.
 */
export const ascending = <T extends string | number | bigint>(a: T, b: T): number =>
  a < b ? -1 : a > b ? 1 : 0;
