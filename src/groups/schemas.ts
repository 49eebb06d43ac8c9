import { type Static, Type } from 'typebox';
import { errors, Field, Nullable, Ok, Param, StringEnum } from '../lib/schemas.ts';
import { PROVIDERS } from '../shared/rules.ts';

export const MyGroup = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  streamer_id: Nullable(Type.Integer()),
  /** Your role in the team: an owner manages its raters (DECISIONS.md "Taking part"). */
  role: StringEnum(['owner', 'rater']),
});
export const Group = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  streamer_id: Nullable(Type.Integer()),
  created_at: Type.String(),
});
export const MemberItem = Type.Object({
  member_id: Type.Integer(),
  role: StringEnum(['owner', 'rater']),
  id: Type.Integer(),
  provider: StringEnum(PROVIDERS),
  login: Type.String(),
  display_name: Type.String(),
  avatar: Type.String(),
});
export const AdminGroup = Type.Object({
  ...Group.properties,
  streamer_name: Nullable(Type.String()),
  members: Type.Array(MemberItem),
  ratings_count: Type.Integer(),
});
export type AdminGroup = Static<typeof AdminGroup>;

export const Query = Type.Object({ my: Param(), members: Param(), id: Param(), member: Param() });

/** One body for the route's operations: a team (name, streamer_id) or a member. */
export const GroupBody = Type.Object({
  name: Field('missing_name'),
  streamer_id: Field('invalid_field', 'streamer_id'),
  group_id: Field('missing_group_or_login'),
  login: Field('missing_group_or_login'),
  provider: Field('invalid_field', 'provider'),
  role: Field('invalid_field', 'role'),
});
export type GroupBody = Static<typeof GroupBody>;

export const MemberAdded = Type.Object({
  ok: Ok.properties.ok,
  display_name: Type.String(),
  role: StringEnum(['owner', 'rater']),
});

export const listSchema = {
  summary: 'All teams with members (administrator), or with `my=1` your teams',
  querystring: Query,
  response: { 200: Type.Union([Type.Array(AdminGroup), Type.Array(MyGroup)]), ...errors(401) },
};
export const postSchema = {
  summary: 'Create a team, or with `members=1` add or re-role a member',
  querystring: Query,
  body: GroupBody,
  response: { 200: MemberAdded, 201: Group, ...errors(400, 401, 404, 409, 500) },
};
export const putSchema = {
  summary: 'Rename a team or change its streamer',
  querystring: Query,
  body: GroupBody,
  response: { 200: Ok, ...errors(400, 401, 404, 409, 500) },
};
export const deleteSchema = {
  summary: 'Delete a team (`id`) or a membership (`member`)',
  querystring: Query,
  response: { 200: Ok, ...errors(400, 401, 404) },
};

/** A team owner's add-rater body (DECISIONS.md "Taking part"). */
export const OwnerAddBody = Type.Object({
  group_id: Field('missing_group_or_login'),
  login: Field('missing_group_or_login'),
  provider: Field('invalid_field', 'provider'),
});
export const ownerAddSchema = {
  summary:
    "A team owner adds a rater to their own team (SPEC.md's add-member rules; the role is always rater)",
  body: OwnerAddBody,
  response: { 200: MemberAdded, ...errors(400, 401, 403, 404) },
};
export const ownerRemoveSchema = {
  summary: 'A team owner removes a rater of their own team',
  querystring: Type.Object({ id: Param() }),
  response: { 200: Ok, ...errors(400, 401, 403, 404) },
};
