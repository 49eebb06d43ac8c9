import { pushCs, pushEn, type PushKey } from '../locales/push.ts';
import { fill, i18n } from './i18n.svelte.ts';

/** A text of push notifications (locales/push.ts) in the page's language, filled. */
export const pt = (key: PushKey, params: Record<string, string | number> = {}): string =>
  fill((i18n.lang === 'cs' ? pushCs : pushEn)[key], params);
