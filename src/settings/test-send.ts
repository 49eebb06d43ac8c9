import type { AppContext } from '../context.ts';
import { writeTransaction } from '../db/transaction.ts';
import { testEmbed } from '../discord/events.ts';
import { enqueueTest, storedWebhooks } from '../discord/queries.ts';
import { fail } from '../errors.ts';
import type { Keep } from '../idempotency/keep.ts';
import { SITE_NAME } from '../shared/site.ts';

/**
 * Queues a test message to one stored webhook that is not disabled (DECISIONS.md "Reaching
 * out"): one outbox row, in one transaction whose answer `keep` keeps. The sender delivers it.
 */
export async function queueTestMessage(
  ctx: AppContext,
  id: number,
  keep: Keep,
): Promise<{ ok: true; delivery_id: number }> {
  const webhook = (await storedWebhooks(ctx.db)).find((w) => w.id === id);
  if (!webhook) throw fail('webhook_not_found');
  if (webhook.disabled_reason !== null) throw fail('webhook_disabled');
  const now = ctx.clock.now().toISOString();
  return writeTransaction(
    ctx.database,
    async (trx) => {
      const deliveryId = await enqueueTest(trx, id, testEmbed(SITE_NAME, now), now);
      return keep(trx, { ok: true as const, delivery_id: deliveryId });
    },
    'content',
  );
}
