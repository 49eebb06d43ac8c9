import { chromium } from 'playwright-core';
const base = process.argv[2] ?? 'http://localhost:3917';
const paths = process.argv.slice(3);
const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
for (const phone of [false, true]) for (const path of paths.length ? paths : ['/', '/s/1']) {
  const ctx = await browser.newContext({ viewport: phone ? { width: 375, height: 740 } : { width: 1366, height: 900 } });
  await ctx.addInitScript(() => {
    window.__cls = [];
    new PerformanceObserver((l) => { for (const e of l.getEntries()) window.__cls.push({ v: e.value, r: e.hadRecentInput, src: (e.sources||[]).map(s => s.node?.nodeName + '.' + (s.node?.className ?? '') + ' ' + JSON.stringify(s.previousRect) + '->' + JSON.stringify(s.currentRect)) }); }).observe({ type: 'layout-shift', buffered: true });
  });
  const page = await ctx.newPage();
  page.on('console', (m) => console.log('console', m.type(), m.text()));
  page.on('pageerror', (e) => console.log('pageerror', e.message));
  await page.goto(base + path);
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(500);
  const cls = await page.evaluate(() => window.__cls);
  console.log(phone ? 375 : 1366, path, 'CLS', cls.reduce((a, e) => a + e.v, 0).toFixed(4), JSON.stringify(cls).slice(0, 1500));
  await page.screenshot({ path: `/tmp/pf-shots/${phone ? 375 : 1366}${path.replace(/\W/g, '_')}.png`, fullPage: true });
  await ctx.close();
}
await browser.close();
