/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { ADMIN_PASSWORD, startApp, type TestApp, type TestUser } from '../helpers/app.ts';
import { dbKind } from '../helpers/database.ts';
import { type FakeProviders, startFakeProviders } from '../helpers/fake-providers.ts';

/** Shared set-up of the browser tests: the real app, fake providers and Debian's chromium. */

/**
 * Debian's chromium-headless-shell when it is installed (.ci/install-chromium adds it): the same
 * Chromium, built headless only, without the full browser's layers, at half the processor time
 * of the full one in a walk (docs/benchmarks.md, stop 108). Otherwise, and for a walk that reads
 * what a service worker shows (the shell shows no notifications), the full chromium, headless.
 */
const SHELL = '/usr/bin/chromium-headless-shell';
const FULL = '/usr/bin/chromium';
const hasShell = existsSync(SHELL);
const hasChromium = existsSync(FULL);
/**
 * `BROWSER_TESTS`: unset runs every browser test file; `off` runs none; `K/N` runs the K-th of
 * N shares of the files (by name, dealt in turn), so that CI's two Node.js passes (.ci/run) each
 * walk part of the same page bundle.
 */
const choice = process.env.BROWSER_TESTS ?? '';
const share = /^([1-9]\d*)\/([1-9]\d*)$/.exec(choice);
if (choice !== '' && choice !== 'off' && !(share && Number(share[1]) <= Number(share[2])))
  throw new Error(`BROWSER_TESTS=${choice}: expected off, or a share such as 1/2`);
const FILES = readdirSync(dirname(fileURLToPath(import.meta.url)))
  .filter((f) => f.endsWith('.test.ts'))
  .sort();
if (!hasChromium) {
  console.log(
    '\n*** Browser tests SKIPPED: /usr/bin/chromium is missing (apt-get install -y chromium). ***\n',
  );
} else if (choice === 'off') {
  console.log('\n*** Browser tests SKIPPED: BROWSER_TESTS=off. ***\n');
} else if (!hasShell) {
  console.log(
    `\n*** Browser tests on ${FULL}: ${SHELL} takes half the time (apt-get install -y chromium-headless-shell). ***\n`,
  );
}

/** Whether the browser test file at `fileUrl` (its `import.meta.url`) runs here. */
export function runBrowser(fileUrl: string): boolean {
  if (!hasChromium || choice === 'off' || dbKind !== 'sqlite') return false;
  if (!share) return true;
  const index = FILES.indexOf(basename(fileURLToPath(fileUrl)));
  if (index < 0) throw new Error(`${fileUrl} is not a browser test file`);
  return index % Number(share[2]) === Number(share[1]) - 1;
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
  /** The browser's time zone (an IANA name such as `Asia/Tokyo`); the machine's when absent. */
  timezone?: string;
  /**
   * The browser's zoom: 2 is the screen at 200%, as many CSS px less wide and high at twice the
   * device pixels (a 375 px phone at 200% lays the page out at 188 CSS px, under 320: WCAG 1.4.10).
   */
  zoom?: number;
}

/** Starts the app with the sample streamers, and a browser, for the file's tests. */
export function useBrowser(
  seed: (t: TestApp) => Promise<void> = sampleStreamers,
  extraEnv: () => Record<string, string> = () => ({}),
  /** The walk reads the notifications a service worker shows: the full chromium. */
  notifications = false,
): Env {
  const env = {} as Env;
  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    // Chromium starts while the app starts and is seeded: neither waits on the other.
    const launched = chromium.launch({
      executablePath: hasShell && !notifications ? SHELL : FULL,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-quic',
        '--no-first-run',
      ],
    });
    launched.catch(() => {}); // awaited below, after the app's set-up
    try {
      env.fake = await startFakeProviders();
      env.t = await startApp({ ...env.fake.env(), ...extraEnv() });
      env.base = env.t.config.baseUrl; // localhost: the host the sign-in cookie belongs to
      await seed(env.t);
    } finally {
      // Kept even when the set-up failed, so that afterAll closes it.
      env.browser = await launched;
    }
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
  const admin = await t.sharedAdmin();
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

/** A new page signed in as `user` (the session cookie of a client signed in through the API). */
export async function pageAs(env: Env, user: TestUser, opts: PageOptions = {}) {
  const opened = await newPage(env, opts);
  const client = await env.t.signedIn(user);
  await opened.context.addCookies([{ name: 'sid', value: client.cookies.get('sid')!, url: env.base }]);
  return opened;
}

