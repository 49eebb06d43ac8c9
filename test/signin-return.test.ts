import { describe, expect, it } from 'vitest';
import { returnPath } from '../src/signin/routes.ts';

/** Issue 11 bug 4: sign-in returns to the page it started from, same-origin paths only. */
describe('the sign-in return path', () => {
  it('keeps page paths', () => {
    for (const p of ['/', '/s/3', '/s/3-zlaty-kun', '/admin/teams', '/suggest?x=1'])
      expect(returnPath(p)).toBe(p);
  });
  it('refuses other hosts, schemes, API paths and odd characters', () => {
    for (const p of [
      undefined,
      '',
      '//evil.example/x',
      '/\\evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      '/api/oauth/logout',
      '/s/1<script>',
      '/s/1 x',
      `/${'a'.repeat(250)}`,
    ])
      expect(returnPath(p)).toBeNull();
  });
});
