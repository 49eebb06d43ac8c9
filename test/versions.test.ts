/**
 * Issue 30, item 10: the version a running instance reports, and the migrations of its
 * database and of its build, for an operator checking an upgrade.
 */
import { readFileSync } from 'node:fs';
import { migrations } from '../src/db/migrations/index.ts';
import { describe, expect, it } from 'vitest';
import { latestKnown } from '../src/db/migrator.ts';
import { useApp } from './helpers/app.ts';

const TOKEN = 'versions-test-metrics-token-0123';
const t = await useApp({ METRICS_TOKEN: TOKEN });
const { version } = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

describe('versions', () => {
  it('package.json has a version, and CHANGELOG.md an Unreleased section and an entry for each release', () => {
    expect(version).toMatch(/^\d+\.\d+\.\d+(-[\w.]+)?$/);
    const changelog = readFileSync('CHANGELOG.md', 'utf8');
    expect(changelog).toMatch(/^## \[Unreleased\]$/m);
    const released = version.replace(/-.*$/, '');
    // A pre-release (x.y.z-dev) is the Unreleased section on its way to x.y.z; x.y.z has its entry.
    if (released === version) expect(changelog).toContain(`## [${version}]`);
  });

  it('/healthz?detail=1 answers the version and the newest migration of the database and of the build', async () => {
    const res = await t.client().get('/healthz?detail=1');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ok: true,
      version,
      migrations: { database: latestKnown(), build: latestKnown() },
    });
    expect(latestKnown()).toBe(Object.keys(migrations).sort().at(-1));
    // Without detail it stays the load balancers' short answer.
    expect((await t.client().get('/healthz')).body).toEqual({ ok: true });
    expect((await t.client().get('/healthz?detail=0')).body).toEqual({ ok: true });
  });

  it('the metrics carry build_info{version} 1', async () => {
    // (fetch: the exposition's media type has a parameter the contract checker does not read.)
    const res = await fetch(`${t.url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(await res.text()).toContain(`build_info{version="${version}"} 1`);
  });
});
