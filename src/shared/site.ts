/**
 * The site's own name and description, in its default language (Czech): the page's head,
 * the Discord messages' sender, the share card and the badge's label all say the same.
 */
export const SITE_NAME = 'Hodnocení streamerů';
/**
 * The site's icon, named by every page the service writes besides the page itself (web/index.html):
 * without it a browser asks for `/favicon.ico`, a 404 in the console (the mail links' pages).
 */
export const ICON_LINK = '<link rel="icon" href="/favicon.svg" type="image/svg+xml">';
/** The name in each language the page speaks: its header and title, the e-mails and their pages. */
export const SITE_NAMES = { cs: SITE_NAME, en: 'Streamer rating' } as const;
export const SITE_DESCRIPTION = 'Komunitní hodnocení streamerů v sedmi kritériích';
