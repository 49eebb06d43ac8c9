import { type Static, type TProperties, type TSchema, Type } from 'typebox';
import { PAGE_MAX } from '../shared/rules.ts';
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
 *
 * What a client should send is stricter than what the service accepts: each input schema
 * carries its `documented` twin (real types, the rules' limits, required fields), which the
 * API document and the client generated from it show (openapi/openapi.ts). Validation never
 * reads the twin, so the wire behaviour stays lenient.
 */

/** The keyword holding the schema the API document shows for an input schema. */
export const DOCUMENTED = 'documented';

/** The longest text any field accepts: everything that fits in a 64 KiB body. */
export const MAX_TEXT = 65_536;

/** The schema the document shows for `schema`: its documented twin, else itself. */
export function documentedForm(schema: TSchema): TSchema {
  return ((schema as Record<string, unknown>)[DOCUMENTED] as TSchema | undefined) ?? schema;
}

/**
 * A scalar body field (text, number, boolean or null). A value of another shape gets the
 * error `code` of the catalogue (errors.ts), SPEC.md's for this field; `invalid_field` names
 * the field in its message (`Invalid kick_name`). `doc` is what a client should send.
 */
export const Field = (code: ErrorCode, doc: TSchema, field?: string) =>
  Type.Optional(
    Type.Union([Type.String({ maxLength: MAX_TEXT }), Type.Number(), Type.Boolean(), Type.Null()], {
      errorCode: code,
      ...(field ? { errorField: field } : {}),
      [DOCUMENTED]: { ...doc, 'x-error-code': code },
    }),
  );

/** A field SPEC.md coerces whatever it is (numbers, flags): never refused by the schema. */
export const Lenient = (doc: TSchema) => Type.Optional(Type.Unknown({ [DOCUMENTED]: doc }));

/**
 * A query parameter: always one string (the first of repeated ones, see plugins/parsers.ts),
 * so it cannot fail its schema; what it means is the route's rule, and `doc` says what a
 * client should send.
 */
export const Param = (doc: TSchema = Type.String()) =>
  Type.Optional(Type.String({ maxLength: MAX_TEXT, [DOCUMENTED]: doc }));

/**
 * A paged route's `limit` query parameter: an integer from 1 to `max` written in digits
 * (leading zeros too: DECISIONS.md "a numeric string counts as its number"), else 400
 * `invalid_limit` naming the range (DECISIONS.md "Names and limits": no
 * `limit` answers a whole table). Every paged route uses this one block and reads the value
 * with `pageLimit`, so the bound is written once. The range is a pattern, as a query value is
 * always text (plugins/parsers.ts) and the schema is what refuses.
 */
export const Limit = (description: string, max: number = PAGE_MAX) =>
  Type.Optional(
    Type.String({
      pattern: `^0*(?:${Array.from({ length: max }, (_, i) => i + 1).join('|')})$`,
      errorCode: 'invalid_limit' satisfies ErrorCode,
      errorField: String(max),
      [DOCUMENTED]: {
        ...Type.Integer({ minimum: 1, maximum: max, description }),
        'x-error-code': 'invalid_limit',
      },
    }),
  );

/** The value of a `Limit` parameter the schema has let through, or the route's default. */
export const pageLimit = (raw: string | undefined, fallback: number): number =>
  raw === undefined ? fallback : Number(raw);

/** A query flag such as `?all=1` (lib/input.ts `flag`: set by its presence, whatever its value). */
export const FlagDoc = (description: string) =>
  Type.Unsafe<'1'>({ type: 'string', enum: ['1'], description });

/** A positive id in a query or body. */
export const IdDoc = (description?: string) =>
  Type.Integer({ minimum: 1, ...(description ? { description } : {}) });

/**
 * A request body or query: its documented twin is the object of its fields' twins, with
 * `required` listing what the route refuses to do without (SPEC.md's "missing" errors).
 */
export const Input = <P extends TProperties>(
  properties: P,
  required: (keyof P & string)[] = [],
  /** `oneField`: the route refuses a body without any of its fields (a body of at least one). */
  rule: { oneField?: true } = {},
) => {
  const twins: TProperties = {};
  for (const [key, schema] of Object.entries(properties)) {
    const twin = documentedForm(schema);
    twins[key] = required.includes(key) ? twin : Type.Optional(twin);
  }
  return Type.Object(properties, {
    [DOCUMENTED]: Type.Object(twins, rule.oneField ? { minProperties: 1 } : {}),
  });
};

/** A value or null. */
export const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

/**
 * A string that is one of `values`, typed as their union. Declared as `{type: 'string',
 * enum}` rather than a union of literals, so that answers serialize at string speed.
 */
export const StringEnum = <const T extends readonly string[]>(
  values: T,
  options: { description?: string } = {},
) => Type.Unsafe<T[number]>({ type: 'string', enum: [...values], ...options });

/** A timestamp in answers: ISO 8601 UTC with milliseconds (DECISIONS.md). */
export const Timestamp = () =>
  Type.String({ format: 'date-time', description: 'ISO 8601 UTC, e.g. 2026-11-21T10:00:00.000Z' });

export const ErrorBody = Type.Object(
  {
    error: Type.String(),
    code: Type.String({ description: 'A stable lower_snake_case word (errors.ts)' }),
    timeout_until: Type.Optional(Timestamp()),
    challenge: Type.Optional(
      Type.Object(
        {
          algorithm: Type.String(),
          challenge: Type.String(),
          salt: Type.String(),
          maxnumber: Type.Integer(),
          signature: Type.String(),
        },
        { description: 'With `challenge_required`: the ALTCHA challenge to solve' },
      ),
    ),
  },
  { title: 'Error' },
);
export const Ok = Type.Object({ ok: Type.Unsafe<true>({ type: 'boolean', const: true }) }, { title: 'Ok' });

/** A redirect: no body; the document adds its `Location` header (openapi/openapi.ts). */
export const Redirect = (description: string) => Type.Null({ description });

/** An HTML page answer (the page's addresses, the API's documentation page). */
export const Html = (description: string) => ({
  description,
  content: { 'text/html': { schema: Type.String({ description: 'An HTML page' }) } },
});

/** Response schemas for the error statuses a route can give. */
export function errors<S extends number>(...statuses: S[]): Record<S, typeof ErrorBody> {
  return Object.fromEntries(statuses.map((s) => [s, ErrorBody])) as Record<S, typeof ErrorBody>;
}

export type OkAnswer = Static<typeof Ok>;

/** SPEC.md's success acknowledgement. */
export const OK: OkAnswer = Object.freeze({ ok: true });

/** The answer to an `If-None-Match` that names the kept answer (cache/sender.ts): no body. */
export const NotModified = Type.Null({ description: 'Not modified (If-None-Match)' });
