import { type Static, type TSchema, Type } from 'typebox';
import type { ErrorCode } from '../errors.ts';

/**
 * Building blocks of the route schemas.
 *
 * Input is lenient, as SPEC.md clamps and cuts rather than rejects: a text field takes any
 * text that fits in a request (DECISIONS.md refuses only bodies over 64 KiB) and the route's
 * rule cuts it; a number field takes anything ("anything non-numeric counts as 0"). What the
 * schema refuses is a value of the wrong shape (an object or a list where text belongs), and
 * then the answer is the error SPEC.md gives for that very field: each field carries its code
 * as `errorCode`, which the error handler reads from the schema of the field that failed.
 */

/** The longest text any field accepts: everything that fits in a 64 KiB body. */
export const MAX_TEXT = 65_536;

/**
 * A scalar body field (text, number, boolean or null). A value of another shape gets the
 * error `code` of the catalogue (errors.ts), SPEC.md's for this field; `invalid_field` names
 * the field in its message (`Invalid kick_name`).
 */
export const Field = (code: ErrorCode, field?: string) =>
  Type.Optional(
    Type.Union([Type.String({ maxLength: MAX_TEXT }), Type.Number(), Type.Boolean(), Type.Null()], {
      errorCode: code,
      ...(field ? { errorField: field } : {}),
    }),
  );

/** A field SPEC.md coerces whatever it is (numbers, flags): never refused by the schema. */
export const Lenient = () => Type.Optional(Type.Unknown());

/**
 * A query parameter: always one string (the first of repeated ones, see plugins/parsers.ts),
 * so it cannot fail its schema; what it means is the route's rule.
 */
export const Param = () => Type.Optional(Type.String({ maxLength: MAX_TEXT }));

/** A value or null. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * A string that is one of `values`, typed as their union. Declared as `{type: 'string',
 * enum}` rather than a union of literals, so that answers serialize at string speed.
 */
export const StringEnum = <const T extends readonly string[]>(values: T) =>
  Type.Unsafe<T[number]>({ type: 'string', enum: [...values] });

/** A timestamp in answers: ISO 8601 UTC with milliseconds (DECISIONS.md). */
export const Timestamp = () => Type.String({ description: 'ISO 8601 UTC, e.g. 2026-11-21T10:00:00.000Z' });

export const ErrorBody = Type.Object(
  { error: Type.String(), code: Type.String({ description: 'A stable lower_snake_case word (errors.ts)' }) },
  { $id: 'Error' },
);
export const Ok = Type.Object({ ok: Type.Unsafe<true>({ type: 'boolean' }) });

/** Response schemas for the error statuses a route can give. */
export function errors<S extends number>(...statuses: S[]): Record<S, typeof ErrorBody> {
  return Object.fromEntries(statuses.map((s) => [s, ErrorBody])) as Record<S, typeof ErrorBody>;
}

export type OkAnswer = Static<typeof Ok>;

/** SPEC.md's success acknowledgement. */
export const OK: OkAnswer = Object.freeze({ ok: true });
