// The playground end to end: the flywheel loops and the fixes converge, A/B, permalink, bad
// parameters, embed, 中文, the keyboard, the panels, and a screenshot per preset.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openSite, inkedPixels, ARTIFACTS, ROOT } from './harness.mjs';

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});

async function open(query) {
  await site.page.goto(`${site.url}${query}`);
  await site.page.waitForSelector('#pipeline-a');
}

const num = (sel) => site.page.$eval(sel, (el) => Number(el.dataset.value ?? el.dataset.seconds));

function noProblems() {
  assert.deepEqual(site.problems, [], 'no console error, page error or off-origin request');
}

test('flywheel at high speed: requests/s and reconciles climb while the loop counter grows', async () => {
  await open('?preset=flywheel&speed=100');
  const { page } = site;
  await page.waitForFunction(() => Number(document.querySelector('#stat-loop-a')?.dataset.value) > 20);
  const loops1 = await num('#stat-loop-a');
  await page.waitForTimeout(1200);
  assert.ok((await num('#stat-loop-a')) > loops1, 'the self-triggered counter keeps growing');
  assert.ok((await num('#stat-rps-a')) > 2, 'requests/s climbed');
  assert.ok((await num('#stat-reconciles-a')) > 2, 'reconciles/s climbed');
  assert.equal(await page.getAttribute('#verdict-a', 'data-state'), 'looping');
  for (const id of ['chart-memory', 'chart-requests', 'chart-queue', 'chart-reconcile']) {
    assert.ok((await inkedPixels(page, `#${id}`)) > 3000, `${id} is drawn`);
  }
  assert.ok((await inkedPixels(page, '#pipeline-a')) > 10000, 'the pipeline is drawn');
  await page.waitForTimeout(1500);
  const shot = await site.screenshot('flywheel-mid-run');
  fs.copyFileSync(shot, path.join(ROOT, 'www', 'screenshot.png'));
  noProblems();
});

test('switching on the fixes makes it converge', async () => {
  await open('?preset=flywheel&speed=1000');
  const { page } = site;
  await page.check('#fix-sub');
  await page.selectOption('#fix-write', 'status-patch');
  await page.check('#fix-pred');
  await page.check('#fix-guard');
  await page.uncheck('#fix-ts');
  await page.waitForFunction(() => location.search.includes('v=sub.status-patch.pred.guard'));
  // a fresh-clone run once read "watching" here past 60 s, just after the fixes were switched on
  // (each switch builds the runs anew): wait for a settled verdict (converged, looping or a
  // warning), not one still starting, busy or watching its first window, then hold it to "converged"
  await page.waitForFunction(() => Number(document.querySelector('#clock')?.dataset.seconds) > 60
    && !['watching', 'starting', 'relisting', 'down', 'busy']
      .includes(document.querySelector('#verdict-a')?.dataset.state));
  assert.equal(await num('#stat-loop-a'), 0, 'no self-triggered enqueue');
  assert.equal(await page.getAttribute('#verdict-a', 'data-state'), 'converged');
  await page.click('#tab-code');
  const changed = await page.$$eval('#go-code .changed', (els) => els.map((e) => e.textContent));
  assert.ok(changed.some((l) => l.includes('Status().Patch')), `the fix lines are highlighted: ${changed}`);
  assert.ok(changed.some((l) => l.includes('GenerationChangedPredicate')));
  noProblems();
});

test('A/B: compare runs a second variant on the same clock', async () => {
  await open('?preset=flywheel&speed=500');
  const { page } = site;
  await page.click('#compare');
  await page.waitForSelector('#pipeline-b');
  // B's counters appear once the runs were rebuilt with B, which restarts the clock
  await page.waitForSelector('#stat-loop-b');
  await page.waitForFunction(() => Number(document.querySelector('#clock')?.dataset.seconds) > 40);
  assert.ok((await num('#stat-loop-a')) > 10, 'A loops');
  assert.equal(await num('#stat-loop-b'), 0, 'B (fixed) does not');
  assert.equal(await page.getAttribute('#verdict-b', 'data-state'), 'converged');
  assert.ok((await inkedPixels(page, '#pipeline-b')) > 10000);
  assert.match(page.url(), /b=sub\.status-patch\.pred\.guard/);
  // the event log shows either run: A's is full of its own MODIFIED events, B's is not
  await page.click('#play'); // pause, so both logs are read at the same moment
  await page.click('#tab-log');
  const modified = () => page.$$eval('#event-log .line', (els) => els.filter((e) => e.textContent.startsWith('MODIFIED')).length);
  const inA = await modified();
  await page.click('#side-b');
  assert.equal(await page.getAttribute('#side-b', 'aria-pressed'), 'true');
  const inB = await modified();
  assert.ok(inA > 2 * inB, `A's log has more MODIFIED lines (${inA}) than B's (${inB})`);
  await site.screenshot('compare');
  noProblems();
});

