import { type Static, Type } from 'typebox';
import type { ErrorCode } from '../errors.ts';
import {
  DOCUMENTED,
  Field,
  FlagDoc,
  IdDoc,
  Input,
  Lenient,
  Limit,
  Nullable,
  Ok,
  Param,
  StringEnum,
  Timestamp,
} from '../lib/schemas.ts';
import { AUDIENCE_SORT, LIMITS, PROVIDERS, SCORE_KEYS } from '../shared/rules.ts';
import { GUEST_NAME_RULE } from '../guests/names.ts';
import { Stats30d } from '../history/schemas.ts';
import { HISTORY } from '../shared/history.ts';
import { SegmentsInputDoc } from '../schedules/schemas.ts';
import { SCHEDULE } from '../shared/schedules.ts';

const score = () => Type.Integer({ minimum: 0, maximum: LIMITS.score });

/** The seven scores of an answer, 0 to 10 each. */
export const Scores = Type.Object(
  { s: score(), g: score(), a: score(), v: score(), n: score(), ns: score(), o: score() },
  { title: 'Scores' },
);

/** The seven scores a client sends: each clamped to 0..10, a missing one counts as 0. */
export const ScoresInput = Type.Object(
  Object.fromEntries(SCORE_KEYS.map((k) => [k, Type.Optional(score())])),
  { title: 'ScoresInput', description: 'Each score 0 to 10 (clamped); a missing one counts as 0' },
);

/** A channel name on a provider: sanitized, cut to 100 characters. */
const channel = (description: string) => Type.String({ maxLength: LIMITS.name, description });

/** The streamer's own word under the staff rating (DECISIONS.md "Streamers speak for themselves"). */
export const StreamerReply = Type.Object(
  {
    body: Type.String(),
    at: Timestamp(),
    /** The `at` of the rating-history row the reply was written under: the rating changed since when it differs. */
    rating_at: Timestamp(),
  },
  { title: 'StreamerReply' },
);
export type StreamerReply = Static<typeof StreamerReply>;

export const StreamerItem = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    platform: StringEnum(PROVIDERS),
    /** The streamer's provider_a login; '' means the name lower-cased without white space. */
    provider_a: Type.String(),
    /** The streamer's channel name on provider_b (SPEC.md's kick_name), under both keys. */
    provider_b: Type.String(),
    kick_name: Type.String(),
    status: StringEnum(['live', 'offline']),
    game: Type.String(),
    title: Type.String(),
    /** From live sync (DECISIONS.md "Second wave / Live data"): '' when unknown. */
    avatar: Type.String(),
    /** Viewers while live, else null. */
    viewers: Nullable(Type.Integer()),
    live_since: Nullable(Timestamp()),
    /** The last successful check by live sync. */
    synced_at: Nullable(Timestamp()),
    evaluated: Type.Boolean(),
    community_locked: Type.Boolean(),
    added_by: StringEnum(['admin', 'viewer']),
    r: Scores,
    reward: Type.Integer({ minimum: 0, maximum: LIMITS.reward }),
    /** DECISIONS.md "Staff reviews": the timestamp of the last rating write, or null. */
    rated_at: Nullable(Timestamp()),
    team_id: Nullable(Type.Integer()),
    team_name: Nullable(Type.String()),
    notes: Type.Optional(Type.String({ description: 'Full view only, when notes were ever stored' })),
    /** Full view only: the signed-in account that suggested it (issue 26; the label is never returned). */
    suggested_by: Type.Optional(
      Nullable(
        Type.Object(
          { id: Type.Integer(), display_name: Type.String() },
          {
            title: 'Suggester',
            description: 'Full view only: the signed-in account that suggested it, or null',
          },
        ),
      ),
    ),
    /** A user who speaks for the streamer has signed in (issue 26). */
    verified: Type.Boolean(),
    /** The streamer's right of reply (issue 26), or null. */
    streamer_reply: Nullable(StreamerReply),
    /** Visible comments (DECISIONS.md "Second wave"). */
    comment_count: Type.Integer(),
    /** The visitors' score (DECISIONS.md "Taking part"): the average vote to one decimal, null with none. */
    audience_score: Nullable(
      Type.Number({ minimum: 1, maximum: 10, description: 'The average vote, to one decimal' }),
    ),
    audience_votes: Type.Integer(),
    /** DECISIONS.md "Audience score you can trust": the votes for 1 to 10. */
    audience_histogram: Type.Array(Type.Integer({ minimum: 0 }), {
      minItems: 10,
      maxItems: 10,
      description: 'The votes for 1, 2, ... 10',
    }),
    /** Staff and audience disagree (votes/audience.ts `isDivergent`). */
    divergent: Type.Boolean({
      description: 'At least 5 votes and the audience score at least 3 away from the staff total / 7',
    }),
    followers: Type.Integer({ minimum: 0, description: 'Users who follow it (the fifth wave)' }),
    /** Stream history (issue 28): kept by the sync write, read here. */
    stats_30d: Stats30d,
    /** DECISIONS.md "Schedules": the start of its first segment not canceled and not ended, or null. */
    next_stream: Nullable(Timestamp()),
  },
  { title: 'Streamer' },
);
export type StreamerItem = Static<typeof StreamerItem>;

