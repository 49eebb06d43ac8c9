/**
 * SPEC.md's Public view, told from a streamer's item (`GET /api/streamers`): evaluated, with a
 * rating (`rated_at` is the rating row's time, null while it has none). The service asks the same
 * rule of its rows as one SQL condition (catalogue/public-view.ts `IN_PUBLIC_VIEW`), which the
 * public list filters by; test/streamers-views.test.ts holds the two equal on every item of the
 * full list. The page asks it before it offers what only a streamer of the view takes (a follow,
 * a vote, a reply, a badge). Pure: the page imports this module.
 */
export const itemInPublicView = (item: { evaluated: boolean; rated_at: string | null }): boolean =>
  item.evaluated && item.rated_at !== null;
