import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { OutboxDeliverer } from '../delivery/deliverer.ts';
import { type VapidKeys, vapidKeys } from './keys.ts';
import type { Claimed } from './outbox.ts';
import { pushChannel } from './sender.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Sends the push outbox (delivery/deliverer.ts, push/sender.ts); `look()` looks for work now. */
    push: OutboxDeliverer<Claimed>;
    /** The VAPID key pair (push/keys.ts), read once. */
    vapidKeys: () => Promise<VapidKeys>;
  }
}

/** The push sender: it starts when the app is ready and stops (handing back its lease) on close. */
export const pushPlugin = fp(
  async (app: FastifyInstance) => {
    const { push } = app.config;
    let keys: Promise<VapidKeys> | null = null;
    const read = () => {
      keys ??= vapidKeys(app.db, push).catch((err: unknown) => {
        keys = null;
        throw err;
      });
      return keys;
    };
    const sender = new OutboxDeliverer(
      {
        db: app.db,
        database: app.database,
        clock: app.clock,
        traffic: app.traffic,
        log: app.log.child({ module: 'push' }),
      },
      pushChannel({
        baseUrl: app.config.baseUrl,
        subject: push.vapidSubject,
        keys: read,
        timeoutMs: push.timeoutMs,
      }),
    );
    app.decorate('push', sender);
    app.decorate('vapidKeys', read);
    app.metrics?.watchDeliverer('push', sender);
    app.addHook('onReady', async () => {
      await read();
      sender.start();
    });
    app.addHook('onClose', async () => sender.stop());
  },
  { name: 'push' },
);
