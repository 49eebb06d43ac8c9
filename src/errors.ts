/**
 * Every error the service answers, in one place: a stable code (DECISIONS.md "Third wave":
 * lower_snake_case), its HTTP status and its message exactly as SPEC.md and DECISIONS.md
 * word it. Answers carry `{"error": message, "code": code}`; the page translates by the code
 * (its type is imported from here, so a new code fails the page's check until it has words).
 */
export const ERRORS = {
  // Requests and routing
  bad_request: [400, 'Bad request'],
  invalid_json: [400, 'Invalid JSON'],
  invalid_input: [400, 'Invalid input'],
  payload_too_large: [413, 'Payload too large'],
  unsupported_media_type: [415, 'Unsupported media type'],
  header_too_large: [431, 'Request header fields too large'],
  request_timeout: [408, 'Request timeout'],
  not_found: [404, 'Not found'],
  method_not_allowed: [405, 'Method not allowed'],
  forbidden: [403, 'Forbidden'],
  too_many_requests: [429, 'Too many requests'],
  service_unavailable: [503, 'Service unavailable'],
  internal_error: [500, 'Internal error'],
  db_error: [500, 'DB error'],

  // Who may call
  unauthorized: [401, 'Unauthorized'],
  not_logged_in: [401, 'Not logged in'],
  admin_only: [403, 'Admin only'],
  owner_only: [403, 'Owner only'],
  banned: [403, 'Účet je zablokován'],
  address_blocked: [403, 'Z této adresy nyní nelze přispívat'],
  /** Issue 29: a moderator's time-out; the current-user answer says until when (`timeout_until`). */
  timed_out: [403, 'Účet je dočasně omezen'],
  /** Issue 29: a guest must solve the challenge the answer carries (`challenge`). */
  challenge_required: [428, 'Challenge required'],
  challenge_invalid: [400, 'Invalid challenge'],
  /** Issue 30 item 11: the `Idempotency-Key` header of a POST (idempotency/). */
  invalid_idempotency_key: [400, 'Idempotency-Key must be 1 to 255 printable ASCII characters'],
  idempotency_key_reused: [422, 'This Idempotency-Key was used for a different request'],
  idempotency_key_in_use: [409, 'A request with this Idempotency-Key is still being processed'],

  // Administrator password
  password_required: [400, 'Password required'],
  invalid_password: [401, 'Invalid password'],
  password_too_short: [400, 'Password must have at least 12 characters'],
  password_from_environment: [409, 'Password is set by the environment'],
  password_login_disabled: [403, 'Password login is disabled'],

  // Missing or malformed input
  missing_id: [400, 'Missing id'],
  missing_streamer_id: [400, 'Missing streamer_id'],
  missing_group_id: [400, 'Missing group_id'],
  missing_group_or_login: [400, 'Missing group_id or login'],
  missing_member_id: [400, 'Missing member id'],
  missing_comment_id: [400, 'Missing comment_id'],
  no_guest_tag: [400, 'This comment has no address to block'],
  missing_name: [400, 'Missing name'],
  missing_auth_enabled: [400, 'Missing auth_enabled'],
  name_empty: [400, 'Name cannot be empty'],
  nothing_to_update: [400, 'Nothing to update'],
  invalid_streamer_name: [400, 'Invalid streamer name'],
  /** A field of the wrong shape; the message names it (`Invalid kick_name`). */
  invalid_field: [400, 'Invalid <field>'],
  /** A `limit` outside its range or not an integer; the message names the range (lib/schemas.ts `Limit`). */
  invalid_limit: [400, 'limit must be an integer from 1 to <max>'],
  comment_too_short: [400, 'Komentář je příliš krátký'],
  comment_too_long: [400, 'Komentář je příliš dlouhý (max 1000 znaků)'],
  name_reserved: [400, 'Jméno je vyhrazeno'],
  use_ban_for_users: [400, 'Use a ban for signed-in users'],
  invalid_selector: [400, 'Give exactly one of ids, user_id or guest_tag'],
  invalid_action: [400, 'Invalid action'],
  team_has_no_streamer: [400, 'Team has no streamer'],
  invalid_reply_to: [400, 'Invalid reply_to'],
  confirmation_mismatch: [400, 'Confirmation does not match'],
  invalid_webhook_url: [400, 'Invalid webhook URL'],
  too_many_webhooks: [400, 'At most 5 webhooks'],
  /** `GET /api/streamers?sort=` anything but `audience` (DECISIONS.md "Audience score you can trust"). */
  invalid_sort: [400, 'Invalid sort'],
  /** `GET /api/comments?order=` anything but `newest` or `top` (DECISIONS.md "Comments: pinned and ordered"). */
  invalid_order: [400, 'Invalid order'],
  /** An `offset` outside 0 to 10,000 or not an integer: worded as `invalid_limit`, naming its range. */
  invalid_offset: [400, 'offset must be an integer from 0 to 10000'],
  /** Pinning a reply, a hidden comment or one held for a moderator. */
  cannot_pin: [400, 'Cannot pin this comment'],
  /** DECISIONS.md "Fifth wave" → "Following": the 501st streamer followed. */
  too_many_follows: [400, 'Too many follows'],
  /** DECISIONS.md "Fifth wave" → "Words and repeats": `hold_words` not a list of 2 to 60 characters each, at most 200. */
  invalid_word_list: [400, 'Invalid word list'],
  /** DECISIONS.md "Staff reviews": a publish without a review that is not an abstention. */
  no_reviews: [400, 'No reviews'],
  /** A re-rating request's reason outside 10 to 500 characters (trimmed). */
  invalid_reason: [400, 'Invalid reason'],
  /** DECISIONS.md "Fifth wave" → "Push notifications": an endpoint, key or kind that is not one. */
  invalid_subscription: [400, 'Invalid subscription'],
  /** DECISIONS.md "Fifth wave" → "E-mail": an address that is not one (shared/mail.ts `validAddress`). */
  invalid_email: [400, 'Invalid e-mail address'],
  /** A confirmation or unsubscribe link that is unknown, used or expired. */
  invalid_link: [400, 'Invalid or expired link'],
  /** DECISIONS.md "Fifth wave" → "Schedules": a hand-kept schedule outside its rules. */
  invalid_schedule: [400, 'Invalid schedule'],
  /** `GET /api/schedule?days=` outside 1 to 14: worded as `invalid_limit`, naming its range. */
  invalid_days: [400, 'days must be an integer from 1 to 14'],

  // Rows that are not there
  streamer_not_found: [404, 'Streamer not found'],
  comment_not_found: [404, 'Comment not found'],
  group_not_found: [404, 'Group not found'],
  member_not_found: [404, 'Member not found'],
  user_not_found: [404, 'User not found'],
  block_not_found: [404, 'Block not found'],
  webhook_not_found: [404, 'Webhook not found'],
  subscription_not_found: [404, 'Subscription not found'],
  delivery_not_found: [404, 'Delivery not found'],
  /** Add-member: the message names the login and provider (SPEC.md). */
  user_not_signed_in: [404, "User '<login>' on <provider> has not logged in yet or is banned."],

  // Rules and conflicts
  sign_in_required: [401, 'Pro komentování je vyžadováno přihlášení'],
  not_a_member: [403, 'Not a member of this team'],
  not_your_comment: [403, 'Not your comment'],
  /** The right of reply by someone who does not speak for the streamer (issue 26). */
  not_your_channel: [403, 'Not your channel'],
  edit_window_closed: [403, 'Edit window closed'],
  /** A pin by someone neither staff nor speaking for the comment's streamer. */
  not_allowed: [403, 'Not allowed'],
  community_locked: [423, 'Community ratings are locked'],
  streamer_exists: [409, 'Streamer already exists'],
  group_name_exists: [409, 'Group name already exists'],
  streamer_has_team: [409, 'This streamer already has a team'],
  banned_user_admin: [409, 'A banned user cannot be an administrator'],
  rating_changed: [409, 'The rating was changed by someone else'],
  webhook_disabled: [409, 'Webhook is disabled'],
  /** With `refuse_repeats` on: the author's comment of the last 10 minutes again ("Words and repeats"). */
  duplicate_comment: [409, 'Duplicate comment'],
  /** DECISIONS.md "Staff reviews": a second open re-rating request, or one within 90 days of a publish. */
  request_open: [409, 'Request already open'],
  rated_recently: [409, 'Rated recently'],
  /** SMTP_URL and MAIL_FROM unset: the e-mail endpoints say so. */
  mail_off: [409, 'E-mail is not configured'],
  /** A hand-kept schedule for a provider_a streamer: live sync reads it from Twitch. */
  schedule_from_provider: [409, 'Schedule is read from Twitch'],
} as const satisfies Record<string, readonly [number, string]>;

