import { test } from 'node:test';
import { openSite } from '/work/main/tests/e2e/harness.mjs';
test('dbg', async () => {
  const site = await openSite();
  const { page } = site;
  const W = Number(process.env.W || 390);
  await page.setViewportSize({ width: W, height: 844 });
  await page.goto(`${site.url}?preset=${process.env.P || 'seed-000-incident'}&speed=10000&lang=en`);
  await page.waitForFunction(() => Number(document.querySelector('#timeline')?.dataset.seconds) > 20, null, { timeout: 120000 });
  await page.focus('#timeline');
  page.on('console', (m) => console.log('page:', m.text()));
  await page.evaluate(() => { window.__tl = document.querySelector('#timeline'); new MutationObserver((ms) => { for (const m of ms) for (const n of m.removedNodes) if (n.contains && n.contains(window.__tl)) console.log('REMOVED', n.tagName, n.className, m.target.tagName, m.target.className); }).observe(document.body, { childList: true, subtree: true }); document.addEventListener('focusout', (e) => console.log('focusout', e.target.id, e.relatedTarget?.id)); });
  await page.keyboard.press('Home');
  await page.waitForTimeout(3000);
  console.log('after Home', await page.evaluate(() => [document.activeElement?.tagName + '#' + document.activeElement?.id, window.__tl === document.querySelector('#timeline'), window.__tl.isConnected]));
  process.exit(0);
});
