import { readFileSync } from 'node:fs';
import { loadZone, systemZone } from '../lib/time-zone.ts';
import { validAddress } from '../shared/mail.ts';
import { ConfigError } from './values.ts';

export interface MailConfig {
  /** SMTP_URL: `smtp://` or `smtps://[user:pass@]host[:port]` (a secret: never logged). */
  readonly smtpUrl: string;
  /** MAIL_FROM: the sender, an address or `Name <address>`. */
  readonly from: string;
  /** Optional DKIM signing, as nodemailer's `dkim` option takes it. */
  readonly dkim: {
    readonly domainName: string;
    readonly keySelector: string;
    readonly privateKey: string;
  } | null;
  /** The service's time zone (TZ, else the system's): the weekly digest goes on Monday 08:00 there. */
  readonly timeZone: string;
}

const DKIM = ['MAIL_DKIM_DOMAIN', 'MAIL_DKIM_SELECTOR', 'MAIL_DKIM_KEY_FILE'] as const;

/**
 * E-mail (DECISIONS.md "Fifth wave" → "E-mail"): SMTP_URL and MAIL_FROM turn it on, both or
 * neither; one alone stops the start naming the other. DKIM's three settings likewise go
 * together, and the key file is read once here, so a missing file stops the start.
 */
export function mailConfig(get: (name: string) => string | undefined): MailConfig | null {
  const smtpUrl = get('SMTP_URL');
  const from = get('MAIL_FROM');
  const dkim = DKIM.map((name) => get(name));
  if (smtpUrl === undefined || from === undefined) {
    if (smtpUrl !== undefined)
      throw new ConfigError('MAIL_FROM', 'must be set with SMTP_URL (the sender address)');
    if (from !== undefined)
      throw new ConfigError(
        'SMTP_URL',
        'must be set with MAIL_FROM (smtp:// or smtps://user:pass@host:port)',
      );
    const orphan = DKIM.find((_, i) => dkim[i] !== undefined);
    if (orphan) throw new ConfigError(orphan, 'needs SMTP_URL and MAIL_FROM (e-mail is off without them)');
    return null;
  }
  let url: URL;
  try {
    url = new URL(smtpUrl);
  } catch {
    throw new ConfigError('SMTP_URL', 'must be smtp:// or smtps://user:pass@host:port');
  }
  if ((url.protocol !== 'smtp:' && url.protocol !== 'smtps:') || url.hostname === '') {
    throw new ConfigError('SMTP_URL', 'must be smtp:// or smtps://user:pass@host:port');
  }
  // The address by the rule a user's own is held to (a dot in the domain: receiving servers
  // refuse a sender at `localhost` or a bare host name, whose domain can have no SPF or MX).
  const address = /<([^<>]+)>\s*$/.exec(from)?.[1] ?? from;
  if (/[\r\n]/.test(from) || !validAddress(address)) {
    throw new ConfigError(
      'MAIL_FROM',
      'must be an address with a dot in its domain (name@example.org) or "Name <name@example.org>"',
      from,
    );
  }
  const [domainName, keySelector, keyFile] = dkim;
  let signing: MailConfig['dkim'] = null;
  if (domainName !== undefined || keySelector !== undefined || keyFile !== undefined) {
    if (domainName === undefined || keySelector === undefined || keyFile === undefined) {
      const missing = DKIM.find((_, i) => dkim[i] === undefined) ?? 'MAIL_DKIM_KEY_FILE';
      throw new ConfigError(missing, `must be set with ${DKIM.filter((n) => n !== missing).join(' and ')}`);
    }
    let privateKey: string;
    try {
      privateKey = readFileSync(keyFile, 'utf8');
    } catch {
      throw new ConfigError('MAIL_DKIM_KEY_FILE', 'must name a readable PEM private key file', keyFile);
    }
    if (!privateKey.includes('PRIVATE KEY')) {
      throw new ConfigError('MAIL_DKIM_KEY_FILE', 'must hold a PEM private key', keyFile);
    }
    signing = Object.freeze({ domainName, keySelector, privateKey });
  }
  return Object.freeze({ smtpUrl, from, dkim: signing, timeZone: timeZoneOf(get('TZ')) });
}

/** TZ as a zone of the system's time zone database (`Europe/Prague`, `UTC`); unset: the system's. */
function timeZoneOf(tz: string | undefined): string {
  const zone = tz?.replace(/^:/, '');
  if (zone === undefined) return systemZone();
  if (!loadZone(zone)) throw new ConfigError('TZ', 'must be a time zone such as Europe/Prague or UTC', tz);
  return zone;
}
