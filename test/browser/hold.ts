import type { Page } from 'playwright-core';
import { expect } from 'vitest';

/**
 * Holds the page's GET answers of one API path until let go, so that a walk can check what the
 * page says before the list it reloads after an action reaches it: said once shown, never
 * before (a screen reader hears the status line when it changes).
 */
export async function holdReloads(page: Page, pathname: string) {
  const held: (() => Promise<void>)[] = [];
  const matches = (url: URL) => url.pathname === pathname;
  await page.route(matches, async (route) => {
    if (route.request().method() !== 'GET') return route.continue();
    const response = await route.fetch();
    held.push(() => route.fulfill({ response }));
  });
  return {
    /** Waits until the page has asked for the list again (its answer held back). */
    asked: () => expect.poll(() => held.length).toBeGreaterThan(0),
    /** Lets every held answer and those to come through. */
    async letGo(): Promise<void> {
      for (const fulfil of held.splice(0)) await fulfil();
      await page.unroute(matches);
    },
  };
}
