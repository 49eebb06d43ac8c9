import type { AuditEntry } from './api.ts';

/**
 * How a language words the audit entries (locales/audit-*.ts): a title and one function per
 * action that comes with parameters (the service's audit/actions.ts), typed from the generated client, so an
 * action the service adds fails the page's check until both languages word it.
 */
type Known = Extract<AuditEntry, { params: object }>;

/**
 * Each action's title in a language (the entry's heading in the audit tab): a text, or one
 * made from the parameters where they change what happened (a queue action on one comment).
 */
export type AuditTitles = {
  [E in Known as E['action']]: string | ((params: E['params']) => string);
};

export type AuditWords = {
  [E in Known as E['action']]: (params: E['params'], provider: (p: string) => string) => string;
};

/** An entry's title by a language's titles; an old entry recorded without parameters shows its action. */
export function titleOf(titles: AuditTitles, entry: AuditEntry): string {
  if (!('params' in entry) || entry.params === undefined) return entry.action;
  const title = (titles as Record<string, string | ((params: unknown) => string) | undefined>)[entry.action];
  return typeof title === 'function' ? title(entry.params) : (title ?? entry.action);
}
