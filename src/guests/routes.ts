import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { methodNotAllowed } from '../lib/method-not-allowed.ts';
import { newChallenge } from './challenge.ts';
import { challengeSchema } from './schemas.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The key the guests' challenges are signed with, derived from the session secret. */
    challengeKey: string;
  }
}

/** DECISIONS.md "Guests earn trust": a challenge for anyone, so a page can solve it ahead. */
export const challengeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/api/challenge',
    { config: { guard: 'public', session: false }, schema: challengeSchema },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return newChallenge(app.challengeKey, app.clock.now());
    },
  );
  methodNotAllowed(app, '/api/challenge', ['GET']);
};
