import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MUTATIONS } from './mutations/list.ts';

/**
 * `npm run mutations` breaks each rule on purpose and expects a test to fail. A mutation whose
 * text no longer occurs in its file (the code moved on) checks nothing: the runner can only call
 * it BROKEN when someone runs it. Here every mutation must apply, exactly once, at every test run.
 */
describe('the mutations', () => {
  it('each applies to the code as it is: its text occurs exactly once in its file', () => {
    const broken = MUTATIONS.flatMap((m) => {
      const count = readFileSync(m.file, 'utf8').split(m.from).length - 1;
      return count === 1 ? [] : [`${m.name}: found ${count} times in ${m.file}`];
    });
    expect(broken).toEqual([]);
  });

  it('have names of their own and change something', () => {
    const names = MUTATIONS.map((m) => m.name);
    expect(names.filter((name, i) => names.indexOf(name) !== i)).toEqual([]);
    expect(MUTATIONS.filter((m) => m.from === m.to || m.tests.length === 0).map((m) => m.name)).toEqual([]);
  });
});
