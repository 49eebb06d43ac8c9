import { type Static, Type } from 'typebox';
import {
  DOCUMENTED,
  documentedForm,
  errors,
  Field,
  FlagDoc,
  IdDoc,
  Input,
  Nullable,
  Ok,
  Param,
  StringEnum,
  Timestamp,
} from '../lib/schemas.ts';
import { LIMITS, PROVIDERS } from '../shared/rules.ts';

export const ROLES = ['owner', 'rater'] as const;

export const MyGroup = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    streamer_id: Nullable(Type.Integer()),
    /** Your role in the team: an owner manages its raters (DECISIONS.md "Taking part"). */
    role: StringEnum(ROLES),
  },
  { title: 'MyTeam' },
);
export const Group = Type.Object(
  {
    id: Type.Integer(),
    name: Type.String(),
    streamer_id: Nullable(Type.Integer()),
    created_at: Timestamp(),
  },
  { title: 'Team' },
);
export const MemberItem = Type.Object(
  {
    member_id: Type.Integer(),
    role: StringEnum(ROLES),
    id: Type.Integer(),
    provider: StringEnum(PROVIDERS),
    login: Type.String(),
    display_name: Type.String(),
    avatar: Type.String(),
  },
  { title: 'TeamMember' },
);
export const AdminGroup = Type.Object(
  {
    ...Group.properties,
    streamer_name: Nullable(Type.String()),
    members: Type.Array(MemberItem),
    ratings_count: Type.Integer(),
  },
  { title: 'TeamWithMembers' },
);
export type AdminGroup = Static<typeof AdminGroup>;

export const Query = Input({
  my: Param(FlagDoc('Your own teams (any signed-in user)')),
  members: Param(FlagDoc('POST: add a member, or change their role')),
  id: Param(IdDoc('PUT, DELETE: the team')),
  member: Param(IdDoc('DELETE: remove this membership (its member_id)')),
});

const teamName = Type.String({
  minLength: 1,
  maxLength: LIMITS.teamName,
  description: 'Trimmed, cut to 100',
});
const linkedStreamer = Nullable(IdDoc("The team's streamer; null or 0 unlinks"));

const fields = {
  name: Field('missing_name', teamName),
  streamer_id: Field('invalid_field', linkedStreamer, 'streamer_id'),
  group_id: Field('missing_group_or_login', IdDoc()),
  login: Field(
    'missing_group_or_login',
    Type.String({ minLength: 1, description: 'Matched without regard to case' }),
  ),
  provider: Field('invalid_field', StringEnum(PROVIDERS, { description: 'Default provider_a' }), 'provider'),
  role: Field('invalid_field', StringEnum(ROLES, { description: 'Default rater' }), 'role'),
};
const doc = (key: keyof typeof fields) => documentedForm(fields[key]);

/**
 * One body for the route's operations, told apart by the query: a team (`name`,
 * `streamer_id`) or, with `members=1`, a member. The document shows each shape.
 */
export const GroupBody = Type.Object(fields, {
  [DOCUMENTED]: Type.Union([
    Type.Object(
      { name: doc('name'), streamer_id: Type.Optional(doc('streamer_id')) },
      { title: 'TeamInput', description: 'A team: create (name required) or, with PUT, change' },
    ),
    Type.Object(
      {
        group_id: doc('group_id'),
        login: doc('login'),
        provider: Type.Optional(doc('provider')),
        role: Type.Optional(doc('role')),
      },
      { title: 'MemberInput', description: 'With `members=1`: add a member or change their role' },
    ),
  ]),
});
export type GroupBody = Static<typeof GroupBody>;

/** PUT changes only the keys present. */
export const UpdateBody = Type.Object(fields, {
  [DOCUMENTED]: Type.Object(
    { name: Type.Optional(doc('name')), streamer_id: Type.Optional(doc('streamer_id')) },
    { minProperties: 1 },
  ),
});

export const MemberAdded = Type.Object(
  { ok: Ok.properties.ok, display_name: Type.String(), role: StringEnum(ROLES) },
  { title: 'MemberAdded' },
);

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
  querystring: Input({ id: Param(IdDoc('The team')) }, ['id']),
  body: UpdateBody,
  response: { 200: Ok, ...errors(400, 401, 404, 409, 500) },
};
export const deleteSchema = {
  summary: 'Delete a team (`id`) or a membership (`member`)',
  querystring: Query,
  response: { 200: Ok, ...errors(400, 401, 404) },
};

/** A team owner's add-rater body (DECISIONS.md "Taking part"). */
export const OwnerAddBody = Input(
  { group_id: fields.group_id, login: fields.login, provider: fields.provider },
  ['group_id', 'login'],
);
export const ownerAddSchema = {
  summary:
    "A team owner adds a rater to their own team (SPEC.md's add-member rules; the role is always rater)",
  body: OwnerAddBody,
  response: { 200: MemberAdded, ...errors(400, 401, 403, 404) },
};
export const ownerRemoveSchema = {
  summary: 'A team owner removes a rater of their own team',
  querystring: Input({ id: Param(IdDoc('The membership (its member_id)')) }, ['id']),
  response: { 200: Ok, ...errors(400, 401, 403, 404) },
};

/** A member's view of their own team's members (the owner to manage its raters). */
export const ownerListSchema = {
  summary: "A team's members, for its own members: the owner first, then as they were added",
  querystring: Input({ group_id: Param(IdDoc('The team')) }, ['group_id']),
  response: { 200: Type.Array(MemberItem), ...errors(400, 401, 403) },
};
