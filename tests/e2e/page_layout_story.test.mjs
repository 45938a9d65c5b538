// The page as a trainer projects it and an operator engineer reads it: compare stacked and
// captioned, a verdict to trust in the incident, a story that follows the switches, an outcome that
// departs from the preset's story said out loud, the pipeline and the tab on one 1280×720 screen,
// the log following its newest line, counts that fit their boxes, sharp charts, and a phone layout.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openSite, ARTIFACTS } from './harness.mjs';

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});

async function open(query, { width = 1280, height = 720 } = {}) {
  await site.page.setViewportSize({ width, height });
  await site.page.goto(`${site.url}${query}`);
  await site.page.waitForSelector('#pipeline-a');
}

const clockAbove = (s) =>
  site.page.waitForFunction((s) => Number(document.querySelector('#clock')?.dataset.seconds) > s, s, { timeout: 120_000 });
const text = (sel) => site.page.$eval(sel, (el) => el.textContent.trim());
const rect = (sel) => site.page.$eval(sel, (el) => el.getBoundingClientRect().toJSON());

function noProblems() {
  assert.deepEqual(site.problems, [], 'no console error, page error or off-origin request');
}

/** Screenshots of the viewport (not the full page) of `query`, in English and 中文. */
async function shots(name, query) {
  const { page } = site;
  for (const lang of ['en', 'zh']) {
    await page.goto(`${site.url}${query}&lang=${lang}`);
    await page.waitForSelector('#pipeline-a');
    await page.waitForTimeout(2000);
    await page.screenshot({ path: `${ARTIFACTS}/${name}-${lang}.png` });
  }
}

test('compare at 1280×720 stacks A over B at full width, each captioned with its variant in words, in the embed too', async () => {
  await open('?preset=flywheel&b=sub.status-patch.pred.guard&speed=50');
  const { page } = site;
  await page.waitForSelector('#pipeline-b');
  const a = await rect('#pipeline-a');
  const b = await rect('#pipeline-b');
  assert.ok(b.top >= a.bottom, `B is under A (A ends at ${a.bottom}, B starts at ${b.top})`);
  assert.ok(a.width >= 850 && b.width >= 850, `each pipeline is drawn at full width: ${a.width}, ${b.width}`);
  assert.equal(await text('#caption-a'), 'A: r.Update, no /status');
  assert.equal(await text('#caption-b'), 'B: /status + Status().Patch + predicate + guard, no timestamp');
  await page.goto(`${site.url}?preset=flywheel&b=sub.status-patch.pred.guard.ts&embed=1`);
  await page.waitForSelector('#caption-b');
  assert.equal(await text('#caption-b'), 'B: /status + Status().Patch + predicate + guard');
  await shots('compare-1280x720', '?preset=flywheel&b=sub.status-patch.pred.guard.ts&speed=50');
  noProblems();
});

test('when comparing, the Code tab shows A, B, or the difference between them', async () => {
  await open('?preset=flywheel&b=sub.status-patch.pred.guard.ts');
  const { page } = site;
  await page.click('#tab-code');
  await page.click('#code-b');
  assert.match(await text('#go-code'), /Status\(\)\.Patch/);
  await page.click('#code-a');
  assert.doesNotMatch(await text('#go-code'), /Status\(\)\.Patch/);
  await page.click('#code-diff');
  const added = await page.$$eval('#go-code .add', (els) => els.map((e) => e.textContent));
  const removed = await page.$$eval('#go-code .del', (els) => els.map((e) => e.textContent));
  assert.ok(added.some((l) => l.startsWith('+') && l.includes('Status().Patch')), `B's write is added: ${added}`);
  assert.ok(removed.some((l) => l.startsWith('−') && l.includes('r.Update')), `A's write is removed: ${removed}`);
  noProblems();
});

