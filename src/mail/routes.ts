import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { DomainError, fail } from '../errors.ts';
import { methodNotAllowed } from '../lib/method-not-allowed.ts';
import { OK } from '../lib/schemas.ts';
import {
  MAIL_DIGESTS,
  MAIL_KINDS,
  MAIL_LANGS,
  type MailDigest,
  type MailKind,
  type MailLang,
  validAddress,
} from '../shared/mail.ts';
import {
  confirmAddress,
  isConfirmSubject,
  mailChoice,
  setAddress,
  setMailChoice,
  unsubscribe,
} from './account.ts';
import { confirmedPage, linkFailedPage, unsubscribedPage, unsubscribePage } from './pages.ts';
import { MAIL_ROLES, mayChangeMail } from './policy.ts';
import { findToken, mailSettings, parseKinds } from './queries.ts';
import {
  confirmEmailSchema,
  getMailSchema,
  setEmailSchema,
  setMailSchema,
  unsubscribePageSchema,
  unsubscribeSchema,
} from './schemas.ts';
import { hashToken } from './tokens.ts';

/** The messages' language from the body (the page sends its own), else Accept-Language's first; null keeps the stored one. */
function langOf(request: FastifyRequest, given: unknown): MailLang | null {
  if (typeof given === 'string' && (MAIL_LANGS as readonly string[]).includes(given))
    return given as MailLang;
  const accept = request.headers['accept-language'];
  return typeof accept === 'string' && /^\s*en\b/i.test(accept) ? 'en' : null;
}

const kindsOf = (v: unknown): MailKind[] | null =>
  Array.isArray(v) && v.every((k) => typeof k === 'string' && (MAIL_KINDS as readonly string[]).includes(k))
    ? (v as MailKind[])
    : null;

/** A one-click POST's body is `List-Unsubscribe=One-Click` in a small multipart envelope. */
const ONE_CLICK_BODY_LIMIT = 4096;

const htmlWanted = (request: FastifyRequest) => /\btext\/html\b/.test(request.headers.accept ?? '');

/**
 * A mail link that no longer works, opened in a browser (used, expired, replaced by a newer one,
 * or opened first by a mail scanner): the same 400, as a page in the reader's language that says
 * where to go; any other client gets DECISIONS.md's JSON.
 */
async function orFailedPage<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  what: 'confirm' | 'unsubscribe',
  answer: () => Promise<T>,
): Promise<T | FastifyReply> {
  try {
    return await answer();
  } catch (err) {
    if (!(err instanceof DomainError && err.code === 'invalid_link' && htmlWanted(request))) throw err;
    return reply
      .code(400)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .send(linkFailedPage(langOf(request, undefined) ?? 'cs', what));
  }
}

/**
 * DECISIONS.md "Fifth wave" → "E-mail": a user's address and what they get by mail, and the
 * links in the messages. With SMTP_URL and MAIL_FROM unset every route answers 409 `mail_off`.
 */
