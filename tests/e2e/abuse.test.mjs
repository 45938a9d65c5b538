// The page under abuse: extreme sliders, rapid toggling, resizing, a frozen background tab — the
// page stays responsive (no long task over 200 ms after start-up) and its JS heap stays bounded.
// Also: settings survive a reload, and a corrupted stored value is reported and set aside.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { openSite } from './harness.mjs';

const LONG_TASK_MS = 200;
let site;

before(async () => {
  site = await openSite();
  // Every long task from the first script on, recorded in the page.
  await site.page.context().addInitScript(() => {
    window.__longTasks = [];
    try {
      new PerformanceObserver((list) => {
        for (const e of list.getEntries()) window.__longTasks.push(Math.round(e.duration));
      }).observe({ type: 'longtask', buffered: true });
    } catch (_) { /* no longtask support: the assertions see no entries */ }
  });
});
after(async () => {
  await site?.close();
});

async function open(query) {
  await site.page.goto(`${site.url}${query}`);
  await site.page.waitForSelector('#pipeline-a');
  // Start-up (compiling the module, building the run) is not the user's interaction.
  await site.page.waitForTimeout(300);
  await site.page.evaluate(() => { window.__longTasks = []; });
}

const clock = () => site.page.$eval('#clock', (el) => Number(el.dataset.seconds));
const heapMb = () => site.page.evaluate(() => (performance.memory?.usedJSHeapSize ?? 0) / 1048576);

async function assertResponsive(what) {
  const { page } = site;
  const long = await page.evaluate(() => window.__longTasks);
  assert.ok(long.every((d) => d <= LONG_TASK_MS), `${what}: long tasks ${JSON.stringify(long)} ms`);
  const t0 = Date.now();
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => r())));
  assert.ok(Date.now() - t0 < 1000, `${what}: a frame within a second`);
  assert.deepEqual(site.problems, [], `${what}: no console error, page error or off-origin request`);
}

test('the maximum objects at the maximum speed stay responsive with a bounded heap', async () => {
  await open('?preset=flywheel&objects=5000&workers=64&speed=10000');
  const heap0 = await heapMb();
  const c0 = await clock();
  await site.page.waitForTimeout(5000);
  const finished = (await site.page.$('#clock .done')) !== null;
  assert.ok((await clock()) > c0 || finished, 'the clock runs (or the run already reached its end)');
  const heap1 = await heapMb();
  assert.ok(heap1 < Math.max(64, heap0 * 3), `JS heap ${heap0.toFixed(1)} → ${heap1.toFixed(1)} MiB`);
  await assertResponsive('max objects at max speed');
});

test('the minimum slider values and an out-of-range URL fall back cleanly', async () => {
  await open('?preset=flywheel&objects=-1&speed=0');
  const named = await site.page.$$eval('#notices .notice', (els) => els.map((e) => e.dataset.param));
  assert.deepEqual(named, ['objects', 'speed']);
  for (const id of ['#set-objects-count', '#set-controller-workers', '#set-logic', '#speed']) {
    if (await site.page.isEnabled(id)) await site.page.fill(id, '0');
  }
  await site.page.waitForTimeout(500);
  await assertResponsive('minimum sliders');
});

test('rapid toggling of fixes, play, compare and presets', async () => {
  await open('?preset=flywheel&speed=1000');
  const { page } = site;
  for (let i = 0; i < 20; i++) {
    await page.click('#fix-sub');
    await page.click('#fix-pred');
    await page.click('#play');
  }
  for (let i = 0; i < 6; i++) await page.click('#compare');
  for (const p of ['fixed', 'predicate-only', 'flywheel', 'subresource+predicate', 'flywheel']) {
    await page.selectOption('#preset', p);
  }
  for (let i = 0; i < 20; i++) await page.keyboard.press('Space');
  await page.waitForTimeout(500);
  await assertResponsive('rapid toggling');
});

test('resizing back and forth', async () => {
  await open('?preset=flywheel&speed=500&b=sub.status-patch.pred.guard');
  const sizes = [[320, 480], [1920, 1080], [640, 360], [2560, 1440], [1280, 900]];
  for (let i = 0; i < 4; i++) {
    for (const [w, h] of sizes) await site.page.setViewportSize({ width: w, height: h });
  }
  await site.page.waitForTimeout(500);
  await assertResponsive('resizing');
});

