/** The headers the API document names on many operations (openapi/rules.ts adds them). */
export const HEADERS: Record<string, Record<string, unknown>> = {
  'Retry-After': {
    description: 'Seconds to wait before trying again',
    schema: { type: 'integer', minimum: 1 },
  },
  'Set-Cookie': {
    description:
      'The session cookie, when this request created, renewed or ended the session; the `own` cookie (the comments this browser posted as a guest) when a guest posted or deleted a comment',
    schema: { type: 'string' },
  },
  ETag: { description: 'Names this answer; send it back in `If-None-Match`', schema: { type: 'string' } },
  Location: { description: 'Where the redirect leads', schema: { type: 'string' } },
  Allow: { description: 'The methods this path supports', schema: { type: 'string' } },
  'X-RateLimit-Limit': {
    description: 'Requests allowed per window (with rate limits on)',
    schema: { type: 'integer' },
  },
  'X-RateLimit-Remaining': { description: 'Requests left in this window', schema: { type: 'integer' } },
  'X-RateLimit-Reset': { description: 'Seconds until the window resets', schema: { type: 'integer' } },
  'Idempotent-Replayed': {
    description: '`true`: the kept answer of an earlier request with the same `Idempotency-Key`',
    schema: { type: 'string', enum: ['true'] },
  },
};

/** The `Idempotency-Key` of the POSTs that take one (idempotency/plugin.ts; not the sign-ins). */
export const IDEMPOTENCY_KEY = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry safe: a request with the same key and the same method, path and body within a day ' +
    'gets the first answer again with `Idempotent-Replayed: true`, and the operation runs once. Only a ' +
    'success is kept, in the same transaction as its writes: after an error (4xx, 5xx, a lost connection ' +
    'before the commit) the retry runs again. The same key for another request gets 422; 409 when a ' +
    'request with the key was refused while another one with it was being saved. Keys are per sender.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7E]+$' },
};
