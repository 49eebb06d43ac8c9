import type { AuditEntry } from './api.ts';
import { i18n, providerName } from './i18n.svelte.ts';
import { csAudit, csAuditTitles } from '../locales/audit-cs.ts';
import { enAudit, enAuditTitles } from '../locales/audit-en.ts';
import { titleOf } from './audit-words.ts';

/**
 * Audit entries come as data: an action and its parameters (the service's audit/actions.ts),
 * worded by each language (locales/audit-*.ts, `AuditWords` and `AuditTitles` in audit-words.ts).
 */
const WORDS = { cs: csAudit, en: enAudit } as const;
const TITLES = { cs: csAuditTitles, en: enAuditTitles } as const;

/** An entry's title in the page's language; an old entry recorded without parameters shows its action. */
export function auditTitle(entry: AuditEntry): string {
  return titleOf(TITLES[i18n.lang], entry);
}

/** An entry in the page's language; an old entry recorded without parameters shows its summary. */
export function auditText(entry: AuditEntry): string {
  if (!('params' in entry) || entry.params === undefined) return entry.summary;
  const words = WORDS[i18n.lang] as Record<
    string,
    (params: unknown, provider: (p: string) => string) => string
  >;
  const word = words[entry.action];
  return word ? word(entry.params, providerName) : entry.summary;
}
