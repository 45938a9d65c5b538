// The embed builder (every choice in the snippet, a live preview, HTML, MDX and MkDocs forms),
// the documentation example page (two embeds running together within the frame budget), and the
// "size it" panel (the same numbers as `flywheel size --json`, run without freezing the page).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { openSite, ROOT } from './harness.mjs';

/** A frame at 60 Hz (ms). */
const FRAME_BUDGET_MS = 16.7;
/** How far rAF's rounded timestamps put a frame on time past the budget (ms). */
const RAF_ROUNDING_MS = 0.15;

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});

async function open(query, viewport = { width: 1280, height: 720 }) {
  await site.page.setViewportSize(viewport);
  await site.page.goto(`${site.url}${query}`);
  await site.page.waitForSelector('#pipeline-a');
}

/** Types `value` into the field `id` and commits it (change fires on blur). */
async function type(id, value) {
  await site.page.fill(`#${id}`, value);
  await site.page.press(`#${id}`, 'Tab');
}

/** Watches the page's own frames: their intervals (rAF) and its long tasks. */
/**
 * The problems seen, less the preview's loads cut short: a choice made while the preview loads
 * replaces its address, and Chromium reports the abandoned requests as aborted.
 */
function problemsBesidesReplacedPreviews() {
  const left = site.problems.filter((p) => !/net::ERR_ABORTED/.test(p));
  site.problems.length = 0;
  return left;
}

async function startFrameWatch(page) {
  await page.evaluate(() => {
    window.__frames = [];
    window.__long = [];
    let last = performance.now();
    const tick = (t) => {
      window.__frames.push(t - last);
      last = t;
      if (!window.__stopFrames) requestAnimationFrame(tick);
    };
    window.__stopFrames = false;
    requestAnimationFrame(tick);
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) window.__long.push(e.duration);
    }).observe({ type: 'longtask' });
  });
}

async function stopFrameWatch(page) {
  return page.evaluate(() => {
    window.__stopFrames = true;
    const f = window.__frames.slice(1).sort((a, b) => a - b);
    const p95 = f[Math.floor(f.length * 0.95)] ?? 0;
    return { frames: f.length, p95, longest: Math.max(0, ...window.__long) };
  });
}

test('the embed builder puts every choice in its snippet, previews that address, and offers MDX and MkDocs forms', async () => {
  await open('?preset=flywheel&lang=en');
  const { page } = site;
  await page.click('#embed-button');
  await page.waitForSelector('#embed-dialog');
  await type('embed-variant', 'sub.status-update.pred');
  await type('embed-instant', '12.46');
  await page.selectOption('#embed-tour', 'flywheel');
  await type('embed-step', '3');
  await page.selectOption('#embed-lang', 'zh');
  await page.selectOption('#embed-tab', 'code');
  await page.selectOption('#embed-width', '640');
  const html = await page.inputValue('#embed-snippet');
  for (const part of ['v=sub.status-update.pred', 't=12.4', 'tab=code', 'lang=zh', 'embed=1', 'autoplay=1', 'tour=flywheel&amp;step=3', 'width="640"']) {
    assert.ok(html.includes(part), `${part} in ${html}`);
  }
  // the preview loads the built address once the choices rest
  await page.waitForFunction(() => document.querySelector('#embed-preview')?.getAttribute('src')
    === document.querySelector('#embed-snippet').dataset.url);
  const preview = page.frameLocator('#embed-preview');
  await preview.locator('#pipeline-a').waitFor();
  assert.equal(await preview.locator('html').getAttribute('lang'), 'zh-CN', 'the preview is in the chosen language');
  await page.selectOption('#embed-form', 'mdx');
  const mdx = await page.inputValue('#embed-snippet');
  assert.match(mdx, /^<iframe\n/);
  assert.ok(mdx.includes("style={{ border: 0, maxWidth: '100%' }}") && mdx.endsWith('/>'), mdx);
  await page.selectOption('#embed-form', 'markdown');
  const md = await page.inputValue('#embed-snippet');
  assert.match(md, /^<div class="flywheel-embed" markdown="0">\n<iframe .*><\/iframe>\n<\/div>$/);
  await page.waitForTimeout(1500);
  await site.screenshot('embed-builder-1280');
  // a refused choice is marked on its field and the snippet keeps the last good one
  await type('embed-variant', 'sub.nope');
  assert.equal(await page.getAttribute('#embed-variant', 'aria-invalid'), 'true');
  assert.equal(await page.inputValue('#embed-snippet'), md);
  assert.deepEqual(problemsBesidesReplacedPreviews(), []);
});

test('the embed builder reads in 简体中文 and fits a phone', async () => {
  await open('?preset=flywheel&lang=zh', { width: 390, height: 844 });
  await site.page.click('#embed-button');
  await site.page.waitForSelector('#embed-dialog');
  assert.equal(await site.page.textContent('#embed-title'), '嵌入');
  assert.ok((await site.page.textContent('#embed-dialog')).includes('加载后自动播放'));
  await site.page.waitForTimeout(1500);
  await site.screenshot('embed-builder-zh-390');
  await open('?preset=flywheel&lang=zh');
  await site.page.click('#embed-button');
  await site.page.waitForTimeout(1500);
  await site.screenshot('embed-builder-zh-1280');
  assert.deepEqual(problemsBesidesReplacedPreviews(), []);
});