export type ErrorCode = keyof typeof ERRORS;

/** The body of every error answer. */
export interface ErrorAnswer {
  error: string;
  code: ErrorCode;
}

export function errorBody(code: ErrorCode): ErrorAnswer {
  return { error: ERRORS[code][1], code };
}

/**
 * The one error type of the service. The error handler plugin turns it into
 * `{"error": message, "code": code}` with the catalogue's status.
 */
export class DomainError extends Error {
  readonly statusCode: number;
  readonly code: ErrorCode;
  readonly headers: Readonly<Record<string, string>>;
  /** Members the answer carries beside `error` and `code` (`challenge`). */
  readonly extra: Readonly<Record<string, unknown>>;

  constructor(
    code: ErrorCode,
    opts: { headers?: Record<string, string>; message?: string; extra?: Record<string, unknown> } = {},
  ) {
    const [status, message] = ERRORS[code];
    super(opts.message ?? message);
    this.name = 'DomainError';
    this.code = code;
    this.statusCode = status;
    this.headers = opts.headers ?? {};
    this.extra = opts.extra ?? {};
  }
}

/** Throwable error of the catalogue. */
export const fail = (code: ErrorCode, headers?: Record<string, string>) => new DomainError(code, { headers });

/** SPEC.md's add-member message, which names the login and the provider. */
export const userNotSignedIn = (login: string, provider: string) =>
  new DomainError('user_not_signed_in', {
    message: `User '${login}' on ${provider} has not logged in yet or is banned.`,
  });

/**
 * An id the request must name, asked for once the caller has passed (DECISIONS.md "Errors":
 * authentication and role, 401/403, come before missing input, 400): operations whose caller
 * rule depends on the data take the id as parsed, null when missing.
 */
export function givenId(
  id: number | null,
  code: 'missing_id' | 'missing_streamer_id' = 'missing_id',
): number {
  if (id === null) throw fail(code);
  return id;
}
