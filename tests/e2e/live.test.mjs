// The page's live view: while the runs play, only the components that draw live data re-render;
// the control bar and the Parameters panel render again only when what they show changes.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openSite } from './harness.mjs';

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});

const renders = () => site.page.evaluate(() => window.__flywheelRenders());

test('while playing, the control bar and the Parameters panel do not re-render but the charts do', async () => {
  const { page } = site;
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`${site.url}?preset=flywheel&speed=1`);
  await page.waitForSelector('#pipeline-a');
  await page.waitForFunction(() => Number(document.querySelector('#clock')?.dataset.seconds) > 0.3);
  const before = await renders();
  const t0 = await page.$eval('#clock', (el) => Number(el.dataset.seconds));
  await page.waitForTimeout(2000);
  const after = await renders();
  const t1 = await page.$eval('#clock', (el) => Number(el.dataset.seconds));
  assert.ok(t1 > t0 + 1, `the clock runs: ${t0} → ${t1}`);
  const grew = (name) => (after[name] ?? 0) - (before[name] ?? 0);
  assert.equal(grew('Controls'), 0, 'the control bar does not re-render while playing');
  assert.equal(grew('Params'), 0, 'the Parameters panel does not re-render while playing');
  assert.ok(grew('Clock') + grew('Chart') > 5, `the live parts re-render: ${JSON.stringify(after)}`);
  assert.deepEqual(site.problems, []);
});
