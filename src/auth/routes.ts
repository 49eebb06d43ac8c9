import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest, onResponseHookHandler } from 'fastify';
import type { Db } from '../db/schema.ts';
import { actorOf, audit } from '../audit/queries.ts';
import { fail } from '../errors.ts';
import { codePointLength, text } from '../lib/input.ts';
import { errors, OK, Ok } from '../lib/schemas.ts';
import { shortTag } from '../plugins/guest-tag.ts';
import { limit } from '../plugins/rate-limits.ts';
import { LIMITS } from '../shared/rules.ts';
import { adminGeneration, changeAdminPassword, passwordFromEnvironment } from './admin-password.ts';
import { verifyPassword } from './passwords.ts';
import { ActionBody, ActionQuery, Check, CheckQuery, LoginBody, PasswordBody } from './schemas.ts';

/** Every failed login takes this long, so failures look alike (SECURITY.md item 15). */
export const FAILED_LOGIN_DELAY_MS = 1000;

export interface AdminAuthOptions {
  adminHash: (db: Db) => Promise<string | undefined>;
}

/** Administrator authentication: `/api/auth/{check,login,logout}` and `/api/auth?action=`. */
export const adminAuthRoutes: FastifyPluginAsyncTypebox<AdminAuthOptions> = async (app, opts) => {
  const check = (request: FastifyRequest) => ({ admin: request.viewer.isAdmin });

  const login = async (request: FastifyRequest, body: { password?: unknown }) => {
    if (!app.config.adminPasswordLogin) throw fail('password_login_disabled');
    const password = text(body.password) ?? '';
    if (password === '') throw fail('password_required');
    const stored = await opts.adminHash(app.db);
    // Said in the log either way, with the caller's guest tag (never the address): guessing at
    // the shared password shows, and so does who came in.
    const caller = { guest_tag: shortTag(request.guestTag) };
    if (!stored || !(await verifyPassword(stored, password))) {
      request.log.warn(caller, 'administrator password refused');
      await app.clock.sleep(FAILED_LOGIN_DELAY_MS);
      throw fail('invalid_password');
    }
    signingIn.set(request, caller);
    request.session.regenerate();
    request.session.set('is_admin', true);
    request.session.set('admin_at', app.clock.now().toISOString());
    request.session.set('admin_gen', await adminGeneration(app.db));
    return OK;
  };

  // Said once the answer is sent, and only when it is 200: the session is written after the
  // handler (plugins/session.ts), and one that found no room (a full disk, a database away)
  // answers 503, in which nobody signed in.
  const signingIn = new WeakMap<FastifyRequest, { guest_tag: string }>();
  const saySignedIn: onResponseHookHandler = (request, reply, done) => {
    const caller = signingIn.get(request);
    if (caller && reply.statusCode === 200)
      request.log.info(caller, 'administrator signed in with the password');
    done();
  };

  const logout = async (request: FastifyRequest) => {
    request.session.unset('is_admin');
    request.session.unset('admin_at');
    request.session.unset('admin_gen');
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
      onResponse: saySignedIn,
      schema: {
        summary: 'Administrator login with the shared password (failures take 1 second)',
        body: LoginBody,
        response: { 200: Ok, ...errors(400, 401, 403, 429) },
      },
    },
    (request) => login(request, request.body),
  );
  app.put(
    '/api/auth/password',
    {
      config: { guard: 'admin' },
      schema: {
        summary:
          'Change the shared administrator password (at least 12 characters); every session that got ' +
          'the administrator flag from the password, this one included, loses it at once',
        body: PasswordBody,
        response: { 200: Ok, ...errors(400, 401, 409) },
      },
    },
    async (request) => {
      const password = text(request.body.password) ?? '';
      if (password === '') throw fail('password_required');
      if (codePointLength(password) < LIMITS.adminPasswordMin) throw fail('password_too_short');
      if (passwordFromEnvironment(app.config)) throw fail('password_from_environment');
      await changeAdminPassword(app.database, password, (trx) =>
        audit(trx, actorOf(request.viewer, app.clock.now()), { action: 'auth.password', params: {} }),
      );
      return OK;
    },
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
      onResponse: saySignedIn,
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
