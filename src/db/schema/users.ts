/** Users and moderators. */
import type { Generated, Selectable } from 'kysely';
import type { Provider } from '../../shared/rules.ts';

export interface UsersTable {
  id: Generated<number>;
  provider: Provider;
  provider_id: string;
  login: string;
  display_name: string;
  /** foldCase(login) and foldCase(display_name): case-insensitive matching on both databases. */
  login_key: string;
  display_key: string;
  avatar: string;
  last_seen: string;
  /** 1 banned, 0 or null not banned. */
  banned: number | null;
  created_at: string;
  /** foldName(login) and foldName(display_name): a guest may not take these names. */
  login_fold: Generated<string>;
  display_fold: Generated<string>;
  /** 1: a personal administrator account (never while banned: a CHECK). */
  is_admin: Generated<number>;
}

export interface ModeratorsTable {
  user_id: number;
}

export type User = Selectable<UsersTable>;
