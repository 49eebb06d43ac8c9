/**
 * The start keeps one object of `process.nextTick` for the life of the process
 * (src/lib/next-tick.ts says why): first of all, before the database is opened, so that a
 * start which fails there has kept it too. What the object saves is speed, so its effect is
 * tested where speed is measured: without it the bench's `/healthz` and cached badge rows
 * fall under their lines (docs/benchmarks.md "stop 86"). This test reads nothing of the
 * object itself, whose fields are Node.js's own and may change with any release.
 */
import pino from 'pino';
import { expect, it } from 'vitest';
import { parseConfig } from '../src/config/config.ts';
import { keepNextTickShape, keptTickObject } from '../src/lib/next-tick.ts';
import { startServer } from '../src/server.ts';

it('the start keeps a tick object of process.nextTick before it opens the database, once', async () => {
  // A database file under a file: the start fails when it opens the database.
  const config = parseConfig({ DATABASE_URL: 'sqlite:/dev/null/service.db' });
  await expect(startServer(config, pino({ level: 'silent' }))).rejects.toThrow();
  const kept = keptTickObject();
  expect(typeof kept).toBe('object');
  expect(kept).not.toBeNull();
  // Kept for the life of the process: a second start keeps the same one.
  await keepNextTickShape();
  expect(keptTickObject()).toBe(kept);
});
