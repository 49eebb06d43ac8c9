import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import type { Db } from '../db/schema.ts';
import { badRequest, notFound, unauthorized } from '../errors.ts';
import { text } from '../lib/input.ts';
import { errors, Field, Ok, Param } from '../lib/schemas.ts';
import { verifyPassword } from './passwords.ts';

const LoginBody = Type.Object({ password: Type.Optional(Field(4096)) });
type LoginBody = Static<typeof LoginBody>;
const Check = Type.Object({ admin: Type.Boolean() });
const ActionQuery = Type.Object({ action: Param() });

/** Every failed login takes this long, so failures look alike (SECURITY.md item 15). */
export const FAILED_LOGIN_DELAY_MS = 1000;

export interface AdminAuthOptions {
  adminHash: (db: Db) => Promise<string | undefined>;
}

/** Administrator authentication: `/api/auth/{check,login,logout}` and `/api/auth?action=`. */
export async function adminAuthRoutes(app: FastifyInstance, opts: AdminAuthOptions) {
  const check = (request: FastifyRequest) => ({ admin: request.viewer.isAdmin });

  const login = async (request: FastifyRequest) => {
    app.rateLimit.hit(request, 'login');
    const password = text((request.body as LoginBody | undefined)?.password) ?? '';
    if (password === '') throw badRequest('Password required');
    const stored = await opts.adminHash(app.db);
    if (!stored || !(await verifyPassword(stored, password))) {
      await sleep(FAILED_LOGIN_DELAY_MS);
      throw unauthorized('Invalid password');
    }
    request.session.regenerate();
    request.session.set('is_admin', true);
    request.session.set('admin_at', app.clock.now().toISOString());
    return { ok: true };
  };

  const logout = async (request: FastifyRequest) => {
    request.session.unset('is_admin');
    request.session.unset('admin_at');
    return { ok: true };
  };

  const common = { config: { guard: 'public' as const } };
  const loginSchema = {
    body: LoginBody,
    response: { 200: Ok, ...errors(400, 401, 429) },
  };

  app.get('/api/auth/check', { ...common, schema: { response: { 200: Check } } }, check);
  app.post('/api/auth/login', { ...common, schema: loginSchema }, login);
  app.post('/api/auth/logout', { ...common, schema: { response: { 200: Ok } } }, logout);

  app.get('/api/auth', { ...common, schema: { querystring: ActionQuery } }, async (request) => {
    if ((request.query as Static<typeof ActionQuery>).action === 'check') return check(request);
    throw notFound('Not found');
  });
  app.post(
    '/api/auth',
    { ...common, schema: { querystring: ActionQuery, body: LoginBody } },
    async (request) => {
      const action = (request.query as Static<typeof ActionQuery>).action;
      if (action === 'login') return login(request);
      if (action === 'logout') return logout(request);
      throw notFound('Not found');
    },
  );
}
