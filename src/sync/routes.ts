import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { methodNotAllowed } from '../lib/method-not-allowed.ts';
import { PROVIDERS } from '../shared/rules.ts';
import { readStates } from './queries.ts';
import { type SyncAnswer, syncSchema } from './schemas.ts';
import { mayReadSync } from './policy.ts';

/** `GET /api/sync`: what the polling instance recorded, read from the database by any instance. */
export const syncRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { db, config, liveSync } = app;

  app.get(
    '/api/sync',
    { config: { guard: mayReadSync }, schema: syncSchema },
    async (): Promise<SyncAnswer> => {
      const { state, streamers } = await readStates(db);
      const one = (provider: (typeof PROVIDERS)[number]) => {
        const s = state.get(provider);
        return {
          enabled: liveSync.isEnabled(provider),
          interval_seconds: config.liveSyncSeconds,
          last_ok: s?.last_ok ?? null,
          last_error: s?.last_error ?? null,
          last_error_at: s?.last_error_at ?? null,
          checked: s?.checked ?? 0,
          round_at: s?.cycle_at ?? null,
          streamers: streamers.get(provider) ?? 0,
        };
      };
      return { provider_a: one('provider_a'), provider_b: one('provider_b') };
    },
  );

  methodNotAllowed(app, '/api/sync', ['GET']);
};
