import { type Lang, writeDate, writeNumber } from '../../../src/shared/formats.ts';
import type { MessageKey } from '../locales/en.ts';

/**
 * The browser's own checks of a form's fields (`required`, `maxlength`, `type="email"`, `min`,
 * ...) said in the page's language, not the browser's: one listener for the whole page, set
 * before the page is drawn (main.ts), so that no field can miss it. The message stays the
 * browser's: it takes the focus to the first field in error and is announced there; the field
 * also carries `aria-invalid` until it is edited.
 */

type Field = HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement;

/** The page's words and language as they are now (lib/i18n.svelte.ts, given by main.ts). */
export interface PageWords {
  t: (key: MessageKey, params?: Record<string, string | number>) => string;
  lang: () => Lang;
}

/**
 * The checks said here, by their `ValidityState` flag (test/field-checks.test.ts keeps the
 * fields of web/src to them: any other check would speak the browser's language).
 */
export const SPOKEN = [
  'valueMissing',
  'typeMismatch',
  'tooLong',
  'tooShort',
  'rangeUnderflow',
  'rangeOverflow',
  'stepMismatch',
  'badInput',
] as const;

const isField = (el: EventTarget | null): el is Field =>
  el instanceof HTMLInputElement || el instanceof HTMLTextAreaElement || el instanceof HTMLSelectElement;

const isMoment = (field: Field): boolean => field.type === 'datetime-local';

/** What is wrong with `field`, in the page's language; '' where the browser finds nothing. */
export function fieldMessage(field: Field, { t: say, lang }: PageWords): string {
  const v = field.validity;
  // A `min` or `max` as the page writes numbers and moments.
  const written = (limit: string) =>
    isMoment(field) ? writeDate(lang(), new Date(limit), 'exact') : writeNumber(lang(), Number(limit));
  if (v.valueMissing) {
    if (field.type === 'radio') return say('field.pickOne');
    if (field.type === 'checkbox') return say('field.tick');
    return say(field instanceof HTMLSelectElement ? 'field.pickItem' : 'field.fill');
  }
  if (v.badInput) return say(isMoment(field) ? 'field.moment' : 'field.number');
  if (v.typeMismatch) return say(field.type === 'email' ? 'field.email' : 'field.url');
  // The browser counts UTF-16 code units against `maxlength` and `minlength`, as `length` does.
  const n = field.value.length;
  if (v.tooLong && !(field instanceof HTMLSelectElement))
    return say('field.tooLong', { max: field.maxLength, n });
  if (v.tooShort && !(field instanceof HTMLSelectElement))
    return say('field.tooShort', { min: field.minLength, n });
  if (field instanceof HTMLInputElement) {
    if (v.rangeUnderflow)
      return say(isMoment(field) ? 'field.notBefore' : 'field.atLeast', { min: written(field.min) });
    if (v.rangeOverflow)
      return say(isMoment(field) ? 'field.notAfter' : 'field.atMost', { max: written(field.max) });
    if (v.stepMismatch) return say('field.whole');
  }
  return '';
}

/** A radio's whole group: every radio carries the message, and one chosen answers for all. */
const groupOf = (field: Field): Field[] =>
  field instanceof HTMLInputElement && field.type === 'radio' && field.name
    ? [
        ...(field.form ?? field.ownerDocument).querySelectorAll<HTMLInputElement>('input[type="radio"]'),
      ].filter((r) => r.name === field.name)
    : [field];

/** The fields given a message here, and those marked `aria-invalid` here (not by their component). */
const worded = new WeakSet<Field>();
const marked = new WeakSet<Field>();

/** Sets the page's words on every field the browser finds invalid in `root`, until it is edited. */
export function speakFieldChecks(root: Document, words: PageWords): void {
  root.addEventListener(
    'invalid',
    (e) => {
      const field = e.target;
      // `invalid` does not bubble: heard on its way down. A message of the field's own is left.
      if (!isField(field) || (field.validity.customError && !worded.has(field))) return;
      // The flags of this try, not the message of the last one (and in the language of now).
      field.setCustomValidity('');
      field.setCustomValidity(fieldMessage(field, words));
      worded.add(field);
      if (!field.hasAttribute('aria-invalid')) {
        field.setAttribute('aria-invalid', 'true');
        marked.add(field);
      }
    },
    true,
  );
  const edited = (e: Event) => {
    if (!isField(e.target)) return;
    for (const field of groupOf(e.target)) {
      if (worded.delete(field)) field.setCustomValidity('');
      if (marked.delete(field)) field.removeAttribute('aria-invalid');
    }
  };
  root.addEventListener('input', edited, true);
  root.addEventListener('change', edited, true);
}
