import { actorOf, audit } from '../audit/queries.ts';
import type { AppContext } from '../context.ts';
import { writeTransaction } from '../db/transaction.ts';
import { fail } from '../errors.ts';
import { parseId } from '../lib/input.ts';
import { notifyApproved, notifyDeleted, notifyHidden, notifyShown } from '../notifications/notify.ts';
import { shortTag } from '../plugins/guest-tag.ts';
import type { Viewer } from '../plugins/viewer.ts';
import { LIMITS, MODERATION_ACTIONS, type ModerationAction } from '../shared/rules.ts';
import { bulkAction, bulkTargets, type Selector } from './queries.ts';

/** Exactly one of ids (1-100 ids), user_id or guest_tag (10 to 64 hex characters), else null. */
export function selectorOf(body: { ids?: unknown; user_id?: unknown; guest_tag?: unknown }): Selector | null {
  const given = [body.ids, body.user_id, body.guest_tag].filter((v) => v !== undefined && v !== null);
  if (given.length !== 1) return null;
  if (body.ids !== undefined && body.ids !== null) {
    if (!Array.isArray(body.ids) || body.ids.length < 1 || body.ids.length > LIMITS.bulkIds) return null;
    const ids = body.ids.map(parseId);
    return ids.every((id): id is number => id !== null) ? { ids: [...new Set(ids)] } : null;
  }
  if (body.user_id !== undefined && body.user_id !== null) {
    const id = parseId(body.user_id);
    return id === null ? null : { user_id: id };
  }
  const tag = addressOf(body.guest_tag);
  return tag === null ? null : { guest_tag: tag };
}

/** A guest tag as staff give it (10 to 64 hex characters, any case, spaces around), else null. */
export function addressOf(value: unknown): string | null {
  const tag = typeof value === 'string' ? value.trim().toLowerCase() : '';
  return /^[0-9a-f]{10,64}$/.test(tag) ? tag : null;
}

/** A selector as the audit log keeps it: staff see a guest tag's first 10 characters. */
const shown = (s: Selector) => ('guest_tag' in s ? { guest_tag: shortTag(s.guest_tag) } : s);

/** The comment an action changed, when it changed exactly one: its author and streamer, for the log. */
const one = (changed: number, targets: { author: string; streamer_name: string }[]) => {
  const [c] = targets;
  return changed === 1 && targets.length === 1 && c
    ? { comment: { author: c.author, streamer: c.streamer_name } }
    : {};
};

export interface BulkInput {
  action?: unknown;
  ids?: unknown;
  user_id?: unknown;
  guest_tag?: unknown;
}

/**
 * A bulk action of the moderation queue (DECISIONS.md "Reports and the moderation queue"):
 * the selected comments deleted, hidden, shown or approved, whom it concerns notified, one
 * audit entry, in one transaction. Answers how many comments changed.
 */
export async function moderateComments(ctx: AppContext, viewer: Viewer, body: BulkInput): Promise<number> {
  const action = body.action as ModerationAction;
  if (!MODERATION_ACTIONS.includes(action)) throw fail('invalid_action');
  const selector = selectorOf(body);
  if (!selector) throw fail('invalid_selector');
  const now = ctx.clock.now();
  return writeTransaction(ctx.database, async (trx) => {
    const targets = await bulkTargets(trx, action, selector);
    if (action === 'delete') await notifyDeleted(trx, targets);
    const changed = await bulkAction(trx, action, selector, now.toISOString());
    if (action === 'hide') await notifyHidden(trx, targets, viewer.user?.id ?? null, now.toISOString());
    if (action === 'show') await notifyShown(trx, targets);
    if (action === 'approve') await notifyApproved(trx, targets);
    await audit(trx, actorOf(viewer, now), {
      action: 'comment.bulk',
      target_id: 'user_id' in selector ? selector.user_id : null,
      params: { action, count: changed, selector: shown(selector), ...one(changed, targets) },
    });
    return changed;
  });
}
