/**
 * Whether a user is under a time-out (DECISIONS.md "Moderators' tools"): a time-out until
 * `until` (a timestamp, or null for none) runs while `until` is later than `now` (milliseconds);
 * at `until` the user writes again. The guard of every contribution (plugins/guards.ts) asks it
 * of the app's clock, the page of the browser's (its buttons, the users list, a user's menu).
 * The rules the database asks (a timed-out user's signed-out browser) ask it as an SQL
 * condition, users/time-out.ts `timeOutRunsSql`: the same rule, which test/ban-evasion.test.ts
 * holds equal to this one at `until`. Pure: the page imports this module.
 */
export const timeOutRuns = (until: string | null | undefined, now: number): boolean =>
  until !== null && until !== undefined && Date.parse(until) > now;
