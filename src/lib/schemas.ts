import { type TSchema, Type } from 'typebox';

/**
 * Building blocks of the route schemas. Input fields are lenient on type (SPEC.md coerces
 * rather than rejects) but every string has a length cap, far above the limit SPEC.md cuts
 * to, so that absurd input stops at the schema.
 */

/** A scalar input field: text up to `max` code points, or a number, boolean or null. */
export const Field = (max = 1000) =>
  Type.Union([Type.String({ maxLength: max }), Type.Number(), Type.Boolean(), Type.Null()]);

/** A query parameter (always text). */
export const Param = (max = 64) => Type.Optional(Type.String({ maxLength: max }));

export const Optional = <T extends TSchema>(schema: T) => Type.Optional(schema);

/** A value or null. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

export const ErrorBody = Type.Object({ error: Type.String() }, { $id: 'Error' });
export const Ok = Type.Object({ ok: Type.Boolean() });

export const Scores = Type.Object({
  s: Type.Integer(),
  g: Type.Integer(),
  a: Type.Integer(),
  v: Type.Integer(),
  n: Type.Integer(),
  ns: Type.Integer(),
  o: Type.Integer(),
});

/** The `r` object of a rating request: seven lenient score fields. */
export const ScoresInput = Type.Object({
  s: Optional(Field(32)),
  g: Optional(Field(32)),
  a: Optional(Field(32)),
  v: Optional(Field(32)),
  n: Optional(Field(32)),
  ns: Optional(Field(32)),
  o: Optional(Field(32)),
});

/** Response schemas for the error statuses a route can give. */
export function errors(...statuses: number[]): Record<number, typeof ErrorBody> {
  return Object.fromEntries(statuses.map((s) => [s, ErrorBody]));
}
