import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { standInId } from '../signin/dev-users.ts';
import { devScheduleAnswer } from './dev-schedule.ts';

/**
 * Stand-ins for the providers' live-status APIs (DEV_PROVIDERS=true), answering in their
 * shapes (PROVIDERS.md), so that `npx streamer-rating demo` and `DEV_PROVIDERS=true npm
 * start` show streamers going live and offline, and Twitch's schedules (dev-schedule.ts),
 * without any account or internet. Whether a channel is live changes every few minutes,
 * derived from its name and the time; avatars are SVGs drawn here.
 */

const WINDOW_MS = 4 * 60_000;
const GAMES = ['Just Chatting', 'Elden Ring', 'Chess', 'Music', 'F1 25', 'Minecraft', 'Art', 'Retro'];
const TITLES = ['Chill evening stream', 'Road to top 500', 'Viewer games!', 'Day 12 of the challenge', 'Q&A'];

const hash = (s: string) => parseInt(createHash('sha256').update(s).digest('hex').slice(0, 8), 16);

/** What the stand-in says of a channel now: live (with its stream) in about half of the windows. */
export function devStream(channel: string, now: number) {
  const window = Math.floor(now / WINDOW_MS);
  const h = hash(`${channel}:${window}`);
  if (h % 100 >= 55) return null;
  const minute = Math.floor(now / 60_000);
  return {
    game: GAMES[h % GAMES.length] ?? 'Just Chatting',
    title: TITLES[(h >> 4) % TITLES.length] ?? '',
    viewers: 20 + (hash(`${channel}:${minute}`) % 2500),
    since: new Date(window * WINDOW_MS + (h % 60) * 1000).toISOString(),
  };
}

/** The repeated query parameter `name` (the service's own query parser keeps only the first). */
const all = (request: FastifyRequest, name: string) =>
  new URL(request.url, 'http://stand-in').searchParams.getAll(name).map((v) => v.toLowerCase());

export function devLiveRoutes(app: FastifyInstance, appTokens: Set<string>) {
  const { clock, config } = app;
  const authorized = (request: FastifyRequest) =>
    appTokens.has(/^Bearer (.+)$/.exec(request.headers.authorization ?? '')?.[1] ?? '');
  const refuse = (reply: FastifyReply, twitch: boolean) =>
    reply
      .code(401)
      .send(
        twitch
          ? { error: 'Unauthorized', status: 401, message: 'Invalid OAuth token' }
          : { message: 'Unauthorized' },
      );

  app.get(
    '/dev/live/provider_a/streams',
    {
      config: { guard: 'public' },
      schema: { summary: "Development stand-in for Twitch's streams (live status)" },
    },
    async (request, reply) => {
      if (!authorized(request)) return refuse(reply, true);
      const now = clock.now().getTime();
      const data = all(request, 'user_login').flatMap((login) => {
        const s = devStream(login, now);
        return s
          ? [
              {
                id: String(hash(login)),
                user_id: String(standInId(login)),
                user_login: login,
                user_name: login,
                game_name: s.game,
                title: s.title,
                viewer_count: s.viewers,
                started_at: s.since,
                type: 'live',
                thumbnail_url: '',
              },
            ]
          : [];
      });
      return { data, pagination: {} };
    },
  );

  app.get(
    '/dev/live/provider_a/users',
    { config: { guard: 'public' }, schema: { summary: "Development stand-in for Twitch's users (avatars)" } },
    async (request, reply) => {
      if (!authorized(request)) return refuse(reply, true);
      return {
        data: all(request, 'login').map((login) => ({
          id: String(standInId(login)),
          login,
          display_name: login,
          profile_image_url: `${config.baseUrl}/dev/live/avatar/${encodeURIComponent(login)}.svg`,
        })),
      };
    },
  );

  app.get(
    '/dev/live/provider_a/schedule',
    {
      config: { guard: 'public' },
      schema: { summary: 'Development stand-in for Twitch\'s schedules (PROVIDERS.md "schedule")' },
    },
    async (request, reply) => {
      if (!authorized(request)) return refuse(reply, true);
      const answer = devScheduleAnswer(request.query as Record<string, string>, clock.now().getTime());
      return reply.code(answer.status).send(answer.body);
    },
  );

  app.get(
    '/dev/live/provider_b/channels',
    {
      config: { guard: 'public' },
      schema: { summary: "Development stand-in for Kick's channels (live status)" },
    },
    async (request, reply) => {
      if (!authorized(request)) return refuse(reply, false);
      const now = clock.now().getTime();
      const data = all(request, 'slug').map((slug) => {
        const s = devStream(slug, now);
        return {
          broadcaster_user_id: standInId(slug),
          slug,
          stream_title: s?.title ?? '',
          category: { id: hash(s?.game ?? ''), name: s?.game ?? '' },
          stream: { is_live: s !== null, viewer_count: s?.viewers ?? 0, start_time: s?.since ?? '' },
        };
      });
      return { data, message: 'OK' };
    },
  );

  app.get(
    '/dev/live/avatar/:file',
    { config: { guard: 'public' }, schema: { summary: 'Drawn avatars of the development stand-ins' } },
    async (request, reply) => {
      const name = /^\/dev\/live\/avatar\/([^/?]+)\.svg/.exec(request.url)?.[1] ?? '?';
      const login = decodeURIComponent(name);
      const initial = (login.match(/[a-z0-9]/i)?.[0] ?? '?').toUpperCase();
      const hue = hash(login) % 360;
      return reply
        .type('image/svg+xml')
        .header('cache-control', 'public, max-age=86400')
        .send(
          `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="96" viewBox="0 0 96 96">` +
            `<rect width="96" height="96" rx="48" fill="hsl(${hue} 60% 45%)"/>` +
            `<text x="48" y="62" font-family="system-ui,sans-serif" font-size="44" font-weight="700" fill="#fff" text-anchor="middle">${initial}</text></svg>`,
        );
    },
  );
}
