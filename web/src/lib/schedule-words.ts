import { scheduleCs, scheduleEn, type ScheduleKey } from '../locales/schedule.ts';
import { fill, i18n } from './i18n.svelte.ts';

/** A text of schedules and the chat line (locales/schedule.ts) in the page's language, filled. */
export const st = (key: ScheduleKey, params: Record<string, string | number> = {}): string =>
  fill((i18n.lang === 'cs' ? scheduleCs : scheduleEn)[key], params);
