import { searchKey } from '../../../src/shared/rules.ts';
import { cs } from '../locales/cs.ts';
import { t } from './i18n.svelte.ts';

/**
 * A team's name as a title: "Tým {name}", unless the name already says it ("Tým Alfa", "Gamma
 * Team"), which read "Tým Tým Alfa" (issue 30, item 21), in the page's language or the site's
 * own (Czech: "Team Tým Alfa" in English, stop 109). Compared without case and accents.
 */
export const teamTitle = (name: string): string =>
  [t('list.team'), cs['list.team']].some((word) => searchKey(name).includes(searchKey(word)))
    ? name
    : t('myteam.team', { name });

/**
 * A login as typed into a team's form: without the `@` the page itself shows before logins
 * (`@anna`), which no Twitch or Kick login contains.
 */
export const typedLogin = (input: string): string => input.trim().replace(/^@+/, '');
