import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { OutboxDeliverer } from '../delivery/deliverer.ts';
import type { ClaimedMail } from './queries.ts';
import { mailRoutes } from './routes.ts';
import { MAIL_LEASE_MARGIN_MS, MAIL_LEASE_MS, mailChannel } from './sender.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Sends e-mail from the outbox (delivery/deliverer.ts, mail/sender.ts); null while SMTP_URL and MAIL_FROM are unset. */
    mail: OutboxDeliverer<ClaimedMail> | null;
  }
}

/**
 * E-mail (DECISIONS.md "Fifth wave" → "E-mail"): its routes always (they answer `mail_off`
 * while it is off), and with SMTP_URL and MAIL_FROM set, the sender, which starts when the app
 * is ready and stops (handing back its lease and closing its connections) on close.
 */
export const mailPlugin = fp(
  async (app: FastifyInstance, opts: { key: string }) => {
    const { config } = app;
    const sender = config.mail
      ? new OutboxDeliverer(
          {
            db: app.db,
            database: app.database,
            clock: app.clock,
            traffic: app.traffic,
            log: app.log.child({ module: 'mail' }),
            leaseMs: MAIL_LEASE_MS,
            leaseMarginMs: MAIL_LEASE_MARGIN_MS,
          },
          mailChannel({ database: app.database, baseUrl: config.baseUrl, mail: config.mail, key: opts.key }),
        )
      : null;
    app.decorate('mail', sender);
    if (sender) {
      app.metrics?.watchDeliverer('mail', sender);
      app.addHook('onReady', async () => sender.start());
      app.addHook('onClose', async () => sender.stop());
    }
    await app.register(mailRoutes, { key: opts.key });
  },
  { name: 'mail' },
);
