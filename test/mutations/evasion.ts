import type { Mutation } from './list.ts';

/** Issue 45 item 26 (the OpenAPI document). */
export const EVASION_MUTATIONS: Mutation[] = [
  {
    name: 'openapi: TRACE answers 404 where the path exists',
    file: 'src/lib/method-not-allowed.ts',
    from: "const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'TRACE'] as const;",
    to: "const METHODS = ['GET', 'POST', 'PUT', 'DELETE', 'PATCH'] as const;",
    tests: ['test/openapi.test.ts'],
  },
  {
    name: 'openapi: the 405 answers are listed as operations',
    file: 'src/lib/method-not-allowed.ts',
    from: '      hide: true,\n',
    to: '',
    tests: ['test/openapi.test.ts'],
  },
  {
    name: "openapi: PUT /api/rater_groups does not require the team's id",
    file: 'src/groups/schemas.ts',
    from: "querystring: Input({ id: Param(IdDoc('The team')) }, ['id']),",
    to: "querystring: Input({ id: Param(IdDoc('The team')) }),",
    tests: ['test/openapi.test.ts'],
  },
  {
    name: 'openapi: a body of at least one field is not required',
    file: 'src/openapi/rules.ts',
    from: ' || Number(s.minProperties ?? 0) > 0;',
    to: ';',
    tests: ['test/openapi.test.ts'],
  },
  {
    name: 'openapi: the card lists no 304',
    file: 'src/images/schemas.ts',
    from: "response: { 200: image('The card', ['image/png']), 304: NotModified, ...errors(404) },",
    to: "response: { 200: image('The card', ['image/png']), ...errors(404) },",
    tests: ['test/openapi.test.ts'],
  },
];