export const mailRoutes: FastifyPluginAsyncTypebox<{ key: string }> = async (app, { key }) => {
  const { ctx } = app;
  const on = () => {
    if (!app.config.mail) throw fail('mail_off');
  };
  /**
   * Who writes: a banned user's 403 comes before a malformed body's 400, and that before e-mail's
   * 409 (DECISIONS.md "Errors": the role, the input, then the conflict); the route calls `on`.
   */
  const writer = (request: FastifyRequest) => {
    const user = request.viewer.user;
    if (!mayChangeMail(request.viewer) || !user) throw fail('banned');
    return user;
  };

  app.put(
    '/api/account/email',
    { config: { guard: MAIL_ROLES.change, contribution: true }, schema: setEmailSchema },
    async (request) => {
      const user = writer(request);
      const { email } = request.body;
      if (email !== null && (typeof email !== 'string' || !validAddress(email))) throw fail('invalid_email');
      on();
      await setAddress(ctx, key, user.id, email, langOf(request, request.body.lang));
      return OK;
    },
  );

  app.get(
    '/api/account/email/confirm',
    { config: { guard: MAIL_ROLES.link, session: false }, schema: confirmEmailSchema },
    async (request, reply) => {
      on();
      return orFailedPage(request, reply, 'confirm', async () => {
        const token = request.query.token ?? '';
        if (token === '') throw fail('invalid_link');
        const lang = await confirmAddress(ctx, token);
        return reply
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .send(confirmedPage(lang));
      });
    },
  );

  app.get(
    '/api/account/mail',
    { config: { guard: MAIL_ROLES.read }, schema: getMailSchema },
    async (request, reply) => {
      on();
      const user = request.viewer.user;
      if (!user) throw fail('not_logged_in');
      reply.header('cache-control', 'no-store');
      return mailChoice(ctx, user.id);
    },
  );

  app.put(
    '/api/account/mail',
    { config: { guard: MAIL_ROLES.change, contribution: true }, schema: setMailSchema },
    async (request) => {
      const user = writer(request);
      const { body } = request;
      const given = body.kinds === undefined ? undefined : kindsOf(body.kinds);
      if (given === null) throw new DomainError('invalid_field', { message: 'Invalid kinds' });
      if (body.digest !== undefined && !(MAIL_DIGESTS as readonly unknown[]).includes(body.digest)) {
        throw new DomainError('invalid_field', { message: 'Invalid digest' });
      }
      on();
      const current = await mailChoice(ctx, user.id);
      const kinds = given ?? current.kinds;
      const digest = body.digest ?? current.digest;
      await setMailChoice(ctx, user.id, { kinds, digest: digest as MailDigest }, langOf(request, body.lang));
      return OK;
    },
  );

  // The one-click unsubscription comes from mail clients' servers, or this site's own page:
  // no session and no CSRF check (the token is the right; plugins/csrf.ts `crossSite`). RFC 8058
  // says its body SHOULD be multipart/form-data: accepted here, on this route alone, and not
  // read (the token in the address is all that counts), as a form-encoded body is not.
  await app.register(async (scope: typeof app) => {
    scope.addContentTypeParser(
      'multipart/form-data',
      { parseAs: 'buffer', bodyLimit: ONE_CLICK_BODY_LIMIT },
      (_request, _body, done) => done(null, {}),
    );
    scope.post(
      '/api/mail/unsubscribe',
      { config: { guard: MAIL_ROLES.link, session: false, crossSite: true }, schema: unsubscribeSchema },
      async (request, reply) => {
        on();
        return orFailedPage(request, reply, 'unsubscribe', async () => {
          const lang = await unsubscribe(ctx, request.query.token ?? '');
          reply.header('cache-control', 'no-store');
          if (htmlWanted(request)) return reply.type('text/html; charset=utf-8').send(unsubscribedPage(lang));
          return OK;
        });
      },
    );
  });

  app.get(
    '/api/mail/unsubscribe',
    { config: { guard: MAIL_ROLES.link, session: false }, schema: unsubscribePageSchema },
    async (request, reply) => {
      on();
      return orFailedPage(request, reply, 'unsubscribe', async () => {
        const token = request.query.token ?? '';
        const row = token === '' ? undefined : await findToken(app.db, hashToken(token), 'unsubscribe');
        if (!row) throw fail('invalid_link');
        const lang = (await mailSettings(app.db, row.user_id))?.lang ?? 'cs';
        const what =
          row.subject === 'digest'
            ? 'digest'
            : isConfirmSubject(row.subject)
              ? 'confirm'
              : parseKinds(row.subject);
        const action = `/api/mail/unsubscribe?token=${encodeURIComponent(token)}`;
        return reply
          .type('text/html; charset=utf-8')
          .header('cache-control', 'no-store')
          .header('referrer-policy', 'no-referrer')
          .send(unsubscribePage(lang, what, action));
      });
    },
  );

  methodNotAllowed(app, '/api/account/email', ['PUT']);
  methodNotAllowed(app, '/api/account/email/confirm', ['GET']);
  methodNotAllowed(app, '/api/account/mail', ['GET', 'PUT']);
  methodNotAllowed(app, '/api/mail/unsubscribe', ['GET', 'POST']);
};
