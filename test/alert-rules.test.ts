import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * Issue 45 item 22: the kit's alerts (deploy/prometheus/), held by promtool when it is
 * installed (Debian: `apt-get install -y prometheus`): the rules load, and the backup alert
 * fires for an old backup and also when the backup metric is missing altogether.
 */
const DIR = 'deploy/prometheus';
const RULES = `${DIR}/streamer-rating.rules.yml`;
const has = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;

describe('the alert rules of the kit', () => {
  it('the backup alert fires when no backup metric is there at all (absent), not only when it is old', () => {
    const rules = readFileSync(RULES, 'utf8');
    expect(rules).toContain('alert: StreamerRatingBackupMissing');
    expect(rules).toMatch(/or absent\(backup_last_success_timestamp_seconds\{job="streamer-rating"\}\)/);
    // Every metric the rules name is one the service exports (src/metrics/collector.ts).
    const collector = readFileSync('src/metrics/collector.ts', 'utf8');
    for (const metric of [
      'backup_last_success_timestamp_seconds',
      'build_info',
      'http_requests_total',
      'deliveries_total',
    ])
      expect(collector).toContain(`'${metric}'`);
    // Messages given up or perhaps lost are an alert of their own (they were said in the log only).
    expect(rules).toContain('alert: StreamerRatingDeliveriesFailing');
  });

  it.runIf(has('promtool'))('promtool checks the rules and their unit tests pass', () => {
    const check = spawnSync('promtool', ['check', 'rules', RULES], { encoding: 'utf8' });
    expect(check.status, `${check.stdout}${check.stderr}`).toBe(0);
    const test = spawnSync('promtool', ['test', 'rules', 'streamer-rating.rules.test.yml'], {
      cwd: DIR,
      encoding: 'utf8',
    });
    expect(test.status, `${test.stdout}${test.stderr}`).toBe(0);
    expect(test.stdout).toContain('SUCCESS');
  });
});
