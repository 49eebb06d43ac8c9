/**
 * Several instances started at the same moment on a fresh database (a new SQLite file, a new
 * PostgreSQL schema): every one must come up. Migrations have to take a lock; without one an
 * instance fails with `table "users" already exists`.
 */
import { createDatabase, type DbKind } from './lib/database.ts';
import { Service } from '../helpers/service.ts';
import { dbArgument, Findings, isMain, n, runScript, some, type Verdict } from './lib/verdict.ts';

export interface ConcurrentStartOptions {
  rounds: number;
  instances: number;
}

export const FULL: ConcurrentStartOptions = { rounds: 10, instances: 5 };

export async function concurrentStart(kind: DbKind, o: ConcurrentStartOptions = FULL): Promise<Verdict> {
  const name = `concurrent-start (${kind})`;
  const findings = new Findings();
  const database = await createDatabase(kind);
  const failures: string[] = [];
  let started = 0;
  try {
    for (let round = 1; round <= o.rounds; round++) {
      const databaseUrl = await database.fresh();
      const services = await Promise.all(
        Array.from({ length: o.instances }, (_, i) =>
          Service.spawn({ databaseUrl, name: `round ${round} instance ${i + 1}` }),
        ),
      );
      const results = await Promise.allSettled(services.map((s) => s.ready(90_000)));
      for (const result of results) {
        if (result.status === 'fulfilled') started++;
        else failures.push(`round ${round}: ${(result.reason as Error).message}`);
      }
      await Promise.all(services.map((s) => s.stop()));
    }
  } catch (err) {
    findings.fail((err as Error).message);
  } finally {
    await database.cleanup();
  }
  const total = o.rounds * o.instances;
  findings.check(
    failures.length === 0,
    () => `${failures.length} of ${total} instances did not come up: ${some(failures, 2)}`,
  );
  return findings.verdict(
    name,
    `${o.rounds} rounds of ${o.instances} instances at once, ${n(started)} of ${n(total)} came up`,
  );
}

if (isMain(import.meta.url)) {
  const kind = dbArgument();
  await runScript(`concurrent-start (${kind})`, () => concurrentStart(kind));
}
