/** Comments, their likes, reports on them, and the address blocks of moderation. */
import type { Generated, Selectable } from 'kysely';
import type { ReportReason } from '../../shared/rules.ts';

export interface CommentsTable {
  id: Generated<number>;
  streamer_id: number;
  user_id: number | null;
  author: string;
  body: string;
  is_admin: number;
  created_at: string;
  /** 1 hidden: left out for everyone but administrators and moderators. */
  hidden: Generated<number>;
  hidden_by: 'author' | 'staff' | null;
  edited_at: string | null;
  /** The poster's guest tag (plugins/guest-tag.ts): a keyed hash of the address, never the address. */
  guest_tag: string | null;
  /** The top-level comment this one answers (threads are one level deep). */
  reply_to: number | null;
  /** 1: held for a moderator (issue 29): in no public answer or count until approved. */
  pending: Generated<number>;
  /** 1: shown first in its streamer's list; at most one per streamer (a partial unique index). */
  pinned: Generated<number>;
  /** A digest of the folded body (comments/rules.ts `repeatKey`); null on comments stored before. */
  repeat_key: string | null;
}

export interface CommentLikesTable {
  comment_id: number;
  user_id: number;
  created_at: string;
}

export interface ReportsTable {
  id: Generated<number>;
  comment_id: number;
  /** `u:<user id>` or `g:<guest tag>`: one open report per comment and reporter (a unique index). */
  reporter: string;
  reporter_user_id: number | null;
  reason: ReportReason;
  note: string;
  created_at: string;
  /** Set when staff dismiss the reports or hide the comment. */
  closed_at: string | null;
}

export interface AddressBlocksTable {
  id: Generated<number>;
  /** The full guest tag of the blocked address. */
  guest_tag: string;
  created_at: string;
  expires_at: string;
  /** Who blocked: the staff member's display name, or `admin`. */
  created_by: string;
  created_by_user_id: number | null;
  comment_id: number | null;
}

export type Comment = Selectable<CommentsTable>;
