import { type Static, Type } from 'typebox';
import { errors, Field, Lenient, Nullable, Ok, Param, StringEnum, Timestamp } from '../lib/schemas.ts';
import { PROVIDERS } from '../shared/rules.ts';

/** The seven scores of an answer. */
export const Scores = Type.Object({
  s: Type.Integer(),
  g: Type.Integer(),
  a: Type.Integer(),
  v: Type.Integer(),
  n: Type.Integer(),
  ns: Type.Integer(),
  o: Type.Integer(),
});

export const StreamerItem = Type.Object({
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
  reward: Type.Integer(),
  team_id: Nullable(Type.Integer()),
  team_name: Nullable(Type.String()),
  notes: Type.Optional(Type.String()),
  /** Visible comments (DECISIONS.md "Second wave"). */
  comment_count: Type.Integer(),
  /** The visitors' score (DECISIONS.md "Taking part"): the average vote to one decimal, null with none. */
  audience_score: Nullable(Type.Number()),
  audience_votes: Type.Integer(),
});
export type StreamerItem = Static<typeof StreamerItem>;

export const ListQuery = Type.Object({
  all: Param(),
  id: Param(),
  /** With `id`: how the streamer's rating moved. */
  history: Param(),
});

export const HistoryEntry = Type.Object({
  at: Timestamp(),
  r: Scores,
  sum: Type.Integer(),
  reward: Type.Integer(),
});

export const CreateQuery = Type.Object({ admin: Param() });
export const CreateBody = Type.Object({
  name: Field('invalid_streamer_name'),
  /** `provider_b`, else `provider_a` whatever it is (SPEC.md). */
  platform: Lenient(),
  kick_name: Field('invalid_field', 'kick_name'),
  provider_a: Field('invalid_field', 'provider_a'),
  provider_b: Field('invalid_field', 'provider_b'),
  submitter: Field('invalid_field', 'submitter'),
});
export const Created = Type.Object({ ok: Ok.properties.ok, id: Type.Integer() });

export const IdQuery = Type.Object({ id: Param(), lock: Param() });
export const UpdateBody = Type.Object({
  r: Lenient(),
  notes: Field('invalid_field', 'notes'),
  reward: Lenient(),
  /** Administrator only: a new name (sanitized, unique). */
  name: Field('invalid_streamer_name'),
  kick_name: Field('invalid_field', 'kick_name'),
  /** Absent keeps the stored login (an older page does not send it). */
  provider_a: Field('invalid_field', 'provider_a'),
  provider_b: Field('invalid_field', 'provider_b'),
  status: Lenient(),
  game: Field('invalid_field', 'game'),
  title: Field('invalid_field', 'title'),
  community_locked: Lenient(),
  /** Administrator only: `provider_a` or `provider_b` (anything else is provider_a); absent keeps it. */
  platform: Lenient(),
  /**
   * The `at` of the last history entry the editor started from (null: unrated). When given and the
   * rating was written since, 409 `rating_changed` and nothing changes.
   */
  base_at: Lenient(),
});

export const listSchema = {
  summary:
    'Public ranking, team view, or with `all=1` the full list for staff; with `id` the one item of that view, ' +
    'and with `id` and `history=1` every rating write of it, oldest first. Answers carry an ETag; ' +
    '`If-None-Match` gets 304',
  querystring: ListQuery,
  response: {
    200: Type.Union([Type.Array(StreamerItem), StreamerItem, Type.Array(HistoryEntry)]),
    304: Type.Null(),
    ...errors(400, 404),
  },
};
export const createSchema = {
  summary: 'Suggest a streamer, or with `admin=1` add one as administrator',
  querystring: CreateQuery,
  body: CreateBody,
  response: { 201: Created, ...errors(400, 401, 409, 429, 500) },
};
export const updateSchema = {
  summary: 'Rate (and, for the administrator, edit) a streamer; with `lock` set the community lock',
  querystring: IdQuery,
  body: UpdateBody,
  response: { 200: Ok, ...errors(400, 401, 403, 404, 409) },
};
export const deleteSchema = {
  summary: 'Delete a streamer with its rating, comments and community ratings',
  querystring: IdQuery,
  response: { 200: Ok, ...errors(400, 401, 404) },
};
