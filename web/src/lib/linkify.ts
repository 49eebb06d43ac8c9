/** A comment's text cut into plain parts and http(s) links (DECISIONS.md "Comments"). */
export type Part = { text: string; href?: string };

const URL_RE = /\bhttps?:\/\/[^\s<>"']+/gi;

export function linkify(body: string): Part[] {
  const parts: Part[] = [];
  let last = 0;
  for (const m of body.matchAll(URL_RE)) {
    let url = m[0];
    // Sentence punctuation after a link is not part of it.
    const trail = /[.,!?;:)\]]+$/.exec(url)?.[0] ?? '';
    url = url.slice(0, url.length - trail.length);
    const start = m.index;
    let href: string | undefined;
    try {
      const parsed = new URL(url);
      if (parsed.protocol === 'http:' || parsed.protocol === 'https:') href = parsed.href;
    } catch {
      href = undefined;
    }
    if (!href) continue;
    if (start > last) parts.push({ text: body.slice(last, start) });
    parts.push({ text: url, href });
    last = start + url.length;
  }
  if (last < body.length) parts.push({ text: body.slice(last) });
  return parts;
}
