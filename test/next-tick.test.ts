/**
 * The start keeps one object of `process.nextTick` for the life of the process
 * (src/lib/next-tick.ts says why; docs/benchmarks.md "stop 86" measured what it saves): first
 * of all, before the database is opened, so that a start which fails there has kept it too.
 */
import pino from 'pino';
import { expect, it } from 'vitest';
import { parseConfig } from '../src/config/config.ts';
import { keptTickObject } from '../src/lib/next-tick.ts';
import { startServer } from '../src/server.ts';

it('the start keeps a tick object of process.nextTick before it opens the database', async () => {
  // A database file under a file: the start fails when it opens the database.
  const config = parseConfig({ DATABASE_URL: 'sqlite:/dev/null/service.db' });
  await expect(startServer(config, pino({ level: 'silent' }))).rejects.toThrow();
  const kept = keptTickObject() as Record<string | symbol, unknown> | undefined;
  // The object Node's task queue made for one tick: its callback, its arguments, its async ids.
  expect(kept).toBeDefined();
  expect(Object.keys(kept!)).toEqual(['callback', 'args']);
  expect(typeof kept!.callback).toBe('function');
  // (Node.js 24 adds its async context frame.)
  expect(Object.getOwnPropertySymbols(kept!).map((s) => s.description)).toEqual(
    expect.arrayContaining(['async_id_symbol', 'trigger_async_id_symbol']),
  );
});
