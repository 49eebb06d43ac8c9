import type { DbContext } from '../db/context.ts';
import { writeTransaction } from '../db/transaction.ts';
import type { Clock } from '../lib/clock.ts';
import type { ClaimedRow, OutboxChannel } from './channel.ts';
import { type Settled, settleRows } from './rows.ts';

/**
 * Writes where a sent row ends up, with the others that came meanwhile: a group commit of the
 * outbox (one transaction for every row whose send ended while the last one was being
 * written; the channel's own writes for the rows sent go in it too). A row's send counts as
 * done, freeing its place, once its outcome is written.
 */
export class Settler<Row extends ClaimedRow> {
  #waiting: { id: number; row: Row; outcome: Settled; done: () => void; failed: (err: unknown) => void }[] =
    [];
  #flushing = false;

  constructor(
    private readonly database: DbContext,
    private readonly clock: Clock,
    private readonly channel: OutboxChannel<Row>,
  ) {}

  /** Resolves once the row's outcome is written. */
  settle(row: Row, outcome: Settled): Promise<void> {
    return new Promise((done, failed) => {
      this.#waiting.push({ id: row.id, row, outcome, done, failed });
      if (!this.#flushing) {
        this.#flushing = true;
        void this.#flush();
      }
    });
  }

  async #flush(): Promise<void> {
    const { channel } = this;
    while (this.#waiting.length > 0) {
      const batch = this.#waiting.splice(0);
      const iso = this.clock.now().toISOString();
      try {
        await writeTransaction(
          this.database,
          async (trx) => {
            await settleRows(trx, channel.table, batch, iso);
            const sent = batch.filter((b) => b.outcome.state === 'sent').map((b) => b.row);
            if (sent.length > 0) await channel.settled?.(trx, sent, iso);
          },
          'none',
        );
        for (const b of batch) b.done();
      } catch (err) {
        for (const b of batch) b.failed(err);
      }
    }
    this.#flushing = false;
  }
}