export const ListQuery = Input({
  all: Param(FlagDoc('Staff: the full list with notes')),
  id: Param(IdDoc("One item of the caller's view")),
  /** With `id`: how the streamer's rating moved. */
  history: Param(FlagDoc("With `id`: every write of the streamer's rating, oldest first")),
  /** With `id`: the streams live sync recorded (issue 28). */
  streams: Param(FlagDoc("With `id`: the streamer's streams, newest first")),
  schedule: Param(FlagDoc("With `id`: the streamer's schedule, the next 14 days")),
  /** With `schedule`: as far as a hand-kept schedule reaches, for its editor (docs/decisions.md). */
  ahead: Param(
    FlagDoc(
      `With \`schedule\`: the next ${SCHEDULE.horizonDays} days, as far as a schedule kept by hand reaches`,
    ),
  ),
  /** DECISIONS.md "Audience score you can trust": any value but `audience` is 400 `Invalid sort`. */
  sort: Type.Optional(
    Type.String({
      pattern: `^${AUDIENCE_SORT}$`,
      errorCode: 'invalid_sort' satisfies ErrorCode,
      [DOCUMENTED]: {
        ...StringEnum([AUDIENCE_SORT], {
          description:
            "The Public view's streamers by the audience: the Bayesian average of their votes (5 votes at the " +
            "site's mean added), highest first, then name; those without votes last",
        }),
        'x-error-code': 'invalid_sort',
      },
    }),
  ),
  limit: Limit(
    `With \`streams=1\`: how many streams (default ${HISTORY.streamsLimitDefault})`,
    HISTORY.streamsLimitMax,
  ),
});

export const HistoryEntry = Type.Object(
  {
    at: Timestamp(),
    r: Scores,
    sum: Type.Integer({ minimum: 0, maximum: 7 * LIMITS.score }),
    reward: Type.Integer({ minimum: 0, maximum: LIMITS.reward }),
  },
  { title: 'RatingHistoryEntry' },
);

const streamerName = Type.String({
  minLength: LIMITS.nameMin,
  maxLength: LIMITS.name,
  description: `Sanitized (tags and control characters removed, white space folded); at least ${LIMITS.nameMin} characters`,
});

