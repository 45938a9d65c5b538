// A and B on one clock (issue 18): after a seek back every chart keeps the run so far and marks
// the instant shown with a cursor; in a comparison the instant where A and B part is pinned on
// the timeline and names the difference.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openSite, clock, settled } from './harness.mjs';

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});

const cursors = (page) =>
  page.$$eval('.charts canvas', (els) => els.map((el) => el.dataset.cursor ?? null));

test('after a seek back to 5 s every chart shows the run so far with a cursor at 5 s', async () => {
  const { page } = site;
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`${site.url}?preset=flywheel&speed=20&lang=en`);
  await page.waitForFunction(() => Number(document.querySelector('#timeline')?.dataset.seconds) > 15);
  assert.deepEqual([...new Set(await cursors(page))], [null], 'no cursor while at the newest instant');
  await page.keyboard.press('Space');
  await page.focus('#timeline');
  await page.keyboard.press('Home');
  await settled(page);
  // step forward to about 5 s by clicking the track
  const end = await page.$eval('#timeline', (el) => Number(el.getAttribute('aria-valuemax')));
  const box = await page.locator('#timeline').boundingBox();
  await page.mouse.click(box.x + (box.width * 5) / end, box.y + box.height / 2);
  await settled(page);
  await page.waitForTimeout(300);
  const now = await clock(page);
  assert.ok(now > 2 && now < 9, `the clock went back: ${now}`);
  const marked = await cursors(page);
  assert.equal(marked.length, 4, 'four charts');
  for (const c of marked) assert.equal(Number(c).toFixed(1), now.toFixed(1), 'each chart marks the instant');
  await site.screenshot('chart-cursor-1280-en');
  assert.deepEqual(site.problems, []);
});

test('comparing /status alone with /status and the predicate pins where they part and names the predicate', async () => {
  const { page } = site;
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`${site.url}?preset=subresource-only&b=sub.status-update.pred.ts&speed=5&lang=en`);
  const pin = page.locator('#parting');
  await pin.waitFor({ timeout: 20000 });
  const text = await pin.textContent();
  assert.match(text, /^A and B part at \d+\.\d s — B: GenerationChangedPredicate dropped MODIFIED \S+\/\S+ rv=\d+/);
  assert.equal(await page.locator('.tl-parting').count(), 1, 'one pin on the track');
  await page.keyboard.press('Space');
  await pin.click();
  await settled(page);
  const at = Number(await pin.getAttribute('data-at'));
  assert.ok(Math.abs((await clock(page)) - at) < 0.06, 'clicking the sentence goes to the instant');
  await site.screenshot('parting-1280-en');
  await page.goto(`${site.url}?preset=subresource-only&b=sub.status-update.pred.ts&speed=5&lang=zh`);
  await page.locator('#parting').waitFor({ timeout: 20000 });
  assert.match(await page.locator('#parting').textContent(), /^A 与 B 在第 \d+\.\d 秒分开 —— B：GenerationChangedPredicate 丢弃了 MODIFIED/);
  await site.screenshot('parting-1280-zh');
  assert.deepEqual(site.problems, []);
});
