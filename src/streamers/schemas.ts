import { Type } from 'typebox';
import { Field, Param, Scores, ScoresInput } from '../lib/schemas.ts';

export const StreamerItem = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  platform: Type.String(),
  /** The streamer's channel name on provider_b (SPEC.md's kick_name), under both keys. */
  provider_b: Type.String(),
  kick_name: Type.String(),
  status: Type.String(),
  game: Type.String(),
  title: Type.String(),
  evaluated: Type.Boolean(),
  community_locked: Type.Boolean(),
  added_by: Type.String(),
  r: Scores,
  reward: Type.Integer(),
  team_id: Type.Union([Type.Integer(), Type.Null()]),
  team_name: Type.Union([Type.String(), Type.Null()]),
  notes: Type.Optional(Type.String()),
});

export const ListQuery = Type.Object({ all: Param() });

export const CreateQuery = Type.Object({ admin: Param() });
export const CreateBody = Type.Object({
  name: Type.Optional(Field(1000)),
  platform: Type.Optional(Field(100)),
  kick_name: Type.Optional(Field(1000)),
  provider_b: Type.Optional(Field(1000)),
  submitter: Type.Optional(Field(1000)),
});
export const Created = Type.Object({ ok: Type.Boolean(), id: Type.Integer() });

export const IdQuery = Type.Object({ id: Param(), lock: Param() });
export const UpdateBody = Type.Object({
  r: Type.Optional(Type.Union([ScoresInput, Field(32)])),
  notes: Type.Optional(Field(20_000)),
  reward: Type.Optional(Field(32)),
  kick_name: Type.Optional(Field(1000)),
  provider_b: Type.Optional(Field(1000)),
  status: Type.Optional(Field(100)),
  game: Type.Optional(Field(1000)),
  title: Type.Optional(Field(2000)),
  community_locked: Type.Optional(Field(32)),
});
