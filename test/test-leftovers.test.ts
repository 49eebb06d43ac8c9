import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { createTestDatabase, dbKind, removeLeftovers } from './helpers/database.ts';

// The tests' own housekeeping: SQLite files a killed run left behind go at the next run's start.
const dir = mkdtempSync(join(tmpdir(), 'leftovers-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test("a run's start removes the test files of processes that are gone, and only those", () => {
  for (const name of [
    'streamers-test-101-aaaaaa',
    'streamers-test-202-bbbbbb',
    'streamers-test-cccccc',
    'other-303-d',
  ]) {
    mkdirSync(join(dir, name));
    writeFileSync(join(dir, name, 'test.db'), 'x');
  }
  const alive = (pid: number) => pid === 202 || pid === 303;
  expect(removeLeftovers(dir, alive)).toEqual(['streamers-test-101-aaaaaa']);
  // A running process's files stay, as do names this run did not make.
  expect(readdirSync(dir).sort()).toEqual([
    'other-303-d',
    'streamers-test-202-bbbbbb',
    'streamers-test-cccccc',
  ]);
});

test('this process counts as running, and its own test files stay', () => {
  const mine = join(dir, 'mine');
  const own = `streamers-test-${process.pid}-eeeeee`;
  mkdirSync(join(mine, own), { recursive: true });
  expect(removeLeftovers(mine)).toEqual([]);
  expect(readdirSync(mine)).toEqual([own]);
});

test.skipIf(dbKind !== 'sqlite')(
  "a SQLite test file's directory is named with its process's id",
  async () => {
    const database = await createTestDatabase();
    try {
      expect(database.url).toContain(`/streamers-test-${process.pid}-`);
    } finally {
      await database.cleanup();
    }
  },
);
