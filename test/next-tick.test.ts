/**
 * The service keeps the shape of process.nextTick's objects alive (src/lib/next-tick.ts): on
 * Node.js 20 a full garbage collection while none of them is alive otherwise makes V8 forget
 * it, and every answer afterwards adds their keys through V8's runtime (the small answers ran
 * at 0.84x of a bare Fastify). Read off V8 itself, after such a collection: `%DebugPrint` of
 * the function lists its feedback slots, each with its state (test/fixtures/print-next-tick.js).
 */
import { once } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Service } from './helpers/service.ts';

const temp = mkdtempSync(join(tmpdir(), 'next-tick-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

const PRINT = join(process.cwd(), 'test', 'fixtures', 'print-next-tick.js');

/**
 * The literal's keyed slots in the first `%DebugPrint(process.nextTick)` of the output: each
 * slot's state and first entry.
 */
function literalSlots(output: string[]): { state: string; entry: string }[] {
  const first = output.findIndex((line) => line.startsWith('DebugPrint:'));
  const second = output.findIndex((line, i) => i > first && line.startsWith('DebugPrint:'));
  if (first < 0 || second < 0)
    throw new Error(`not two prints in the output: ${output.slice(-3).join(' | ')}`);
  const lines = output.slice(first, second);
  const slots: { state: string; entry: string }[] = [];
  lines.forEach((line, i) => {
    const slot = /slot #\d+ DefineKeyedOwnPropertyInLiteral (\w+)/.exec(line);
    if (slot) slots.push({ state: slot[1]!, entry: lines[i + 1]?.trim() ?? '' });
  });
  return slots;
}

describe('process.nextTick after the start (src/lib/next-tick.ts)', () => {
  it('after a full collection between ticks, its keys still have one live shape each', async () => {
    const service = await Service.start({
      databaseUrl: `sqlite:${join(temp, 'fresh.db')}`,
      nodeArgs: ['--allow-natives-syntax', '--expose-gc', '--import', PRINT],
    });
    try {
      for (let i = 0; i < 50; i++) expect((await fetch(`${service.url}/healthz`)).status).toBe(200);
      service.kill('SIGUSR2');
      await service.line(/^DebugPrint:/, 10_000);
    } finally {
      // The pipe may still hold the end of the output after the exit.
      expect((await service.stop()).code).toBe(0);
      const out = service.child.stdout!;
      if (!out.readableEnded) await once(out, 'end');
    }
    const slots = literalSlots(service.logs);
    // The literal's four keys (two computed, two after them) each have a slot.
    expect(slots.length, service.tail(5)).toBeGreaterThanOrEqual(2);
    for (const slot of slots) {
      expect(slot.state).toBe('MONOMORPHIC');
      expect(slot.entry).toMatch(/\[weak\] 0x[0-9a-f]+ <Map/);
    }
  });
});
