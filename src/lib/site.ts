/**
 * The site's own name and description, in its default language (Czech): the page's head,
 * the Discord messages' sender, the share card and the badge's label all say the same.
 */
export const SITE_NAME = 'Hodnocení streamerů';
export const SITE_DESCRIPTION = 'Komunitní hodnocení streamerů v sedmi kritériích';
