/**
 * Unsaved form contents kept in the browser (issue 17, #10): a reload or Back does not lose
 * them. One entry per form key; the entry goes when the form is saved or its changes dropped.
 */
const PREFIX = 'draft:';

export interface Draft<T> {
  value: T;
  /** When it was last changed (ISO). */
  at: string;
}

export function readDraft<T>(key: string): Draft<T> | null {
  try {
    const raw = localStorage.getItem(PREFIX + key);
    return raw ? (JSON.parse(raw) as Draft<T>) : null;
  } catch {
    return null;
  }
}

export function writeDraft<T>(key: string, value: T): void {
  try {
    localStorage.setItem(PREFIX + key, JSON.stringify({ value, at: new Date().toISOString() }));
  } catch {
    // A full or blocked storage only means the draft is not kept.
  }
}

export const dropDraft = (key: string): void => localStorage.removeItem(PREFIX + key);
