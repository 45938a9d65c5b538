// Where the page's engine runs: in a Web Worker of its own (the page's main thread only draws),
// and in the page itself when no worker starts.
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

const seconds = (page) => page.$eval('#clock', (c) => Number(c.dataset.seconds));

/** Waits until the clock passes `t` simulated seconds. */
const passes = (page, t) => page.waitForFunction(
  (s) => Number(document.querySelector('#clock').dataset.seconds) > s, t, { timeout: 20000 });

test('the engine runs in a Web Worker of its own and the page follows its clock', async () => {
  const { page, url } = site;
  site.problems.length = 0;
  await page.goto(`${url}?preset=flywheel&speed=100`);
  await page.waitForSelector('#clock');
  await passes(page, 5);
  const workers = page.workers().map((w) => new URL(w.url()).pathname);
  assert.deepEqual(workers, ['/docs/flywheel/www/engine-worker.js']);
  // one engine for the page: the module it compiled, posted to the worker (no second download)
  const wasm = await page.evaluate(() => performance.getEntriesByType('resource')
    .filter((e) => e.name.endsWith('.wasm')).length);
  assert.equal(wasm, 1);
  await page.click('#play');
  // the frame in flight when the pause was clicked may still land
  await page.waitForTimeout(300);
  const paused = await seconds(page);
  await page.waitForTimeout(500);
  assert.equal(await seconds(page), paused, 'paused, the worker stops too');
  assert.deepEqual(site.problems, []);
});

test('with its worker script blocked the page runs the engine itself', async () => {
  const { page, url } = site;
  await page.route('**/engine-worker.js', (route) => route.abort());
  site.problems.length = 0;
  try {
    await page.goto(`${url}?preset=flywheel&speed=100`);
    await page.waitForSelector('#clock');
    await passes(page, 5);
    assert.deepEqual(page.workers(), []);
    const others = site.problems.filter((p) => !p.includes('engine-worker.js'));
    assert.deepEqual(others, [], 'nothing else went wrong');
  } finally {
    await page.unroute('**/engine-worker.js');
  }
});
