import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { OutboxDeliverer } from '../delivery/deliverer.ts';
import type { Delivery } from './queries.ts';
import { discordChannel } from './sender.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Sends the Discord outbox (delivery/deliverer.ts, discord/sender.ts); `look()` looks for due messages now. */
    discord: OutboxDeliverer<Delivery>;
  }
}

/** The Discord sender: it starts when the app is ready and stops (handing back its lease) on close. */
export const discordPlugin = fp(
  async (app: FastifyInstance) => {
    const log = app.log.child({ module: 'discord' });
    const sender = new OutboxDeliverer(
      { db: app.db, database: app.database, clock: app.clock, traffic: app.traffic, log },
      discordChannel({ log, baseUrl: app.config.baseUrl, timeoutMs: app.config.discordTimeoutMs }),
    );
    app.decorate('discord', sender);
    app.metrics?.watchDeliverer('discord', sender);
    app.addHook('onReady', async () => sender.start());
    app.addHook('onClose', async () => sender.stop());
  },
  { name: 'discord' },
);
