import { escapeHtml } from '../lib/html.ts';
import { zoneOffset } from '../lib/time-zone.ts';
import { SITE_NAMES } from '../shared/site.ts';
import type { MailMessageKind } from '../db/schema.ts';
import type { MailLang } from '../shared/mail.ts';
import type { ConfirmPayload, DigestPayload, KindsPayload } from './compose.ts';
import { WORDS } from './words.ts';

/**
 * A queued message as it is sent: subject, plain text and HTML in the user's language. The HTML
 * is one column of plain elements with inline styles (what mail clients keep), declares both
 * colour schemes and swaps its colours under `prefers-color-scheme: dark`, so it reads in dark
 * mode; every text from users is escaped. nodemailer makes the MIME (multipart/alternative).
 */

export interface Written {
  subject: string;
  text: string;
  html: string;
}

export interface Links {
  baseUrl: string;
  /** The link of a confirmation message. */
  confirm: string | null;
  unsubscribe: string;
}

/** A subject or a line holds no line breaks or controls (whatever a name contains). */
const oneLine = (s: string) => s.replace(/[\p{Cc}\u2028\u2029]+/gu, ' ').trim();

/**
 * A day as each language writes it: the instant's day on the wall clock of the service's time
 * zone (TZ), the one the digest's week is cut in (mail/schedule.ts), so that a stream at 00:30
 * on Monday there is Monday's, not Sunday's as in UTC.
 */
function day(iso: string, lang: MailLang, timeZone: string): string {
  const ms = Date.parse(iso);
  return WORDS[lang].date(new Date(ms + zoneOffset(timeZone, ms)));
}

interface Line {
  text: string;
  href?: string;
  /** Someone's words under the line (a reply's or mention's comment), quoted. */
  quote?: string | null | undefined;
}

/** A list of lines (under a title), a paragraph per line (`prose`), or the message's one button. */
type Block = { title?: string; lines: Line[]; prose?: true } | { button: Line & { href: string } };

/** A message: its title, its blocks in order, and the footer (`why` the reader gets it). */
function page(lang: MailLang, title: string, blocks: Block[], links: Links, why = WORDS[lang].why): Written {
  const w = WORDS[lang];
  const site = SITE_NAMES[lang];
  const textParts = [title, ''];
  for (const b of blocks) {
    if ('button' in b) {
      textParts.push(`${b.button.text}: ${b.button.href}`, '');
      continue;
    }
    if (b.title) textParts.push(b.title, '');
    for (const l of b.lines) {
      textParts.push(l.href ? `- ${oneLine(l.text)}\n  ${l.href}` : oneLine(l.text));
      if (l.quote) textParts.push(`  > ${oneLine(l.quote)}`);
    }
    textParts.push('');
  }
  textParts.push('-- ', `${site} · ${links.baseUrl}`, why, `${w.stop}: ${links.unsubscribe}`);

  const a = (href: string, text: string) =>
    `<a href="${escapeHtml(href)}" class="l" style="color:#1d4ed8">${escapeHtml(text)}</a>`;
  const line = (l: Line) =>
    (l.href ? a(l.href, oneLine(l.text)) : escapeHtml(oneLine(l.text))) +
    (l.quote
      ? `<blockquote class="q" style="margin:4px 0 0;padding-left:10px;border-left:3px solid #d1d5db;color:#374151">${escapeHtml(oneLine(l.quote))}</blockquote>`
      : '');
  const body = blocks
    .map((b) => {
      if ('button' in b)
        return `<p style="margin:24px 0"><a href="${escapeHtml(b.button.href)}" class="b" style="background:#1d4ed8;color:#ffffff;padding:10px 16px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(b.button.text)}</a></p>`;
      if (b.prose) return b.lines.map((l) => `<p style="margin:0 0 12px">${line(l)}</p>`).join('');
      return (
        (b.title ? `<h2 style="font-size:16px;margin:20px 0 8px">${escapeHtml(b.title)}</h2>` : '') +
        `<ul style="padding-left:20px;margin:0">${b.lines.map((l) => `<li style="margin:4px 0">${line(l)}</li>`).join('')}</ul>`
      );
    })
    .join('');
  const html = `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<meta name="color-scheme" content="light dark"><meta name="supported-color-schemes" content="light dark"><title>${escapeHtml(title)}</title>
<style>:root{color-scheme:light dark}@media (prefers-color-scheme:dark){body,.c{background:#111827!important;color:#e5e7eb!important}.l{color:#93c5fd!important}.b{background:#3b82f6!important;color:#0b1120!important}.f{color:#9ca3af!important}.q{color:#d1d5db!important;border-color:#4b5563!important}}</style></head>
<body style="margin:0;padding:0;background:#ffffff;color:#111827"><div class="c" style="max-width:600px;margin:0 auto;padding:24px 16px;font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;font-size:15px;line-height:1.5;background:#ffffff;color:#111827">
<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(title)}</h1>${body}
<p class="f" style="margin-top:32px;font-size:13px;color:#4b5563">${a(links.baseUrl, site)} · ${escapeHtml(why)} ${a(links.unsubscribe, w.stop)}</p>
</div></body></html>`;
  return { subject: oneLine(title), text: textParts.join('\n'), html };
}

