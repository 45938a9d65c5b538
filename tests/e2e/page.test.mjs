// The page loads from a sub-path, runs, responds to its controls and draws its chart.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openSite, inkedPixels } from './harness.mjs';

let site;
before(async () => {
  site = await openSite();
  await site.page.goto(site.url);
  await site.page.waitForSelector('#heap-chart');
});
after(async () => {
  await site?.close();
});

test('the page loads from a sub-path with no console error and no off-origin request', async () => {
  await site.page.waitForTimeout(500);
  assert.equal(await site.page.title(), 'Flywheel — Kubernetes operator playground');
  assert.deepEqual(site.problems, []);
});

test('the chart canvas is drawn (pixel read-back finds ink)', async () => {
  await site.page.waitForTimeout(300);
  const ink = await inkedPixels(site.page, '#heap-chart');
  assert.ok(ink > 1000, `only ${ink} inked pixels`);
});

test('the chart keeps updating on its timer while playing', async () => {
  const before = await site.page.textContent('#gc-count');
  await site.page.waitForFunction((b) => document.querySelector('#gc-count').textContent !== b, before, {
    timeout: 5000,
  });
});

test('pause stops the updates and play resumes them', async () => {
  const { page } = site;
  await page.click('#play');
  assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'false');
  const frozen = await page.$eval('#heap-chart', (c) => c.toDataURL());
  await page.waitForTimeout(400);
  assert.equal(await page.$eval('#heap-chart', (c) => c.toDataURL()), frozen, 'paused chart must not change');
  await page.click('#play');
  await page.waitForFunction((f) => document.querySelector('#heap-chart').toDataURL() !== f, frozen);
});

test('the GOGC slider changes the setting shown', async () => {
  const { page } = site;
  await page.$eval('#gogc', (el) => {
    el.value = '200';
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await page.waitForFunction(() => document.querySelector('label[for=gogc]').textContent === 'GOGC 200%');
});

test('a screenshot of the page is saved', async () => {
  await site.page.waitForTimeout(1000);
  const file = await site.screenshot('page');
  assert.ok(file.endsWith('page.png'));
  assert.deepEqual(site.problems, [], 'no problem appeared while operating the page');
});
