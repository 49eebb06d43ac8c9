import { describe, expect, it } from 'vitest';
import { type Exchange, violations } from './helpers/contract.ts';

/**
 * The contract checker itself (helpers/contract.ts): it shares its compiled validators between
 * documents whose schemas are the same text (every app a file starts), and never between
 * documents whose schemas differ, so each answer is held against the document of its own app.
 */

type Json = Record<string, any>;

const item = (property: Json): Json => ({
  type: 'object',
  title: 'Item',
  required: ['a'],
  properties: { a: property },
});

const documentOf = (schema: Json, components: Json): Json => ({
  openapi: '3.1.0',
  paths: {
    '/api/items/{id}': {
      get: {
        responses: { '200': { description: 'An item', content: { 'application/json': { schema } } } },
      },
    },
  },
  components: { schemas: components },
});

const answer = (body: unknown): Exchange => ({
  method: 'GET',
  url: '/api/items/1',
  status: 200,
  headers: new Headers({ 'content-type': 'application/json; charset=utf-8' }),
  text: JSON.stringify(body),
});

const byRef = { $ref: '#/components/schemas/Item' };

describe('the contract checker', () => {
  it('holds an answer against the components of its own document, not of another one checked before', () => {
    const numbers = documentOf(byRef, { Item: item({ type: 'integer' }) });
    const words = documentOf(byRef, { Item: item({ type: 'string' }) });
    expect(violations(numbers, answer({ a: 1 }))).toEqual([]);
    expect(violations(words, answer({ a: 1 }))).toEqual(['GET /api/items/1 → 200: body/a must be string']);
    expect(violations(words, answer({ a: 'x' }))).toEqual([]);
    expect(violations(numbers, answer({ a: 'x' }))).toEqual([
      'GET /api/items/1 → 200: body/a must be integer',
    ]);
  });

  it("holds an answer against its own operation's schema where the components are the same", () => {
    const components = { Item: item({ type: 'integer' }) };
    const listed = documentOf(byRef, components);
    const inline = documentOf(item({ type: 'string' }), components);
    expect(violations(listed, answer({ a: 1 }))).toEqual([]);
    expect(violations(inline, answer({ a: 1 }))).toEqual(['GET /api/items/1 → 200: body/a must be string']);
    // A document the same as one checked before, as a new app's is: the same answers.
    const again = documentOf(byRef, { Item: item({ type: 'integer' }) });
    expect(violations(again, answer({ a: 'x' }))).toEqual(['GET /api/items/1 → 200: body/a must be integer']);
  });
});
