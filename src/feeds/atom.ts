import { escapeXml, xmlChars } from '../lib/html.ts';
import { loadFeed } from '../lib/lazy-modules.ts';
import { SITE_DESCRIPTION, SITE_NAME } from '../shared/site.ts';

/** An entry as our feeds have them; its text is plain and becomes escaped HTML in the feed. */
export interface Entry {
  id: string;
  title: string;
  link: string;
  updated: string;
  published?: string;
  author?: string;
  text?: string;
}

/**
 * An Atom 1.0 document (the `feed` package). Titles and bodies are plain text: written into
 * the package's HTML-typed elements escaped, so a reader shows `<b>` as typed and never
 * runs it. The feed's `updated` is its newest entry's (or the epoch): the same entries make
 * the same bytes, and so the same ETag.
 */
export function atom(opts: {
  id: string;
  title: string;
  link: string;
  self: string;
  entries: Entry[];
}): string {
  const Feed = loadFeed();
  const feed = new Feed({
    id: opts.id,
    title: xmlChars(opts.title),
    description: SITE_DESCRIPTION,
    link: opts.link,
    feedLinks: { atom: opts.self },
    updated: new Date(opts.entries[0]?.updated ?? 0),
    generator: false,
    copyright: SITE_NAME,
  });
  for (const e of opts.entries) {
    feed.addItem({
      id: e.id,
      title: escapeXml(e.title),
      link: e.link,
      date: new Date(e.updated),
      ...(e.published ? { published: new Date(e.published) } : {}),
      ...(e.author ? { author: [{ name: xmlChars(e.author) }] } : {}),
      ...(e.text ? { content: escapeXml(e.text).replace(/\n/g, '<br>') } : {}),
    });
  }
  return feed.atom1();
}
