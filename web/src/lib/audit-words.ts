import type { AuditEntry } from './api.ts';

/**
 * How a language words the audit entries (locales/audit-*.ts): a title and one function per
 * action that comes with parameters (the service's audit/actions.ts), typed from the generated client, so an
 * action the service adds fails the page's check until both languages word it.
 */
type Known = Extract<AuditEntry, { params: object }>;

/** Each action's title in a language (the entry's heading in the audit tab). */
export type AuditTitles = { [E in Known as E['action']]: string };

export type AuditWords = {
  [E in Known as E['action']]: (params: E['params'], provider: (p: string) => string) => string;
};