export function renderMessage(
  kind: MailMessageKind,
  payload: unknown,
  lang: MailLang,
  links: Links,
  /** The service's time zone (TZ): the days a digest names are its. */
  timeZone: string,
): Written {
  const w = WORDS[lang];
  const url = (path: string) => links.baseUrl + path;
  switch (kind) {
    case 'confirm': {
      void (payload as ConfirmPayload);
      // The link right after the sentence that asks for it; the footer says why this address got it.
      return page(
        lang,
        w.confirmSubject,
        [
          { lines: [{ text: w.confirmIntro }], prose: true },
          { button: { text: w.confirmButton, href: links.confirm ?? links.baseUrl } },
          { lines: [{ text: w.confirmValid }, { text: w.confirmNotYou }], prose: true },
        ],
        links,
        w.whyConfirm,
      );
    }
    case 'kinds': {
      const p = payload as KindsPayload;
      const lines: Line[] = p.items.map((i) => ({
        text: w.kind[i.kind](i.streamer, i.actor),
        href: url(i.path),
        quote: i.quote,
      }));
      if (p.more > 0) lines.push({ text: w.more(p.more), href: url('/') });
      const total = p.items.length + p.more;
      const title =
        total === 1 && p.items[0]
          ? w.kind[p.items[0].kind](p.items[0].streamer, p.items[0].actor)
          : w.kindsSubject(total);
      return page(lang, title, [{ lines }], links);
    }
    case 'digest': {
      const p = payload as DigestPayload;
      const sections: Block[] = [
        { lines: [{ text: w.digestIntro(day(p.from, lang, timeZone), day(p.to, lang, timeZone)) }] },
      ];
      if (p.ratings.length > 0) {
        sections.push({
          title: w.ratings,
          lines: p.ratings.map((r) => ({ text: `${r.streamer}: ${w.total(r.total)}`, href: url(r.path) })),
        });
      }
      if (p.streams.length > 0) {
        sections.push({
          title: w.streams,
          lines: p.streams.map((s) => ({
            text: `${s.streamer} (${day(s.at, lang, timeZone)})${s.title ? `: ${s.title}` : ''}`,
            href: url(s.path),
          })),
        });
      }
      if (p.replies.length > 0) {
        sections.push({
          title: w.replies,
          lines: p.replies.map((r) => ({ text: w.kind.reply(r.streamer, r.actor), href: url(r.path) })),
        });
      }
      // Its days are the service's zone's (TZ), not the reader's: said, for a reader elsewhere.
      sections.push({ lines: [{ text: w.digestZone(timeZone) }], prose: true });
      return page(lang, w.digestSubject, sections, links);
    }
  }
}