test('the permalink reproduces the state', async () => {
  await open('?preset=subresource%2Bpredicate&speed=50');
  const { page } = site;
  await page.fill('#seed', '42');
  await page.press('#seed', 'Enter');
  await page.selectOption('#profile', 'modern');
  await page.click('#lang');
  await page.waitForFunction(() => location.search.includes('seed=42') && location.search.includes('lang=zh'));
  await page.click('#copy-link');
  const link = await page.getAttribute('#copy-link', 'data-href');
  assert.ok(link.startsWith(site.url), link);
  await page.goto('about:blank');
  await page.goto(link);
  await page.waitForSelector('#pipeline-a');
  assert.equal(await page.inputValue('#preset'), 'subresource+predicate');
  assert.equal(await page.inputValue('#seed'), '42');
  assert.equal(await page.inputValue('#profile'), 'modern');
  assert.equal(await page.textContent('#speed-value'), '50×');
  assert.ok(await page.isChecked('#fix-sub'));
  assert.ok(await page.isChecked('#fix-pred'));
  assert.equal(await page.getAttribute('html', 'lang'), 'zh-CN');
  noProblems();
});

test('what the user types or drags is not overwritten by the running page', async () => {
  await open('?preset=flywheel&speed=1000');
  const { page } = site;
  await page.fill('#seed', '');
  await page.type('#seed', '777', { delay: 120 });
  await page.waitForTimeout(300);
  assert.equal(await page.inputValue('#seed'), '777', 'the draft survives re-renders');
  await page.press('#seed', 'Enter');
  await page.waitForFunction(() => location.search.includes('seed=777'));
  // a slider mid-drag: its input events move it, its change event (on release) commits it
  await page.$eval('#set-controller-workers', (el) => {
    el.value = '600';
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await page.waitForTimeout(300);
  assert.equal(await page.inputValue('#set-controller-workers'), '600', 'the thumb stays where it was dragged');
  assert.ok(!page.url().includes('workers='), 'nothing is committed before the release');
  await page.$eval('#set-controller-workers', (el) => el.dispatchEvent(new Event('change', { bubbles: true })));
  await page.waitForFunction(() => location.search.includes('workers='));
  noProblems();
});

test('bad URL parameters fall back to defaults and are named', async () => {
  await open('?preset=nope&workers=0&speed=fast&v=sub.bogus&zzz=1');
  const { page } = site;
  const named = await page.$$eval('#notices .notice', (els) => els.map((e) => e.dataset.param));
  assert.deepEqual(named, ['preset', 'v', 'workers', 'speed', 'zzz']);
  assert.equal(await page.inputValue('#preset'), 'flywheel');
  assert.equal(await page.textContent('#speed-value'), '10×');
  await page.waitForFunction(() => Number(document.querySelector('#clock')?.dataset.seconds) > 1);
  noProblems();
});

test('a speed the engine cannot reach shows the speed the page runs at', async () => {
  // 150 000 objects at 10 000×: far beyond what the engine simulates per wall second
  await open('?preset=seed-000-incident&speed=10000');
  const { page } = site;
  await page.waitForSelector('#speed-achieved', { timeout: 30000 });
  // the figure is smoothed over about a wall second: compare it with the clock's last second
  const clock = () => num('#clock');
  await page.waitForTimeout(2000);
  const [c0, t0] = [await clock(), Date.now()];
  await page.waitForTimeout(1000);
  const measured = ((await clock()) - c0) / ((Date.now() - t0) / 1000);
  const shown = await num('#speed-achieved');
  assert.ok(shown < 9000, `shown ${shown}× is below the requested 10 000×`);
  assert.ok(shown > measured / 4 && shown < measured * 4, `shown ${shown}× ≈ measured ${measured.toFixed(1)}×`);
  assert.match(await page.textContent('#speed-achieved'), /runs at/);
  // a speed the engine keeps up with shows no second figure
  await open('?preset=flywheel&speed=10');
  await page.waitForFunction(() => Number(document.querySelector('#clock')?.dataset.seconds) > 25);
  assert.equal(await page.$('#speed-achieved'), null);
  noProblems();
});

test('?embed=1 shows the compact layout and can autoplay', async () => {
  await page_setViewport(800, 600);
  await open('?preset=flywheel&embed=1&autoplay=1&speed=100');
  const { page } = site;
  assert.equal(await page.$('.sidebar'), null, 'no sidebar');
  assert.equal(await page.$('.tabs'), null, 'no panels');
  assert.equal((await page.$$('.chart canvas')).length, 2, 'two charts');
  assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'true');
  await page.waitForFunction(() => Number(document.querySelector('#clock')?.dataset.seconds) > 20);
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 800, `fits its frame (${width}px)`);
  await site.screenshot('embed');
  await page_setViewport(1280, 900);
  noProblems();
});

async function page_setViewport(width, height) {
  await site.page.setViewportSize({ width, height });
}