test('in the incident the verdict is never converged while the operator starts or backs off, and back-off says why and when', async () => {
  // at 30× the back-off (10 simulated seconds with almost no events) stays on screen for a few
  // refreshes; at 10000× the page crosses it within one frame, and whether a refresh lands in it
  // is luck. The busy stretches run as fast as the page can either way.
  await open('?preset=seed-000-incident&speed=30');
  const { page } = site;
  // every state the page shows, recorded as it changes
  const samples = await page.evaluate(async () => {
    const out = [];
    const sample = () => {
      const v = document.querySelector('#verdict-a');
      const pod = document.querySelector('#stat-pod-a')?.textContent ?? '';
      if (v) out.push({ state: v.dataset.state, text: v.textContent, pod });
      return pod;
    };
    const watch = new MutationObserver(sample);
    watch.observe(document.body, { subtree: true, childList: true, characterData: true, attributes: true, attributeFilter: ['data-state'] });
    const t0 = performance.now();
    while (performance.now() - t0 < 150_000) {
      const pod = sample();
      if (/ · ([2-9]|\d\d)×$/.test(pod) && pod.startsWith('Running')) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    watch.disconnect();
    return out;
  });
  const last = samples.at(-1);
  assert.ok(last && /^Running.*\(OOMKilled\) · [2-9]×$/.test(last.pod), `after two kills the pod still reads OOMKilled: ${last?.pod}`);
  assert.ok(
    samples.some((s) => /^operator not running: CrashLoopBackOff after OOMKilled, restart in \d+ s$/.test(s.text)),
    `back-off names the reason and the restart: ${[...new Set(samples.map((s) => s.text))].join(' | ')}`,
  );
  const down = samples.filter((s) => s.pod.startsWith('CrashLoopBackOff'));
  assert.ok(down.length > 0, 'the back-off was seen');
  assert.deepEqual(down.filter((s) => s.state !== 'down'), [], 'while backing off the verdict is "not running"');
  assert.deepEqual(samples.filter((s) => s.state === 'converged'), [], 'never converged in the incident');
  assert.ok(samples.some((s) => s.state === 'starting'), 'the start-up is named');
  noProblems();
});

test('with /status on and status written with r.Update, the page warns that status is never persisted instead of calling it converged', async () => {
  await open('?preset=fixed&speed=1000');
  const { page } = site;
  await page.selectOption('#fix-write', 'update');
  await page.waitForFunction(() => location.search.includes('v=sub.update'));
  // the run restarted with the new switch: wait for a whole window of it
  await page.waitForFunction(() => /r\.Update/.test(document.querySelector('#story')?.textContent));
  await page.waitForFunction(() => document.querySelector('#verdict-a')?.dataset.state === 'warning');
  await clockAbove(60);
  assert.equal(await page.getAttribute('#verdict-a', 'data-state'), 'warning');
  assert.match(await text('#verdict-a'), /never persisted/);
  assert.match(await text('#story'), /Status is never persisted/);
  assert.equal(await page.$eval('#story', (el) => el.classList.contains('story-warning')), true);
  noProblems();
});

test('after turning fixes on, What happens describes the current combination and why the loop does or does not close', async () => {
  await open('?preset=flywheel&speed=10');
  const { page } = site;
  assert.equal(await page.$('#story'), null, 'the preset as shipped needs no extra story');
  await page.check('#fix-sub');
  await page.selectOption('#fix-write', 'status-update');
  await page.check('#fix-pred');
  await page.waitForSelector('#story');
  assert.match(await text('#story'), /The loop does not close: .*GenerationChangedPredicate drops/);
  assert.equal(await page.getAttribute('#story', 'data-loops'), 'false');
  await page.uncheck('#fix-sub');
  await page.selectOption('#fix-write', 'update');
  await page.waitForFunction(() => /The loop closes/.test(document.querySelector('#story')?.textContent));
  assert.match(await text('#story'), /GenerationChangedPredicate lets the event through/);
  await page.click('#lang');
  await page.waitForFunction(() => /循环闭合/.test(document.querySelector('#story')?.textContent));
  noProblems();
});

test('an operator that runs out of memory is told so, and the memory chart shows its kills at the limit', async () => {
  await open('?preset=flywheel&profile=modern&objects=5000&workers=4&qps=50&size=64&mem=256&speed=200');
  const { page } = site;
  await page.waitForSelector('#outcome-a', { timeout: 60_000 });
  assert.match(await text('#outcome-a'), /does not follow the preset's story: the operator was OOMKilled \d+× \(memory limit 256 MiB\)/);
  assert.match(await text('#outcome'), /OOMKilled/);
  await page.waitForTimeout(1500);
  // RSS (green) reaches the limit's height: ink of the RSS colour in the top half of the plot
  const high = await page.$eval('#chart-memory', (c) => {
    const { data, width, height } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
    const k = c.width / c.clientWidth;
    let n = 0;
    for (let y = Math.round(70 * k); y < height / 2; y++) {
      for (let x = Math.round(60 * k); x < width; x++) {
        const i = (y * width + x) * 4;
        if (Math.abs(data[i] - 0) < 40 && Math.abs(data[i + 1] - 158) < 40 && Math.abs(data[i + 2] - 115) < 40) n++;
      }
    }
    return n;
  });
  assert.ok(high > 20, `the RSS line reaches the upper half of the memory chart (${high} px)`);
  noProblems();
});

test('at 1280×720 the pipeline and the current tab are in view together', async () => {
  await open('?preset=flywheel&speed=20');
  const p = await rect('#pipeline-a');
  const tab = await rect('#tabpanel');
  const narration = await rect('#narration');
  assert.ok(p.top >= 0 && p.bottom <= 720, `the pipeline is in view: ${p.top}–${p.bottom}`);
  assert.ok(tab.top <= 720 - 150, `at least 150 px of the tab are in view: it starts at ${tab.top}`);
  assert.ok(narration.top < 720 - 40, `the narration starts in view: ${narration.top}`);
  await shots('page-1280x720', '?preset=flywheel&speed=20');
  noProblems();
});

test('the event log follows its newest line unless the user scrolled it', async () => {
  await open('?preset=flywheel&speed=200', { width: 1280, height: 900 });
  const { page } = site;
  await page.click('#tab-log');
  await page.waitForFunction(() => document.querySelectorAll('#event-log .line').length > 60);
  await page.waitForTimeout(500);
  const gap = () => page.$eval('#event-log', (el) => el.scrollHeight - el.clientHeight - el.scrollTop);
  assert.ok((await gap()) < 8, `the newest line is in view (${await gap()} px below)`);
  await page.$eval('#event-log', (el) => {
    el.scrollTop = 0;
    el.dispatchEvent(new Event('scroll'));
  });
  await page.waitForTimeout(800);
  assert.ok((await page.$eval('#event-log', (el) => el.scrollTop)) < 8, 'a scrolled log stays where the user put it');
  await page.$eval('#event-log', (el) => {
    el.scrollTop = el.scrollHeight;
    el.dispatchEvent(new Event('scroll'));
  });
  await page.waitForTimeout(800);
  assert.ok((await gap()) < 8, 'back at the bottom it follows again');
  noProblems();
});

test('the DeltaFIFO and workqueue counts stay inside their boxes at 150 000 keys', async () => {
  const { page } = site;
  await page.emulateMedia({ reducedMotion: 'reduce' });
  try {
    await open('?preset=seed-000-incident&speed=10000');
    const overflow = await page.evaluate(async () => {
      const c = document.querySelector('#pipeline-a');
      const k = c.width / 960;
      let worst = 0;
      let drawn = 0;
      const t0 = performance.now();
      // long enough for the relist after the first kill, when the FIFO holds every object
      while (performance.now() - t0 < 45_000) {
        const ctx = c.getContext('2d');
        // the canvas is blank (transparent) until the Worker's first view arrives: only frames
        // with ink count, and only opaque dark pixels are text
        const all = ctx.getImageData(0, 0, c.width, c.height).data;
        if (!all.some((v, i) => i % 4 === 3 && v > 0)) {
          await new Promise((r) => setTimeout(r, 100));
          continue;
        }
        drawn++;
        // between the DeltaFIFO (ends at x 500) and the Indexer (starts at 540), above and below
        // the watch edge (y 82), and likewise between the Reconcile and workers boxes at y 228
        let n = 0;
        for (const [x0, x1, yc] of [[502, 530, 82], [662, 690, 228]]) {
          for (const [y0, y1] of [[yc - 6, yc - 2], [yc + 3, yc + 7]]) {
            const img = ctx.getImageData(x0 * k, y0 * k, (x1 - x0) * k, (y1 - y0) * k).data;
            for (let i = 0; i < img.length; i += 4) {
              if (img[i + 3] >= 128 && img[i] + img[i + 1] + img[i + 2] < 3 * 200) n++;
            }
          }
        }
        worst = Math.max(worst, n);
        await new Promise((r) => setTimeout(r, 100));
      }
      return { worst, drawn };
    });
    assert.ok(overflow.drawn > 100, `the pipeline was drawn in most of the checks (${overflow.drawn})`);
    assert.equal(overflow.worst, 0, 'no text spills out of a stage box');
  } finally {
    await page.emulateMedia({ reducedMotion: 'no-preference' });
  }
  noProblems();
});

test('a long scenario title is shown whole next to the list', async () => {
  await open('?preset=seed-000-incident');
  const shown = await text('#preset-title');
  assert.match(shown, /seed-000/);
  const fits = await site.page.$eval('#preset-title', (el) => el.scrollWidth <= el.clientWidth && el.scrollHeight <= el.clientHeight + 1);
  assert.ok(fits, 'the title is not cut');
  noProblems();
});

test('the stats bar and the pipeline show one request rate', async () => {
  await open('?preset=seed-000-incident&speed=1000');
  const { page } = site;
  await clockAbove(20);
  await page.click('#play');
  await page.waitForTimeout(400);
  const drawn = await page.getAttribute('#pipeline-a', 'data-rps');
  assert.equal(drawn, await text('#stat-rps-a'));
  noProblems();
});

test('charts are drawn at the device pixel ratio and follow their box', async () => {
  const { page } = site;
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Emulation.setDeviceMetricsOverride', { width: 1280, height: 720, deviceScaleFactor: 2, mobile: false });
  try {
    await page.goto(`${site.url}?preset=flywheel&speed=20`);
    await page.waitForSelector('#pipeline-a');
    await page.waitForTimeout(1000);
    const sizes = await page.$$eval('.chart canvas', (cs) => cs.map((c) => [c.width, c.clientWidth, c.height, c.clientHeight]));
    for (const [w, cw, h, ch] of sizes) {
      assert.ok(Math.abs(w - 2 * cw) <= 1 && Math.abs(h - 2 * ch) <= 1, `backing store ${w}×${h} for a ${cw}×${ch} box`);
    }
  } finally {
    await cdp.send('Emulation.clearDeviceMetricsOverride');
  }
  noProblems();
});

test('at phone width (390×844) nothing scrolls sideways, the pipeline comes first and the settings are folded', async () => {
  await open('?preset=flywheel&speed=20', { width: 390, height: 844 });
  const { page } = site;
  const sw = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(sw <= 390, `no sideways scroll: ${sw}`);
  const p = await rect('#pipeline-a');
  const settings = await rect('#settings');
  assert.ok(p.top < settings.top, 'the pipeline comes before the settings');
  assert.ok(p.top < 844, 'the pipeline is on the first screen');
  assert.equal(await page.$eval('#settings', (el) => el.open), false, 'the settings are folded');
  await page.click('#settings > summary');
  assert.ok((await page.evaluate(() => document.documentElement.scrollWidth)) <= 390, 'open settings fit too');
  await shots('page-390x844', '?preset=flywheel&speed=20');
  noProblems();
});
