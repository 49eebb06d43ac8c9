import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/schema.ts';
import { fail } from '../errors.ts';
import { text } from '../lib/input.ts';
import { errors, OK, Ok } from '../lib/schemas.ts';
import { limit } from '../plugins/rate-limits.ts';
import { verifyPassword } from './passwords.ts';
import { ActionBody, ActionQuery, Check, CheckQuery, LoginBody } from './schemas.ts';

/** Every failed login takes this long, so failures look alike (SECURITY.md item 15). */
export const FAILED_LOGIN_DELAY_MS = 1000;

export interface AdminAuthOptions {
  adminHash: (db: Db) => Promise<string | undefined>;
}

/** Administrator authentication: `/api/auth/{check,login,logout}` and `/api/auth?action=`. */
export const adminAuthRoutes: FastifyPluginAsyncTypebox<AdminAuthOptions> = async (app, opts) => {
  const check = (request: FastifyRequest) => ({ admin: request.viewer.isAdmin });

  const login = async (request: FastifyRequest, body: { password?: unknown }) => {
    const password = text(body.password) ?? '';
    if (password === '') throw fail('password_required');
    const stored = await opts.adminHash(app.db);
    if (!stored || !(await verifyPassword(stored, password))) {
      await sleep(FAILED_LOGIN_DELAY_MS);
      throw fail('invalid_password');
    }
    request.session.regenerate();
    request.session.set('is_admin', true);
    request.session.set('admin_at', app.clock.now().toISOString());
    return OK;
  };

  const logout = async (request: FastifyRequest) => {
    request.session.unset('is_admin');
    request.session.unset('admin_at');
    return OK;
  };

  const loginConfig = { guard: 'public' as const, ...limit('login') };

  app.get(
    '/api/auth/check',
    {
      config: { guard: 'public' },
      schema: { summary: 'Is this session the administrator? `{admin}`', response: { 200: Check } },
    },
    check,
  );
  app.post(
    '/api/auth/login',
    {
      config: loginConfig,
      schema: {
        summary: 'Administrator login with the shared password (failures take 1 second)',
        body: LoginBody,
        response: { 200: Ok, ...errors(400, 401, 429) },
      },
    },
    (request) => login(request, request.body),
  );
  app.post(
    '/api/auth/logout',
    {
      config: { guard: 'public' },
      schema: { summary: 'Leave administration (clears only the administrator flag)', response: { 200: Ok } },
    },
    logout,
  );

  app.get(
    '/api/auth',
    {
      config: { guard: 'public' },
      schema: {
        summary: 'Action form: `?action=check`',
        querystring: CheckQuery,
        response: { 200: Check, ...errors(404) },
      },
    },
    async (request) => {
      if (request.query.action === 'check') return check(request);
      throw fail('not_found');
    },
  );
  app.post(
    '/api/auth',
    {
      // Only the login action counts against the login limit.
      config: { guard: 'public', ...limit('login', (query) => query.action !== 'login') },
      schema: {
        summary: 'Action form: `?action=login` or `?action=logout`',
        querystring: ActionQuery,
        body: ActionBody,
        response: { 200: Ok, ...errors(400, 401, 404, 429) },
      },
    },
    async (request) => {
      const { action } = request.query;
      if (action === 'login') return login(request, request.body);
      if (action === 'logout') return logout(request);
      throw fail('not_found');
    },
  );
};