test('the documentation example page runs both embeds together within the frame budget', async () => {
  const { page } = site;
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`${site.url}docs-example.html`);
  const frames = ['#embed-broken', '#embed-fixed'].map((id) => page.frameLocator(id));
  for (const f of frames) await f.locator('#pipeline-a').waitFor({ timeout: 30000 });
  const clocks = async () => Promise.all(frames.map((f) => f.locator('#clock').getAttribute('data-seconds').then(Number)));
  const before = await clocks();
  // The machine running the tests is shared: a window of frames taken while another process holds
  // the cores says nothing about the page, so up to three 5 s windows are measured and the best
  // one must meet the budget; no window may hold a long task. rAF timestamps are rounded to
  // 0.1 ms, so a frame on time at 60 Hz reads 16.6 to 16.8 ms.
  const windows = [];
  for (let i = 0; i < 3; i++) {
    await startFrameWatch(page);
    await page.waitForTimeout(5000);
    windows.push(await stopFrameWatch(page));
    if (windows.at(-1).p95 <= FRAME_BUDGET_MS + RAF_ROUNDING_MS) break;
  }
  const afterClocks = await clocks();
  for (const [i, t] of afterClocks.entries()) assert.ok(t > before[i] + 1, `embed ${i} runs: ${before[i]} → ${t}`);
  for (const w of windows) {
    console.log(`docs example: ${w.frames} frames, p95 ${w.p95.toFixed(1)} ms, longest task ${w.longest.toFixed(0)} ms`);
    assert.ok(w.longest <= 200, `longest task ${w.longest} ms`);
  }
  const best = Math.min(...windows.map((w) => w.p95));
  assert.ok(best <= FRAME_BUDGET_MS + RAF_ROUNDING_MS, `p95 frame ${best} ms in the best of ${windows.length} windows`);
  await page.screenshot({ path: path.join(ROOT, 'tests', 'artifacts', 'docs-example-1280.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await site.screenshot('docs-example-390');
  assert.deepEqual(site.problems, []);
});

/** `flywheel size` for the same numbers, built with cargo (debug) once. */
function cliSize(args) {
  execFileSync('cargo', ['build', '-q', '-p', 'flywheel-cli'], { cwd: ROOT, stdio: 'inherit', env: { ...process.env, CARGO_INCREMENTAL: '0' } });
  const bin = path.join(process.env.CARGO_TARGET_DIR ?? path.join(ROOT, 'target'), 'debug', 'flywheel');
  return JSON.parse(execFileSync(bin, ['size', ...args, '--json'], { encoding: 'utf8' }));
}

test('the size panel and flywheel size agree on the same numbers, and the page keeps drawing while it runs', async () => {
  const want = cliSize(['--family', 'list-full-scan', '--objects', 'mycrd=300:4Ki', '--objects', 'pods=3000:8Ki',
    '--workers', '3', '--qps', '15', '--limit', '1Gi']);
  await open('?preset=list-full-scan&lang=en');
  const { page } = site;
  await page.click('#size-it summary');
  for (const [id, v] of [['size-custom-count', '300'], ['size-custom-size', '4Ki'], ['size-pod-count', '3000'],
    ['size-pod-size', '8Ki'], ['size-workers', '3'], ['size-qps', '15'], ['size-limit', '1Gi']]) {
    await page.fill(`#${id}`, v);
  }
  await startFrameWatch(page);
  const started = Date.now();
  await page.click('#size-run');
  await page.waitForSelector('#size-results', { timeout: 120000 });
  const took = Date.now() - started;
  const watch = await stopFrameWatch(page);
  console.log(`size panel: ${took} ms, ${watch.frames} frames, longest task ${watch.longest.toFixed(0)} ms`);
  assert.ok(watch.longest <= 200, `longest task ${watch.longest} ms`);
  const value = (id) => page.$eval(`#${id}`, (el) => el.dataset.value);
  assert.equal(await value('size-first-list'), `${want.first_list_objects} ${want.first_list_bytes} ${want.first_list_ms}`);
  assert.equal(await value('size-cache-sync'), want.cache_sync_ms == null ? '' : String(want.cache_sync_ms));
  assert.equal(Number(await value('size-pod-cache')), want.pod_cache_objects);
  assert.equal(Number(await value('size-steady-rss')), want.steady_rss_bytes);
  assert.equal(Number(await value('size-relist-spike')), want.relist_spike_bytes);
  assert.equal(Number(await value('size-steady-qps')), want.steady_qps);
  assert.equal(Number(await value('size-peak')), want.peak_rss_bytes);
  assert.equal(await value('size-crossed'), String(want.limit_crossed));
  const heap = await page.$$eval('#size-heap li', (ls) => Object.fromEntries(ls.map((l) => [l.dataset.owner, Number(l.dataset.value)])));
  const wantHeap = Object.fromEntries(Object.entries(want.cache_bytes_by_owner).filter(([, b]) => b > 0));
  assert.deepEqual(heap, wantHeap);
  await site.screenshot('size-panel-1280');
  await page.click('#size-open');
  await page.waitForFunction(() => location.search.includes('controller.workers=3'));
  const search = await page.evaluate(() => location.search);
  assert.ok(search.includes('preset=list-full-scan') && search.includes('pods.count=3000'), search);
  assert.deepEqual(site.problems, []);
});

test('the size panel marks a refused number on its field, in the engine\'s words, in 简体中文 too', async () => {
  await open('?preset=seed-000-incident&lang=zh');
  const { page } = site;
  await page.click('#size-it summary');
  await page.fill('#size-workers', '0');
  await page.fill('#size-pod-size', 'lots');
  await page.click('#size-run');
  assert.equal(await page.getAttribute('#size-pod-size', 'aria-invalid'), 'true');
  assert.ok((await page.textContent('#size-it .refused')).includes('应为大小'));
  await page.fill('#size-pod-size', '');
  await page.click('#size-run');
  assert.equal(await page.getAttribute('#size-workers', 'aria-invalid'), 'true');
  assert.ok((await page.textContent('#size-it .refused')).includes('controller.workers'));
  await site.screenshot('size-panel-zh-1280');
  assert.deepEqual(site.problems, []);
});
