import { escapeHtml } from '../lib/html.ts';
import { ICON_LINK, SITE_NAMES } from '../shared/site.ts';
import { PLAIN_PAGES } from '../shared/pages.ts';
import type { MailKind, MailLang } from '../shared/mail.ts';
import { WORDS } from './words.ts';

/**
 * The small pages a mail link opens: "address confirmed", the unsubscribe page whose button
 * posts the one-click unsubscription (the answer to that post, when a browser sends it, is this
 * page again saying it is done), and a link that no longer works. Plain HTML in both colour
 * schemes, no script.
 */
function shell(lang: MailLang, title: string, body: string): string {
  return `<!doctype html><html lang="${lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">${ICON_LINK}<title>${escapeHtml(title)} · ${escapeHtml(SITE_NAMES[lang])}</title>
<style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 1rem;line-height:1.5}
body{background:#fff;color:#111827}a{color:#1d4ed8}button{font:inherit;padding:.5rem 1rem;border-radius:.375rem;border:1px solid currentColor;background:transparent;color:inherit;cursor:pointer}
@media (prefers-color-scheme:dark){body{background:#111827;color:#e5e7eb}a{color:#93c5fd}}</style></head>
<body><main><h1>${escapeHtml(title)}</h1>${body}</main></body></html>`;
}

export function confirmedPage(lang: MailLang): string {
  const w = WORDS[lang];
  return shell(
    lang,
    w.confirmedTitle,
    `<p>${escapeHtml(w.confirmedText)}</p><p><a href="${PLAIN_PAGES.account}">${escapeHtml(w.backToSite)}</a></p>`,
  );
}

/** The unsubscribe page: what its button stops (the digest, a waiting address, or kinds named). */
export function unsubscribePage(
  lang: MailLang,
  what: 'digest' | 'confirm' | MailKind[],
  action: string,
): string {
  const w = WORDS[lang];
  const text =
    typeof what === 'string'
      ? w.unsubscribeText[what]
      : w.unsubscribeText.kinds(what.map((k) => w.kindName[k]).join(', '));
  return shell(
    lang,
    w.unsubscribeTitle,
    `<p>${escapeHtml(text)}</p><form method="post" action="${escapeHtml(action)}">` +
      `<input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">${escapeHtml(w.unsubscribeButton)}</button></form>`,
  );
}

export function unsubscribedPage(lang: MailLang): string {
  const w = WORDS[lang];
  return shell(
    lang,
    w.unsubscribeTitle,
    `<p>${escapeHtml(w.unsubscribedText)}</p><p><a href="/">${escapeHtml(w.backToSite)}</a></p>`,
  );
}

export function linkFailedPage(lang: MailLang, what: 'confirm' | 'unsubscribe'): string {
  const w = WORDS[lang];
  return shell(
    lang,
    w.linkFailedTitle,
    `<p>${escapeHtml(w.linkFailedText[what])}</p><p><a href="${PLAIN_PAGES.account}">${escapeHtml(w.toAccount)}</a></p>`,
  );
}
