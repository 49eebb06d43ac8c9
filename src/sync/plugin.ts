import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { PROVIDER_NAMES } from '../shared/rules.ts';
import { LivePoller } from './poller.ts';
import { providerA } from './provider-a.ts';
import { providerB } from './provider-b.ts';
import type { LiveProvider } from './provider.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Live sync with the providers (sync/poller.ts); `runOnce()` runs a round now. */
    liveSync: LivePoller;
  }
}

/**
 * Live sync: on for a provider when its client id and secret are set and LIVE_SYNC_SECONDS is
 * not 0. Polling starts when the app is ready and stops (handing back the lease) on close.
 */
export const liveSyncPlugin = fp(
  async (app: FastifyInstance) => {
    const { config, clock, database } = app;
    const providers: LiveProvider[] = [];
    for (const [id, make] of [
      ['provider_a', providerA],
      ['provider_b', providerB],
    ] as const) {
      const { clientId, clientSecret } = config.providers[id];
      const on = config.liveSyncSeconds > 0 && clientId !== '' && clientSecret !== '';
      if (on) providers.push(make(config, clock));
      app.log.info(
        on
          ? `live sync of ${id} (${PROVIDER_NAMES[id]}) is on, every ${config.liveSyncSeconds} s`
          : `live sync of ${id} (${PROVIDER_NAMES[id]}) is off: ${config.liveSyncSeconds > 0 ? 'no client id and secret' : 'LIVE_SYNC_SECONDS is 0'}`,
      );
    }
    const poller = new LivePoller({
      database,
      clock,
      log: app.log.child({ module: 'live-sync' }),
      providers,
      intervalMs: config.liveSyncSeconds * 1000,
      onCheck: app.metrics ? app.metrics.liveSyncCheck.bind(app.metrics) : undefined,
    });
    app.decorate('liveSync', poller);
    app.addHook('onReady', async () => poller.start());
    app.addHook('onClose', async () => poller.stop());
  },
  { name: 'live-sync' },
);