export const CreateQuery = Input({ admin: Param(FlagDoc('Add as the administrator')) });
export const CreateBody = Input(
  {
    name: Field('invalid_streamer_name', streamerName),
    /** `provider_b`, else `provider_a` whatever it is (SPEC.md). */
    platform: Lenient(StringEnum(PROVIDERS, { description: 'Any other value means provider_a' })),
    kick_name: Field('invalid_field', channel('The channel on provider_b (same as provider_b)'), 'kick_name'),
    provider_a: Field('invalid_field', channel('The login on provider_a'), 'provider_a'),
    provider_b: Field('invalid_field', channel('The channel on provider_b'), 'provider_b'),
    submitter: Field(
      'invalid_field',
      Type.String({
        maxLength: LIMITS.submitter,
        description: `Who suggests it; shown only to staff in the full view's suggestions; from a guest, ${GUEST_NAME_RULE}`,
      }),
      'submitter',
    ),
    altcha: Field(
      'challenge_invalid',
      Type.String({ maxLength: 2000, description: "A guest's solution of the challenge (after 428)" }),
    ),
  },
  ['name'],
);
export const Created = Type.Object({ ok: Ok.properties.ok, id: Type.Integer() });

export const IdQuery = Input(
  {
    id: Param(IdDoc()),
    lock: Param(FlagDoc('Set the community lock (administrator): the body is `{community_locked}`')),
    reply: Param(FlagDoc("The streamer's right of reply (who speaks for it): the body is `{body}`")),
    schedule: Param(
      FlagDoc('Keep the schedule by hand (who speaks for it, or staff): the body is `{segments}`'),
    ),
  },
  ['id'],
);
export const DeleteQuery = Input(
  { id: Param(IdDoc()), reply: Param(FlagDoc("Staff: remove the streamer's reply, not the streamer")) },
  ['id'],
);
export const UpdateBody = Input({
  /** With `reply`: the streamer's reply, trimmed, 2 to 1000 characters; empty removes it. */
  body: Lenient(
    Type.String({
      maxLength: LIMITS.commentMax,
      description: 'With `reply`: trimmed, 2 to 1000 characters; empty removes the reply',
    }),
  ),
  r: Lenient(ScoresInput),
  segments: Lenient(SegmentsInputDoc),
  notes: Field(
    'invalid_field',
    Type.String({ maxLength: LIMITS.notes, description: 'Trimmed, cut to 2000 characters' }),
    'notes',
  ),
  reward: Lenient(
    Type.Integer({
      minimum: 0,
      maximum: LIMITS.reward,
      description: 'Administrator: clamped to 0..130; a moderator gets the formula',
    }),
  ),
  /** Administrator only: a new name (sanitized, unique). */
  name: Field('invalid_streamer_name', streamerName),
  kick_name: Field('invalid_field', channel('Administrator: the channel on provider_b'), 'kick_name'),
  /** Absent keeps the stored login (an older page does not send it). */
  provider_a: Field(
    'invalid_field',
    channel('Administrator: the login on provider_a; absent keeps it'),
    'provider_a',
  ),
  provider_b: Field('invalid_field', channel('Administrator: the channel on provider_b'), 'provider_b'),
  status: Lenient(
    StringEnum(['live', 'offline'], { description: 'Administrator; anything else means offline' }),
  ),
  game: Field(
    'invalid_field',
    Type.String({ maxLength: LIMITS.game, description: 'Administrator; cut to 100' }),
    'game',
  ),
  title: Field(
    'invalid_field',
    Type.String({ maxLength: LIMITS.title, description: 'Administrator; cut to 200' }),
    'title',
  ),
  community_locked: Lenient(Type.Boolean({ description: 'With `lock`: lock or unlock community ratings' })),
  /** Administrator only: `provider_a` or `provider_b` (anything else is provider_a); absent keeps it. */
  platform: Lenient(
    StringEnum(PROVIDERS, {
      description: 'Administrator; any other value means provider_a; absent keeps it',
    }),
  ),
  /**
   * The `at` of the last history entry the editor started from (null: unrated). When given and the
   * rating was written since, 409 `rating_changed` and nothing changes.
   */
  base_at: Lenient(
    Nullable(
      Type.String({
        format: 'date-time',
        description:
          'The `at` of the last history entry the editor started from (null: unrated); a rating written ' +
          'since gets 409 `rating_changed`',
      }),
    ),
  ),
});
