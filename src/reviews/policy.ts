import { isStaff, type Role, type Who } from '../shared/roles.ts';

/**
 * Who may do what with staff reviews (DECISIONS.md "Staff reviews"). Pure: the page imports it
 * for its Reviews tab and the streamer's re-rating form.
 */
export const REVIEW_ROLES = {
  /** Staff read reviews and their queue. */
  read: 'adminOrModerator',
  /**
   * Writes let a banned session through: the operation answers 403 `banned` (the fifth wave's
   * rule for every new write) before 401; publishing is the administrator's, a request the
   * streamer's (who speaks for it is a rule of the data, catalogue/speaks-for.ts).
   */
  write: 'public',
} as const satisfies Record<string, Role>;

/** Staff review and abstain. */
export const mayReview = (who: Who): boolean => isStaff(who);

/** The administrator publishes the reviews as the rating. */
export const mayPublish = (who: Who): boolean => who.isAdmin;

/** The user who speaks for the streamer asks for a re-rating (staff too, when it is their channel). */
export const mayRequest = (who: Who, speaksFor: readonly number[], streamerId: number): boolean =>
  who.user !== null && speaksFor.includes(streamerId);
