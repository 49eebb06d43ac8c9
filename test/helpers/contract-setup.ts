import { afterAll, afterEach } from 'vitest';
import { takeViolations } from './contract-live.ts';

// Fails the test whose requests got an answer the API document does not describe.
const check = () => {
  const seen = takeViolations();
  if (seen.length > 0) {
    throw new Error(`answers the API document does not describe:\n  ${[...new Set(seen)].join('\n  ')}`);
  }
};
afterEach(check);
afterAll(check);
