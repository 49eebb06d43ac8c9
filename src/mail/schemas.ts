import { Type } from 'typebox';
import {
  ErrorBody,
  errors,
  Field,
  Html,
  Input,
  Lenient,
  Nullable,
  Ok,
  Param,
  StringEnum,
} from '../lib/schemas.ts';
import { MAIL_DIGESTS, MAIL_KINDS, MAIL_LANGS, MAIL_LIMITS } from '../shared/mail.ts';

const Lang = Lenient(
  StringEnum(MAIL_LANGS, {
    description:
      'The language of the messages (the page’s); kept from before, or from Accept-Language, when left out',
  }),
);

export const MailChoice = Type.Object(
  {
    kinds: Type.Array(StringEnum(MAIL_KINDS), {
      description: 'Notification kinds sent as they happen (at most one message per 10 minutes)',
    }),
    digest: StringEnum(MAIL_DIGESTS, { description: '`weekly`: Monday 08:00 in the service’s time zone' }),
  },
  { title: 'MailChoice' },
);

export const setEmailSchema = {
  summary:
    'Set your e-mail address (a message with a confirmation link valid 24 hours; the address is used once ' +
    `confirmed; at most ${MAIL_LIMITS.confirmsPerDay} a day) or remove it with \`email: null\``,
  body: Input(
    {
      email: Field(
        'invalid_email',
        Nullable(
          Type.String({
            maxLength: MAIL_LIMITS.addressMax,
            description: 'One `@`, a dot in the domain; null removes it',
          }),
        ),
      ),
      lang: Lang,
    },
    ['email'],
  ),
  response: { 200: Ok, ...errors(400, 401, 403, 409, 429) },
};

/** A mail link that no longer works: DECISIONS.md's 400, or a page saying so for a browser. */
const LinkFailed = {
  description: '`Invalid or expired link`; a browser (Accept: text/html) gets a page saying so',
  content: {
    'application/json': { schema: ErrorBody },
    'text/html': { schema: Type.String({ description: 'An HTML page' }) },
  },
};

export const confirmEmailSchema = {
  summary: 'The confirmation link: the address waiting becomes yours; a page says so',
  querystring: Input({ token: Param(Type.String({ description: 'From the link' })) }, ['token']),
  response: { 200: Html('The address is confirmed'), 400: LinkFailed, ...errors(409) },
};

export const getMailSchema = {
  summary: 'What you get by e-mail',
  response: { 200: MailChoice, ...errors(401, 409) },
};

export const setMailSchema = {
  summary:
    'Choose what you get by e-mail: kinds as they happen and the weekly digest (a field left out stays)',
  body: Input({
    kinds: Lenient(MailChoice.properties.kinds),
    digest: Lenient(MailChoice.properties.digest),
    lang: Lang,
  }),
  response: { 200: Ok, ...errors(400, 401, 403, 409) },
};

const Token = Input({ token: Param(Type.String({ description: 'From the message’s List-Unsubscribe' })) }, [
  'token',
]);

export const unsubscribeSchema = {
  summary:
    'One-click unsubscribe (RFC 8058): no session, no CSRF token; turns off the kind or the digest of the ' +
    'message the token came in. A browser’s form post (Accept: text/html) gets a page',
  querystring: Token,
  response: {
    200: {
      description: '`{ok: true}`, or a page for a browser',
      content: {
        'application/json': { schema: Ok },
        'text/html': { schema: Type.String({ description: 'An HTML page' }) },
      },
    },
    400: LinkFailed,
    ...errors(409),
  },
};

export const unsubscribePageSchema = {
  summary: 'The unsubscribe page: a button that posts the unsubscription',
  querystring: Token,
  response: { 200: Html('A page with a button'), 400: LinkFailed, ...errors(409) },
};
