import type { Mutation } from './list.ts';

/** Stream history (issue 28): the rules of recording, keeping and answering the streams. */
export const STREAM_HISTORY_MUTATIONS: Mutation[] = [
  {
    name: 'stream history: a stream ends on one check that does not show it live',
    file: 'src/sync/queries.ts',
    from: 'if (offline && row.sync_misses < 2) wentOffline.push(row.id);',
    to: 'if (!seen) wentOffline.push(row.id);',
    tests: ['test/stream-history.test.ts'],
  },
  {
    name: 'stream history: a restarted instance ends the open streams it finds (a second stream after a restart)',
    file: 'src/sync/poller.ts',
    from: '    this.#held = held;\n    return held;',
    to:
      "    if (held && !this.#held) await this.opts.database.db.updateTable('streams')" +
      ".set((eb) => ({ ended_at: eb.ref('last_seen_at') })).where('ended_at', 'is', null).execute();\n" +
      '    this.#held = held;\n    return held;',
    tests: ['test/stream-history.test.ts'],
  },
  {
    name: "stream history: a failed check counts as a sample (the provider's last answer is used again)",
    file: 'src/sync/poller.ts',
    from: 'const answer = await provider.check(channels, wantProfiles);',
    to:
      'const last = ((globalThis as Record<string, unknown>).lastAnswers ??= new Map()) as Map<string, unknown>;\n' +
      '      const answer = await provider.check(channels, wantProfiles).then(\n' +
      '        (a) => (last.set(provider.id, a), a),\n' +
      '        (e: unknown) => { if (!last.has(provider.id)) throw e; return last.get(provider.id) as never; },\n' +
      '      );',
    tests: ['test/stream-history.test.ts'],
  },
  {
    name: "stream history: a check's upsert of the kept figures sets only the count (hours and viewers stay old)",
    file: 'src/db/update-many.ts',
    from: 'columns.filter((c) => c !== upsertOn).map(',
    to: "columns.filter((c) => c === 'streams').map(",
    tests: ['test/stream-history.test.ts'],
  },
  {
    name: 'stream history: hours rounded down instead of half up',
    file: 'src/shared/history.ts',
    from: '(seconds * 10 + 1800) / 3600',
    to: '(seconds * 10) / 3600',
    tests: ['test/stream-history.test.ts'],
  },
  {
    name: 'stream history: limit above 100 accepted',
    file: 'src/streamers/schemas.ts',
    from: '    HISTORY.streamsLimitMax,\n  ),',
    to: '    1000,\n  ),',
    tests: ['test/stream-history.test.ts'],
  },
  {
    name: 'stream history: a start time in the future kept',
    file: 'src/history/record.ts',
    from: 'since === null || since > now ? now : since',
    to: 'since ?? now',
    tests: ['test/stream-history.test.ts'],
  },
  {
    name: 'stream history: viewers not clamped',
    file: 'src/history/record.ts',
    from: 'Math.min(Math.max(Math.trunc(n), 0), HISTORY.maxViewers)',
    to: 'Math.trunc(n)',
    tests: ['test/stream-history.test.ts'],
  },
  {
    name: 'stream history: figures not made again when a stream leaves the 30-day window',
    file: 'src/history/prune.ts',
    from: ".where('oldest_start', '<', statsCutoff(now))",
    to: ".where('oldest_start', '<', '0')",
    tests: ['test/stream-history.test.ts'],
  },
  {
    name: 'stream history: samples kept as long as streams',
    file: 'src/history/prune.ts',
    from: 'before(now, HISTORY.samplesDays * DAY)',
    to: 'before(now, HISTORY.streamsDays * DAY)',
    tests: ['test/stream-history.test.ts'],
  },
  {
    name: 'stream history: an open stream left for hours is continued',
    file: 'src/history/prune.ts',
    from: 'before(now, HISTORY.staleHours * HOUR)',
    to: 'before(now, HISTORY.staleHours * 1000 * HOUR)',
    tests: ['test/stream-history.test.ts'],
  },
  {
    name: 'live sync batch: SQLite writes only the first row of each kind of write',
    file: 'src/db/update-many.ts',
    from: 'for (const row of shaped) {',
    to: 'for (const row of shaped.slice(0, 1)) {',
    tests: ['test/live-sync.test.ts', 'test/stream-history.test.ts'],
  },
  {
    name: 'live sync batch: PostgreSQL writes only the first row of each statement',
    file: 'src/db/update-many.ts',
    from: '.slice(k, k + perStatement)',
    to: '.slice(k, k + 1)',
    tests: ['test/live-sync.test.ts', 'test/stream-history.test.ts'],
    project: 'postgres',
  },
  {
    name: "stream history: a batch's 30-day figures made from the streams as they were before its check",
    file: 'src/history/record.ts',
    from: 'counted.filter((k) => k.started_at >= cutoff)',
    to: 'known.filter((k) => k.started_at >= cutoff)',
    tests: ['test/stream-history.test.ts'],
  },
];
