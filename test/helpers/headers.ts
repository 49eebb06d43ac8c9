import { expect } from 'vitest';

/** SECURITY.md item 20: the headers every answer carries, whatever its status. */
export function expectSecurityHeaders(h: Headers): void {
  expect(h.get('x-content-type-options')).toBe('nosniff');
  expect(h.get('referrer-policy')).toBe('no-referrer');
  const csp = h.get('content-security-policy') ?? '';
  expect(csp).toContain("object-src 'none'");
  expect(csp).toContain("base-uri 'none'");
  expect(csp).toContain("frame-ancestors 'none'");
}
