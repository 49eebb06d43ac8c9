import type { AppContext } from '../context.ts';
import { escapeHtml } from '../lib/html.ts';
import { SITE_DESCRIPTION, SITE_NAME } from '../shared/site.ts';
import { CARD_HEIGHT, CARD_WIDTH } from '../images/card.ts';
import { routeOf } from '../shared/pages.ts';
import {
  cardPath,
  commentsFeedPath,
  FEED_PATH,
  PROVIDER_NAMES,
  scoreSum,
  streamerPath,
} from '../shared/rules.ts';
import { itemsOf, listedItems } from '../streamers/views.ts';
import { streamerExists } from '../catalogue/exists.ts';

/**
 * The page's own addresses (DECISIONS.md "Streamer pages"): `/s/<id>[-<slug>]`, `/suggest`,
 * `/privacy`, `/your-data`, `/team`, `/upcoming`, `/admin[/<tab>]` answer with the page's HTML, whose title and Open Graph tags name the
 * streamer when it is in the Public view, so a link shared on Discord shows who it is.
 */

const GENERIC_TITLE = SITE_NAME;
const GENERIC_DESCRIPTION = SITE_DESCRIPTION;

export interface Head {
  title: string;
  description: string;
  url: string;
  /** The share card's absolute address (DECISIONS.md "Reaching out"), for streamers in the Public view. */
  image?: string;
  /** The Atom feeds of the page (DECISIONS.md "Feeds"), absolute. */
  feeds?: { title: string; href: string }[];
}

/** The index HTML with `head`'s title and Open Graph tags in place of the built title. */
export function withHead(index: string, head: Head): string {
  const tags = [
    `<title>${escapeHtml(head.title)}</title>`,
    `<meta name="description" content="${escapeHtml(head.description)}" />`,
    `<meta property="og:type" content="website" />`,
    `<meta property="og:site_name" content="${GENERIC_TITLE}" />`,
    `<meta property="og:title" content="${escapeHtml(head.title)}" />`,
    `<meta property="og:description" content="${escapeHtml(head.description)}" />`,
    `<meta property="og:url" content="${escapeHtml(head.url)}" />`,
    ...(head.image
      ? [
          `<meta property="og:image" content="${escapeHtml(head.image)}" />`,
          `<meta property="og:image:width" content="${CARD_WIDTH}" />`,
          `<meta property="og:image:height" content="${CARD_HEIGHT}" />`,
          `<meta property="og:image:alt" content="${escapeHtml(head.title)}" />`,
          `<meta name="twitter:card" content="summary_large_image" />`,
          `<meta name="twitter:image" content="${escapeHtml(head.image)}" />`,
        ]
      : [`<meta name="twitter:card" content="summary" />`]),
    `<meta name="twitter:title" content="${escapeHtml(head.title)}" />`,
    ...(head.feeds ?? []).map(
      (f) =>
        `<link rel="alternate" type="application/atom+xml" title="${escapeHtml(f.title)}" href="${escapeHtml(f.href)}" />`,
    ),
  ].join('\n    ');
  return index.replace(/<title>[^<]*<\/title>/, () => tags);
}

type PageAnswer = { status: 200 | 404; head: Head } | null;

/** What a page path answers: its status and head, or null when it is not a page path. */
export async function pageFor(ctx: AppContext, path: string, baseUrl: string): Promise<PageAnswer> {
  const ratings = { title: GENERIC_TITLE, href: baseUrl + FEED_PATH };
  const generic = (status: 200 | 404, p = path): PageAnswer => ({
    status,
    head: { title: GENERIC_TITLE, description: GENERIC_DESCRIPTION, url: baseUrl + p, feeds: [ratings] },
  });
  const route = routeOf(path);
  if (route.name === 'notFound') return null;
  if (route.name !== 'streamer') return generic(200);
  const { id } = route;
  const item = itemsOf(await listedItems(ctx, 'public')).find((s) => s.id === id);
  if (!item) return (await streamerExists(ctx.db, id)) ? generic(200) : generic(404);
  const platform = PROVIDER_NAMES[item.platform];
  return {
    status: 200,
    head: {
      title: `${item.name} – ${GENERIC_TITLE}`,
      description: `${item.name} (${platform}): hodnocení ${scoreSum(item.r)} / 70, odměna ${item.reward}. ${GENERIC_DESCRIPTION}.`,
      url: baseUrl + streamerPath(item.id, item.name),
      image: baseUrl + cardPath(item.id),
      feeds: [ratings, { title: `${item.name} – komentáře`, href: baseUrl + commentsFeedPath(item.id) }],
    },
  };
}
