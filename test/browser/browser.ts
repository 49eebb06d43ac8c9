/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { ADMIN_PASSWORD, startApp, type TestApp } from '../helpers/app.ts';
import { dbKind } from '../helpers/database.ts';
import { type FakeProviders, startFakeProviders } from '../helpers/fake-providers.ts';

/** Shared set-up of the browser tests: the real app, fake providers and Debian's chromium. */

const CHROMIUM = '/usr/bin/chromium';
const hasChromium = existsSync(CHROMIUM);
/** `BROWSER_TESTS=off`: CI's second Node.js pass (.ci/run), where the page's bytes are the same. */
const wanted = process.env.BROWSER_TESTS !== 'off';
export const runBrowser = hasChromium && wanted && dbKind === 'sqlite';
if (!hasChromium) {
  console.log(
    '\n*** Browser tests SKIPPED: /usr/bin/chromium is missing (apt-get install -y chromium). ***\n',
  );
} else if (!wanted) {
  console.log('\n*** Browser tests SKIPPED: BROWSER_TESTS=off. ***\n');
}

const SHOTS = 'test-results/screenshots';
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface Env {
  t: TestApp;
  fake: FakeProviders;
  browser: Browser;
  base: string;
}

export interface PageOptions {
  phone?: boolean;
  lang?: 'cs' | 'en';
  dark?: boolean;
}

/** Starts the app with the sample streamers, and a browser, for the file's tests. */
export function useBrowser(
  seed: (t: TestApp) => Promise<void> = sampleStreamers,
  extraEnv: () => Record<string, string> = () => ({}),
): Env {
  const env = {} as Env;
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    env.fake = await startFakeProviders();
    env.t = await startApp({ ...env.fake.env(), ...extraEnv() });
    env.base = env.t.config.baseUrl; // localhost: the host the sign-in cookie belongs to
    env.browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-quic',
        '--no-first-run',
      ],
    });
    await seed(env.t);
  });
  afterAll(async () => {
    await env.browser?.close();
    await env.t?.close();
    await env.fake?.close();
  });
  return env;
}

/** Alpha (live), Gamma and Beta rated; Delta unrated. */
export async function sampleStreamers(t: TestApp): Promise<void> {
  const admin = await t.admin();
  const rate = async (name: string, v: number, extra = {}) => {
    const id = await t.streamer(name);
    await admin.put(`/api/streamers?id=${id}`, {
      r: { s: v, g: v, a: v - 1, v, n: v, ns: v - 2, o: v },
      reward: 40 + v * 5,
      ...extra,
    });
    return id;
  };
  await rate('Alpha Gamer', 9, { status: 'live', game: 'Chess', title: 'Blitz & chill' });
  await rate('Beta Builder', 6);
  await rate('Gamma Streams', 7, { provider_b: 'gammakick' });
  await t.streamer('Delta Unrated');
}

export async function newPage(
  env: Env,
  opts: PageOptions = {},
): Promise<{ page: Page; context: BrowserContext }> {
  const context = await env.browser.newContext({
    viewport: opts.phone ? { width: 375, height: 740 } : { width: 1366, height: 900 },
    bypassCSP: false,
    colorScheme: opts.dark ? 'dark' : 'light',
  });
  if (opts.lang) await context.addInitScript(`localStorage.setItem('lang', '${opts.lang}')`);
  context.setDefaultTimeout(10_000);
  const page = await context.newPage();
  page.on('pageerror', (err) => {
    throw err;
  });
  return { page, context };
}

export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
}

/** axe-core, injected through a CSP-bypassing context: no serious or critical violation. */
export async function axe(env: Env, page: Page, label: string): Promise<void> {
  const context = await env.browser.newContext({
    bypassCSP: true,
    colorScheme: (await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches))
      ? 'dark'
      : 'light',
    storageState: await page.context().storageState(),
  });
  const copy = await context.newPage();
  await copy.goto(page.url());
  await copy.waitForLoadState('networkidle');
  await copy.addScriptTag({ content: axeSource });
  const result = await copy.evaluate(async () => {
    const r = await (
      window as unknown as {
        axe: { run: () => Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }> };
      }
    ).axe.run();
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
  });
  await context.close();
  const bad = result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad, `${label}: ${JSON.stringify(bad)}`).toEqual([]);
}

export async function signIn(env: Env, page: Page, provider: 'provider_a' | 'provider_b'): Promise<void> {
  await page.goto(`${env.base}/api/oauth/login/${provider}`);
  await page.waitForURL(`${env.base}/`);
}

export async function adminLogin(env: Env, page: Page): Promise<void> {
  await page.goto(`${env.base}/#/admin`);
  await page.getByLabel(/Heslo|Password/).fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: /Přihlásit|Log in/ }).click();
  await page.getByRole('heading', { name: /Administrace|Administration/ }).waitFor();
}
