import { createRequire } from 'node:module';
import type nodemailer from 'nodemailer';
import type MailComposer from 'nodemailer/lib/mail-composer';
import type webpush from 'web-push';
import type ical from 'ical-generator';
import type { Feed } from 'feed';

/**
 * Dependencies that only some services or some requests need, loaded at their first use
 * instead of at every start: e-mail's SMTP client (only with SMTP_URL set), Web Push's
 * protocol (the first message), the calendar's and the feeds'
 * writers (their first request). The bundle leaves them out (scripts/bundle.js reads
 * LAZY_MODULES), so a service that never sends mail neither reads nor keeps their code.
 */
export const LAZY_MODULES = ['nodemailer', 'web-push', 'ical-generator', 'feed'] as const;

const require = createRequire(import.meta.url);

function lazy<T>(name: (typeof LAZY_MODULES)[number], pick: (module: never) => T): () => T {
  let loaded: T | undefined;
  return () => (loaded ??= pick(require(name) as never));
}

/** nodemailer's transports, and its composer of MIME messages (mail/sender.ts builds each in one piece). */
export const loadNodemailer = lazy('nodemailer', (m: typeof nodemailer) => ({
  createTransport: m.createTransport,
  MailComposer: require('nodemailer/lib/mail-composer') as typeof MailComposer,
}));
export const loadWebPush = lazy('web-push', (m: typeof webpush) => m);
export const loadIcal = lazy('ical-generator', (m: { default: typeof ical }) => m.default);
export const loadFeed = lazy('feed', (m: { Feed: typeof Feed }) => m.Feed);