test('a frozen background tab comes back without a burst of work', async () => {
  // Slow enough that the 10-minute run does not end during the test.
  await open('?preset=flywheel&objects=2000&speed=50');
  const cdp = await site.page.context().newCDPSession(site.page);
  await cdp.send('Page.setWebLifecycleState', { state: 'frozen' });
  await new Promise((r) => setTimeout(r, 6000));
  await cdp.send('Page.setWebLifecycleState', { state: 'active' });
  await site.page.evaluate(() => document.dispatchEvent(new Event('visibilitychange')));
  const c0 = await clock();
  await site.page.waitForTimeout(1500);
  assert.ok((await clock()) > c0, 'the clock runs again');
  await assertResponsive('back from a frozen tab');
  await cdp.detach();
});

test('settings survive a reload; a corrupted stored value is reported and set aside', async () => {
  const { page } = site;
  await open('?preset=fixed&workers=7&speed=50');
  await page.waitForFunction(() => (localStorage.getItem('flywheel.settings') ?? '').includes('preset=fixed'));
  await page.goto(site.url);
  await page.waitForSelector('#pipeline-a');
  assert.equal(await page.inputValue('#preset'), 'fixed', 'the stored preset');
  assert.equal(await page.textContent('#speed-value'), '50×', 'the stored speed');
  await page.waitForFunction(() => location.search.includes('workers=7'));

  await page.evaluate(() => localStorage.setItem('flywheel.settings', 'garbage{'));
  await page.goto(site.url);
  await page.waitForSelector('#pipeline-a');
  assert.equal(await page.inputValue('#preset'), 'flywheel', 'the defaults');
  const named = await page.$$eval('#notices .notice', (els) => els.map((e) => e.dataset.param));
  assert.deepEqual(named, ['stored'], 'the notice names the stored settings');
  assert.equal(await page.evaluate(() => localStorage.getItem('flywheel.settings.corrupt')), 'garbage{');
  await assertResponsive('storage');
  await page.evaluate(() => localStorage.clear());
});

test('export and import as a file round-trip exactly; a bad file is refused by a notice', async () => {
  const { page } = site;
  await open('?preset=predicate-only&workers=5&seed=9&speed=250&b=sub.status-patch.pred.guard&lang=zh');
  await page.waitForFunction(() => location.search.startsWith('?preset=predicate-only'));
  const before = await page.evaluate(() => location.search);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#export-settings')]);
  const text = fs.readFileSync(await download.path(), 'utf8');
  assert.equal(text, `flywheel-settings/1\n${before.slice(1)}\n`);
  await open('?preset=flywheel');
  await page.setInputFiles('#import-settings', {
    name: 'flywheel-settings.txt', mimeType: 'text/plain', buffer: Buffer.from(text),
  });
  await page.waitForFunction((q) => location.search === q, before);
  assert.equal(await page.inputValue('#preset'), 'predicate-only');
  assert.equal(await page.inputValue('#seed'), '9');
  await page.setInputFiles('#import-settings', {
    name: 'bad.txt', mimeType: 'text/plain', buffer: Buffer.from('flywheel-settings/1\nworkers=9999'),
  });
  await page.waitForSelector('#notices .notice[data-param="import"]');
  assert.equal(await page.evaluate(() => location.search), before, 'a refused file changes nothing');
  await assertResponsive('export / import');
  await page.evaluate(() => localStorage.clear());
});

test('a browser without WebAssembly SIMD is told which browsers run the page, in its language', async () => {
  const page = await site.page.context().newPage();
  const fetched = [];
  page.on('request', (req) => fetched.push(req.url()));
  try {
    // such a browser's validator refuses the page's probe, as it would the module itself
    await page.addInitScript(() => {
      WebAssembly.validate = () => false;
    });
    for (const [lang, words, htmlLang] of [['en', /WebAssembly SIMD.*Safari 16\.4/, 'en'], ['zh', /浏览器.*Safari 16\.4/, 'zh-CN']]) {
      fetched.length = 0;
      await page.goto(`${site.url}?preset=flywheel&lang=${lang}`);
      const shown = await page.waitForSelector('#app .load-error[role="alert"]');
      assert.match(await shown.textContent(), words);
      assert.equal(await page.getAttribute('html', 'lang'), htmlLang);
      assert.ok(!fetched.some((u) => u.endsWith('.wasm')), `the module is not fetched: ${fetched.join(', ')}`);
    }
  } finally {
    await page.close();
  }
  assert.deepEqual(site.problems, [], 'no console error, page error or off-origin request');
});
