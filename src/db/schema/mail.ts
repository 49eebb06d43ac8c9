/** E-mail (migration 028): settings, link tokens, the outbox and the weekly digests' progress. */
import type { Generated } from 'kysely';
import type { MailDigest, MailLang } from '../../shared/mail.ts';
import type { OutboxState } from './discord.ts';

export interface MailSettingsTable {
  user_id: number;
  /** The confirmed address, the only one mail goes to. */
  email: string | null;
  /** An address waiting for its confirmation. */
  pending_email: string | null;
  /** Comma-separated subset of live, reply, mention, rated. */
  kinds: Generated<string>;
  digest: Generated<MailDigest>;
  lang: Generated<MailLang>;
  /** The last notification a message of kinds told of (or that was there when they were chosen). */
  mailed_through: Generated<number>;
  /** A message of kinds is waiting until then; null when none is. */
  due_at: string | null;
  /** Until then no other message of kinds goes (10 minutes after the last). */
  quiet_until: string | null;
  updated_at: string;
}

export interface MailTokensTable {
  id: Generated<number>;
  /** SHA-256 of the token, hex: the token itself is only in the message. */
  token_hash: string;
  user_id: number;
  purpose: 'confirm' | 'unsubscribe';
  /** confirm: the address; unsubscribe: comma-separated kinds, or `digest`, or `confirm`. */
  subject: string;
  created_at: string;
  expires_at: string | null;
  used_at: string | null;
}

export type MailMessageKind = 'confirm' | 'kinds' | 'digest';

export interface MailOutboxTable {
  id: Generated<number>;
  user_id: number;
  kind: MailMessageKind;
  /** What makes the message once: `confirm:<token id>`, `kinds:<last notification id>`, `digest:<slot>`. */
  dedupe: string;
  recipient: string;
  /** JSON: what the message tells (mail/compose.ts), written in the recipient's language when sent. */
  payload: string;
  state: Generated<OutboxState>;
  attempts: Generated<number>;
  not_before: string;
  claimed_by: string | null;
  claimed_at: string | null;
  finished_at: string | null;
  last_error: string | null;
  created_at: string;
}

export interface MailDigestsTable {
  /** The slot's instant (Monday 08:00 in TZ), ISO UTC. */
  slot: string;
  /** Users up to this id have had their digest queued (or had nothing). */
  through_user: Generated<number>;
  finished_at: string | null;
}
