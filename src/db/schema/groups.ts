/** Teams (rater groups), their members and their ratings. */
import type { Generated, Selectable } from 'kysely';

export interface RaterGroupsTable {
  id: Generated<number>;
  name: string;
  /** The name's fold (lib/names.ts), unique; null for a name of no letters, or a team from before migration 047 whose name folds as an older one's. */
  name_fold: string | null;
  streamer_id: number | null;
  created_at: string;
}

export interface RaterGroupMembersTable {
  id: Generated<number>;
  group_id: number;
  user_id: number;
  role: MemberRole;
  added_at: string;
}

export interface CommunityRatingsTable {
  id: Generated<number>;
  group_id: number;
  streamer_id: number;
  user_id: number;
  s: number;
  g: number;
  a: number;
  v: number;
  n: number;
  ns: number;
  o: number;
  updated_at: string;
}

export type MemberRole = 'owner' | 'rater';

export type RaterGroup = Selectable<RaterGroupsTable>;
export type Member = Selectable<RaterGroupMembersTable>;