test('中文: the language switch translates the page and the narration', async () => {
  await open('?preset=flywheel');
  const { page } = site;
  await page.click('#lang');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  assert.match(await page.textContent('#play'), /暂停|播放/);
  assert.match(await page.textContent('#narration'), /[\u4e00-\u9fff]/);
  assert.match(page.url(), /lang=zh/);
  await page.click('#lang');
  await page.waitForFunction(() => document.documentElement.lang === 'en');
  noProblems();
});

test('the keyboard: space, →, + / −, r, ? and Escape', async () => {
  await open('?preset=flywheel&speed=10');
  const { page } = site;
  await page.click('h1');
  await page.keyboard.press('Space');
  assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'false');
  // → handles one engine event; several events can share one instant (ten watch events at
  // 1.005 s), so step until the clock moves, within a bound
  const t0 = await num('#clock');
  for (let i = 0; i < 60 && (await num('#clock')) <= t0; i++) {
    await page.keyboard.press('ArrowRight');
    await page.waitForTimeout(120);
  }
  assert.ok((await num('#clock')) > t0, 'stepping moves the simulated clock');
  assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'false', 'and keeps the run paused');
  await page.keyboard.press('+');
  assert.equal(await page.textContent('#speed-value'), '20×');
  await page.keyboard.press('-');
  await page.keyboard.press('-');
  assert.equal(await page.textContent('#speed-value'), '5×');
  await page.keyboard.press('?');
  await page.waitForSelector('#help');
  assert.equal(await page.evaluate(() => document.activeElement.id), 'help-close', 'focus moves into the dialog');
  await page.keyboard.press('Escape');
  assert.equal(await page.$('#help'), null);
  await page.keyboard.press('Space');
  await page.waitForFunction(() => Number(document.querySelector('#clock')?.dataset.seconds) > 3);
  await page.keyboard.press('r');
  await page.waitForFunction(() => Number(document.querySelector('#clock')?.dataset.seconds) < 2);
  noProblems();
});

test('inspect an object as YAML and read the event log', async () => {
  await open('?preset=flywheel&speed=100');
  const { page } = site;
  await page.waitForFunction(() => Number(document.querySelector('#clock')?.dataset.seconds) > 10);
  const box = await page.$eval('#pipeline-a', (c) => { const r = c.getBoundingClientRect(); return { x: r.x, y: r.y, w: r.width }; });
  const k = box.w / 960;
  await page.mouse.click(box.x + 600 * k, box.y + 80 * k); // the Indexer
  await page.waitForSelector('#yaml');
  const yaml = await page.textContent('#yaml');
  assert.match(yaml, /resourceVersion: "\d+"/);
  assert.match(yaml, /generation: \d+/);
  assert.match(yaml, /lastUpdated:/);
  // The stored object against its previous version in the watch cache: the write changed its
  // resourceVersion, so that line is marked.
  assert.match(await page.textContent('#yaml .line.changed'), /resourceVersion|generation|lastUpdated/);
  await page.click('#tab-log');
  assert.match(await page.textContent('#event-log'), /MODIFIED\s+ns-0\s+demo-\d/);
  await page.hover('#chart-memory');
  await page.waitForFunction(() => document.querySelector('#chart-memory-readout')?.textContent.startsWith('t='));
  noProblems();
});

test('dark theme and reduced motion', async () => {
  const { page } = site;
  await page.emulateMedia({ colorScheme: 'dark', reducedMotion: 'reduce' });
  try {
    await open('?preset=flywheel&speed=100');
    await page.waitForFunction(() => Number(document.querySelector('#stat-loop-a')?.dataset.value) > 5);
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.equal(bg, 'rgb(18, 21, 28)');
    await site.screenshot('dark-reduced-motion');
    await page.click('#theme');
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'light');
  } finally {
    // the tests after this one see the browser's defaults, whether or not it passed
    await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'no-preference' });
  }
  noProblems();
});

test('a screenshot of every preset', async () => {
  await open('?preset=flywheel');
  const { page } = site;
  const presets = await page.$$eval('#preset option', (os) => os.map((o) => o.value));
  assert.ok(presets.length >= 8, presets.join());
  for (const name of presets) {
    const problemsBefore = site.problems.length;
    try {
      await open(`?preset=${encodeURIComponent(name)}&speed=200`);
      // Small presets reach two simulated minutes quickly; the incident-scale ones run slower than
      // 200× in a browser, so they get a few seconds of wall time and must at least have started.
      const twoMinutes = () => Number(document.querySelector('#clock')?.dataset.seconds) > 120;
      await page.waitForFunction(twoMinutes, null, { timeout: 6000 }).catch(() => {});
      await page.waitForFunction(() => Number(document.querySelector('#clock')?.dataset.seconds) > 0);
      await site.screenshot(`preset-${name.replace(/[^a-z0-9-]/gi, '_')}`);
    } catch (e) {
      e.message = `preset ${name}: ${e.message}`;
      throw e;
    }
    // a problem is named with the preset that showed it
    assert.deepEqual(site.problems.slice(problemsBefore), [], `preset ${name}`);
  }
  assert.ok(fs.existsSync(path.join(ARTIFACTS, 'preset-flywheel.png')));
  noProblems();
});
