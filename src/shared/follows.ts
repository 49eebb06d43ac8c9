/** DECISIONS.md "Fifth wave" → "Following": the streamers one user may follow at most. */
export const FOLLOW_LIMIT = 500;
