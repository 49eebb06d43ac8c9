/** Notifications (DECISIONS.md "Fourth wave" → "Notifications"). */
import type { Generated } from 'kysely';
import type { NotificationKind } from '../../shared/notifications.ts';

export interface NotificationsTable {
  id: Generated<number>;
  /** The recipient. */
  user_id: number;
  kind: NotificationKind;
  streamer_id: number;
  /** Null for `rated`, and once the comment is deleted. */
  comment_id: number | null;
  /** The signed-in user whose action caused it; null for guests, the administrator password and ratings. */
  actor_user_id: number | null;
  /** `live`: the stream that started (migration 022, no reference: it outlives a pruned stream); null for the other kinds. */
  stream_id: number | null;
  created_at: string;
  read: Generated<number>;
  /** 0 once a `reply`, `mention` or `like` is about a hidden or deleted comment (migration 018). */
  shown: Generated<number>;
}
