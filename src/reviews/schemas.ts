import { Type } from 'typebox';
import {
  errors,
  FlagDoc,
  IdDoc,
  Input,
  Lenient,
  Limit,
  Nullable,
  Ok,
  Param,
  Timestamp,
} from '../lib/schemas.ts';
import { REVIEWS } from '../shared/reviews.ts';
import { Scores, ScoresInput } from '../streamers/schemas.ts';

/** DECISIONS.md "Staff reviews": the wire contract of `/api/reviews`. */

const streamerId = Param(IdDoc('The streamer'));

export const Review = Type.Object(
  {
    user: Type.String({ description: 'The display name, or `Administrace` for the shared password' }),
    r: Nullable(Scores),
    sum: Nullable(Type.Integer({ description: 'The sum of the seven scores; null for an abstention' })),
    note: Nullable(Type.String()),
    abstain: Type.Boolean(),
    at: Timestamp(),
  },
  { title: 'Review' },
);

const Blind = Type.Object(
  { mine: Type.Null(), count: Type.Integer(), reviews: Type.Null() },
  { title: 'ReviewsBlind', description: 'You have neither reviewed nor abstained yet: only the count' },
);
const Seen = Type.Object(
  {
    mine: Review,
    count: Type.Integer(),
    reviews: Type.Array(Review),
    median: Nullable(Scores),
    spread: Nullable(
      Type.Number({ description: 'The population standard deviation of the sums, to one decimal' }),
    ),
  },
  { title: 'ReviewsSeen' },
);

export const QueueItem = Type.Object(
  {
    streamer_id: Type.Integer(),
    streamer_name: Type.String(),
    reviews: Type.Integer({ description: 'Reviews and abstentions saved so far' }),
    rated_at: Nullable(Timestamp()),
    requested: Type.Boolean({ description: 'The streamer asked for a re-rating' }),
  },
  { title: 'ReviewQueueItem' },
);

export const readSchema = {
  summary:
    "Staff: a streamer's reviews, blind (`{mine: null, count, reviews: null}`) until your own review or " +
    'abstention is saved; with `queue=1`, the streamers you still have to review (`limit`, 1 to 100, default 100)',
  querystring: Input({
    streamer_id: streamerId,
    queue: Param(FlagDoc('Your queue')),
    limit: Limit(`With \`queue\`: default ${REVIEWS.queueMax}`, REVIEWS.queueMax),
  }),
  response: {
    200: Type.Union([Blind, Seen, Type.Array(QueueItem)]),
    ...errors(400, 401, 404),
  },
};

export const reviewSchema = {
  summary:
    'Staff: review a streamer `{r, note}` (scores clamped 0..10, note cut to 2000) or abstain ' +
    '`{abstain: true, note}`; one per staff member and streamer, replaced on repeat',
  querystring: Input({ streamer_id: streamerId }, ['streamer_id']),
  body: Input({
    r: Lenient(ScoresInput),
    note: Lenient(Type.String({ description: `Trimmed, cut to ${REVIEWS.noteMax} characters` })),
    abstain: Lenient(Type.Boolean({ description: 'A conflict of interest: no scores' })),
  }),
  response: { 200: Ok, ...errors(400, 401, 403, 404) },
};

export const postSchema = {
  summary:
    "`publish=1` (administrator): the median of the reviews becomes the streamer's rating and the reviews " +
    'are cleared. `request=1` (the user who speaks for the streamer) `{reason}`: ask for a re-rating. ' +
    'One of the two is required (else 400 `bad_request`)',
  querystring: Input(
    {
      streamer_id: streamerId,
      publish: Param(FlagDoc('Publish the reviews')),
      request: Param(FlagDoc('Ask for a re-rating')),
    },
    ['streamer_id'],
  ),
  body: Input({
    reason: Lenient(
      Type.String({
        minLength: REVIEWS.reasonMin,
        maxLength: REVIEWS.reasonMax,
        description: `Required with \`request=1\` (else 400 \`invalid_reason\`): trimmed, ${REVIEWS.reasonMin} to ${REVIEWS.reasonMax} characters`,
      }),
    ),
  }),
  response: { 200: Ok, 201: Ok, ...errors(400, 401, 403, 404, 409) },
};
