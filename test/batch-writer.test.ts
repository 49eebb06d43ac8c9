import { describe, expect, it } from 'vitest';
import type { DbContext } from '../src/db/context.ts';
import { BatchWriter } from '../src/db/transaction.ts';

/**
 * PostgreSQL's group commit (db/transaction.ts BatchWriter), on its own: its statement is a
 * stand-in that answers when the test says so, so that what is in flight at each moment is
 * seen, not timed. The grouped comment insert over HTTP is in races.test.ts and
 * comment-rules.test.ts.
 */
function writerWithGates(inFlight: number, maxBatch = 500) {
  const groups: number[][] = [];
  const gates: (() => void)[] = [];
  let moved = 0;
  let writing = 0;
  let most = 0;
  const ctx = { changes: { bump: () => moved++, bumpContent: () => moved++ } } as unknown as DbContext;
  const writer = new BatchWriter<number, string>(
    ctx,
    async (_db, inputs) => {
      groups.push(inputs);
      most = Math.max(most, ++writing);
      await new Promise<void>((resolve) => gates.push(resolve));
      writing--;
      return inputs.map((i) => `#${i}`);
    },
    'content',
    maxBatch,
    inFlight,
  );
  return {
    writer,
    groups,
    gates,
    moved: () => moved,
    most: () => most,
  };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('group commit on PostgreSQL (db/transaction.ts BatchWriter)', () => {
  it('shares what waits among the groups it may have in flight, never more, and acknowledges each write after its own group', async () => {
    const w = writerWithGates(2);
    const answers: string[] = [];
    const first = Array.from({ length: 10 }, (_, i) => w.writer.run(i).then((a) => void answers.push(a)));
    await turn();
    // Ten writes and two free places: two groups of five side by side, not one of ten.
    expect(w.groups).toEqual([
      [0, 1, 2, 3, 4],
      [5, 6, 7, 8, 9],
    ]);
    const later = Array.from({ length: 3 }, (_, i) => w.writer.run(10 + i).then((a) => void answers.push(a)));
    await turn();
    expect(w.groups).toHaveLength(2);
    w.gates.shift()?.();
    await Promise.all(first.slice(0, 5));
    // The writes that waited go as one group into the place that came free; the other group
    // is still unacknowledged.
    expect(w.groups[2]).toEqual([10, 11, 12]);
    expect(answers.sort()).toEqual(['#0', '#1', '#2', '#3', '#4']);
    while (w.gates.length > 0) {
      w.gates.shift()?.();
      await turn();
    }
    await Promise.all([...first, ...later]);
    expect(answers).toHaveLength(13);
    expect(w.most()).toBe(2);
    expect(w.moved()).toBe(3);
    expect({ groups: w.writer.groups, written: w.writer.written }).toEqual({ groups: 3, written: 13 });
  });

  it('never has more groups in flight than it may, even when more writes wait than its groups hold', async () => {
    const w = writerWithGates(2, 4);
    const all = Array.from({ length: 10 }, (_, i) => w.writer.run(i));
    await turn();
    expect(w.groups).toEqual([
      [0, 1, 2, 3],
      [4, 5, 6, 7],
    ]);
    w.gates.shift()?.();
    await Promise.all(all.slice(0, 4));
    expect(w.groups[2]).toEqual([8, 9]);
    while (w.gates.length > 0) {
      w.gates.shift()?.();
      await turn();
    }
    expect(await Promise.all(all)).toHaveLength(10);
    expect(w.most()).toBe(2);
  });

  it('with one group in flight, writes wait for it and then go together', async () => {
    const w = writerWithGates(1);
    const all = Array.from({ length: 4 }, (_, i) => w.writer.run(i));
    await turn();
    expect(w.groups).toEqual([[0, 1, 2, 3]]);
    const more = [w.writer.run(4), w.writer.run(5)];
    await turn();
    expect(w.groups).toHaveLength(1);
    w.gates.shift()?.();
    await Promise.all(all);
    await turn();
    expect(w.groups[1]).toEqual([4, 5]);
    w.gates.shift()?.();
    expect(await Promise.all(more)).toEqual(['#4', '#5']);
    expect(w.most()).toBe(1);
  });
});
