import { type Role, rolePolicy, type Who } from '../shared/roles.ts';

/** Who may use the moderation queue, bulk actions and address blocks. Pure (the page imports it). */
export const MODERATION_ROLES = { moderate: 'adminOrModerator' } as const satisfies Record<string, Role>;

export const mayModerate = rolePolicy(MODERATION_ROLES.moderate);

/** Address blocks are for guests: a signed-in author's comment gets `Use a ban for signed-in users`. */
export const mayBlockAuthorOf = (who: Who, comment: { user_id: number | null }): boolean =>
  mayModerate(who) && comment.user_id === null;