export async function newPage(
  env: Env,
  opts: PageOptions = {},
): Promise<{ page: Page; context: BrowserContext }> {
  const screen = opts.phone ? { width: 375, height: 740 } : { width: 1366, height: 900 };
  const zoom = opts.zoom ?? 1;
  const context = await env.browser.newContext({
    viewport: { width: Math.round(screen.width / zoom), height: Math.round(screen.height / zoom) },
    deviceScaleFactor: zoom,
    bypassCSP: false,
    colorScheme: opts.dark ? 'dark' : 'light',
    ...(opts.timezone ? { timezoneId: opts.timezone } : {}),
  });
  if (opts.lang) await context.addInitScript(`localStorage.setItem('lang', '${opts.lang}')`);
  // A step waits up to 60 s for what it expects: on a loaded machine (the suite at twice its
  // usual time, stop 38) a page's load took more than 10 s twice in one run. A step that can
  // never succeed still fails, within the walk's 240 s hang guard.
  context.setDefaultTimeout(60_000);
  const page = await context.newPage();
  page.on('pageerror', (err) => {
    throw err;
  });
  // Any console error fails the test (issue 30, item 15: the security policy's refusals are
  // logged there). A network answer the test provokes (a wrong password's 401, a missing
  // picture's 404) is logged by the browser as "Failed to load resource" and is not the page's.
  page.on('console', (msg) => {
    if (msg.type() === 'error' && !msg.text().startsWith('Failed to load resource'))
      throw new Error(`console error on ${page.url()}: ${msg.text()}`);
  });
  return { page, context };
}

/**
 * Records every date formatter the context's pages make, by its language and options: Intl's
 * own, and the one each `toLocale…String` with options makes for its call alone. `made` reads
 * a page's list.
 */
export async function countDateFormats(
  context: BrowserContext,
): Promise<{ made: (page: Page) => Promise<string[]> }> {
  await context.addInitScript(`
    window.__formats = [];
    const Made = Intl.DateTimeFormat;
    Intl.DateTimeFormat = new Proxy(Made, {
      construct: (target, args, newTarget) => (window.__formats.push(JSON.stringify(args)), Reflect.construct(target, args, newTarget)),
      apply: (target, self, args) => (window.__formats.push(JSON.stringify(args)), Reflect.apply(target, self, args)),
    });
    for (const name of ['toLocaleString', 'toLocaleDateString', 'toLocaleTimeString']) {
      const own = Date.prototype[name];
      Date.prototype[name] = function (...args) {
        if (args.length) window.__formats.push(name + JSON.stringify(args));
        return own.apply(this, args);
      };
    }`);
  return { made: (page) => page.evaluate<string[]>('window.__formats') };
}

/** Whether the element with this id is on the screen, top to bottom. */
export const inView = (page: Page, id: string): Promise<boolean> =>
  page.evaluate((id) => {
    const box = document.getElementById(id)?.getBoundingClientRect();
    return box !== undefined && box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight;
  }, id);

/**
 * Saves what the screen shows, for people to look at (no test compares them). The screen only:
 * a full page re-lays the page out at its whole height and encodes all of it, four times the
 * work on a long list.
 */
export async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: `${SHOTS}/${name}.png` });
}

/**
 * axe-core over the page as the test left it (menus, dialogs and messages open included), its
 * source handed to the page through the DevTools protocol, which the page's CSP does not bind.
 * Serious and critical findings fail the test. Only the violations are written out in full
 * (`resultTypes`): the rules all run as before, the passes are not listed node by node.
 */
export async function axe(env: Env, page: Page, label: string): Promise<void> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(axeSource);
  const result = await page.evaluate(async () => {
    const r = await (
      window as unknown as {
        axe: {
          run: (
            context: Document,
            options: { resultTypes: string[] },
          ) => Promise<{ violations: { id: string; impact: string; nodes: unknown[] }[] }>;
        };
      }
    ).axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length }));
  });
  const bad = result.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  expect(bad, `${label}: ${JSON.stringify(bad)}`).toEqual([]);
}

export async function signIn(env: Env, page: Page, provider: 'provider_a' | 'provider_b'): Promise<void> {
  await page.goto(`${env.base}/api/oauth/login/${provider}`);
  await page.waitForURL(`${env.base}/`);
}

/**
 * Signs the page's context in as the administrator with the session of a password login
 * through the API: the login form once per walk that tests it, not before every step.
 */
export async function asAdmin(env: Env, context: BrowserContext): Promise<void> {
  const client = await env.t.admin();
  await context.addCookies([{ name: 'sid', value: client.cookies.get('sid')!, url: env.base }]);
}

/** The administration's start, signed in as `asAdmin` does: where `adminLogin` ends. */
export async function adminPage(env: Env, page: Page): Promise<void> {
  await asAdmin(env, page.context());
  await page.goto(`${env.base}/#/admin`);
  await page.getByRole('heading', { name: /Administrace|Administration/ }).waitFor();
}

export async function adminLogin(env: Env, page: Page): Promise<void> {
  await page.goto(`${env.base}/#/admin`);
  await page.getByLabel(/Heslo|Password/).fill(ADMIN_PASSWORD);
  await page.getByRole('button', { name: /Přihlásit|Log in/ }).click();
  await page.getByRole('heading', { name: /Administrace|Administration/ }).waitFor();
}

/** The seven criteria's English labels, in the forms' order. */
export const SCORE_LABELS = [
  'Statistics',
  'Graphics',
  'Alerts',
  'Extras',
  'Preview',
  'Settings',
  'Originality',
] as const;

/** Fills every criterion of a score form (within `scope`: a page or one row) with `value`. */
export async function fillScores(scope: Pick<Page, 'getByLabel'>, value: number): Promise<void> {
  for (const label of SCORE_LABELS) await scope.getByLabel(label, { exact: true }).fill(String(value));
}
