// The page by keyboard, paused and stepped, embedded, in 简体中文, and its error messages: the tab
// bar as WAI-ARIA tabs, the shortcuts only outside controls, a pause that keeps the pipeline as it
// was, steps to the next Reconcile or write with one line saying what they did, the embed dialog
// and its snippet, no English left in zh-CN, and refusals that say what is wrong.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openSite } from './harness.mjs';

let site;
before(async () => {
  site = await openSite();
  // Records every string the page draws on a canvas (the pipeline and the charts), so the
  // language test can read them. Injected by the browser driver, outside the page's CSP.
  await site.page.context().addInitScript(() => {
    window.__drawn = new Set();
    const fill = CanvasRenderingContext2D.prototype.fillText;
    CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
      if (window.__drawn.size < 20000) window.__drawn.add(String(text));
      return fill.call(this, text, ...rest);
    };
  });
});
after(async () => {
  await site?.close();
});

async function open(query, viewport = { width: 1280, height: 720 }) {
  await site.page.setViewportSize(viewport);
  await site.page.goto(`${site.url}${query}`);
  await site.page.waitForSelector('#pipeline-a');
}

const clock = () => site.page.$eval('#clock', (el) => Number(el.dataset.seconds));
const focused = () => site.page.evaluate(() => document.activeElement?.id ?? '');
// The tab the page shows once it has drawn what the keys pressed so far asked for: a key's
// action is handled at once, but its render may come a frame later on a busy machine.
const selectedTab = () => site.page.evaluate(() => new Promise((resolve) => {
  requestAnimationFrame(() => requestAnimationFrame(() => {
    resolve(document.querySelector('[role="tab"][aria-selected="true"]')?.id ?? '');
  }));
}));

function noProblems() {
  assert.deepEqual(site.problems, [], 'no console error, page error or off-origin request');
  site.problems.length = 0;
}

/** Pauses a freshly opened full page at simulated time 0 (reset keeps it paused). */
async function pausedAtZero() {
  const { page } = site;
  await page.click('#play');
  await page.click('#reset');
  await page.waitForFunction(() => Number(document.querySelector('#clock')?.dataset.seconds) === 0);
}

test('the tabs are one Tab stop moved by ←/→, Home and End, and → there leaves the run alone', async () => {
  await open('?preset=flywheel&speed=10');
  const { page } = site;
  await pausedAtZero();
  const t0 = await clock();
  // only the selected tab is in the Tab order
  const stops = await page.$$eval('[role="tab"]', (els) => els.map((e) => e.getAttribute('tabindex')));
  assert.deepEqual(stops, ['0', '-1', '-1', '-1', '-1']);
  await page.focus('#tab-explain');
  await page.keyboard.press('ArrowRight');
  assert.equal(await selectedTab(), 'tab-code');
  assert.equal(await focused(), 'tab-code', 'focus follows the selected tab');
  await page.keyboard.press('End');
  assert.equal(await selectedTab(), 'tab-myths');
  await page.keyboard.press('ArrowRight');
  assert.equal(await selectedTab(), 'tab-explain', '→ wraps around');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await selectedTab(), 'tab-myths');
  await page.keyboard.press('Home');
  assert.equal(await selectedTab(), 'tab-explain');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  assert.equal(await selectedTab(), 'tab-inspect');
  assert.equal(await page.getAttribute('#tabpanel', 'aria-labelledby'), 'tab-inspect');
  // Tab from the tab bar goes into the panel, Shift+Tab comes back to the selected tab
  await page.keyboard.press('Tab');
  assert.equal(await focused(), 'tabpanel');
  await page.keyboard.press('Shift+Tab');
  assert.equal(await focused(), 'tab-inspect');
  assert.equal(await clock(), t0, 'no arrow on the tab bar stepped the simulation');
  await site.screenshot('page1-tabs-1280');
  assert.equal(await page.$('#step-note'), null);
  assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'false');
  // the speed slider keeps its arrows; outside a control → steps as before
  await page.focus('#speed');
  await page.keyboard.press('ArrowRight');
  assert.equal(await clock(), t0, '→ on the slider moves the slider');
  await page.focus('#tab-inspect');
  await page.keyboard.press('Space');
  assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'false', 'Space on a tab does not play');
  await page.click('h1');
  for (let i = 0; i < 60 && (await clock()) === t0; i++) await page.keyboard.press('ArrowRight');
  assert.ok((await clock()) > t0, '→ outside the controls steps');
  await open('?preset=flywheel&speed=10', { width: 390, height: 844 });
  await page.click('#play');
  await page.click('#step-reconcile');
  await page.waitForSelector('#step-note');
  await site.screenshot('page1-stepped-390');
  noProblems();
});

/** A hash of the pipeline canvas's pixels and how many of them are the loop edge's orange. */
async function pipelinePixels() {
  return site.page.$eval('#pipeline-a', (c) => {
    const { data } = c.getContext('2d').getImageData(0, 0, c.width, c.height);
    let hash = 0;
    let orange = 0;
    for (let i = 0; i < data.length; i += 4) {
      hash = (hash * 31 + data[i] + 3 * data[i + 1] + 7 * data[i + 2]) >>> 0;
      if (Math.abs(data[i] - 0xe6) < 12 && Math.abs(data[i + 1] - 0x9f) < 12 && data[i + 2] < 40) orange++;
    }
    return { hash, orange };
  });
}

test('pausing keeps the last frame: the tokens and the glowing loop edge stay as they were', async () => {
  await open('?preset=flywheel&speed=20&theme=light');
  const { page } = site;
  await page.waitForFunction(() => Number(document.querySelector('#stat-loop-a')?.dataset.value) > 10);
  await page.click('#play');
  await page.waitForTimeout(200);
  const paused = await pipelinePixels();
  assert.ok(paused.orange > 200, `the loop edge glows orange when paused (${paused.orange} px)`);
  await page.waitForTimeout(2000);
  const later = await pipelinePixels();
  assert.equal(later.orange, paused.orange, 'the loop edge keeps its glow');
  assert.equal(later.hash, paused.hash, 'the paused pipeline is drawn exactly as it was');
  await site.screenshot('page1-paused-1280');
  noProblems();
});

test('step to the next Reconcile and the next write, by key and by button, each says what it did', async () => {
  await open('?preset=flywheel&speed=10');
  const { page } = site;
  await pausedAtZero();
  await page.click('h1');
  await page.keyboard.press('n');
  await page.waitForSelector('#step-note');
  const first = await page.textContent('#step-note');
  assert.match(first, /^Stepped \d+ events, 00:00\.000 → \d\d:\d\d\.\d{3} · worker \d+ starts Reconcile ns-\d+\/demo-\d+$/);
  assert.ok(Number(await page.getAttribute('#step-note', 'data-events')) > 5, 'several events lead to the first Reconcile');
  const afterReconcile = await clock();
  assert.ok(afterReconcile > 0);
  await page.keyboard.press('w');
  await page.waitForFunction(() => /answers PUT/.test(document.querySelector('#step-note')?.textContent));
  assert.match(await page.textContent('#step-note'), /the API server answers PUT ns-\d+\/demo-\d+ with 200$/);
  // the clock shows the new instant with the page's next render
  await page.waitForFunction((t) => Number(document.querySelector('#clock')?.dataset.seconds) > t, afterReconcile, { timeout: 5000 })
    .catch(() => {});
  assert.ok((await clock()) > afterReconcile, 'the write comes after the Reconcile');
  await page.click('#step-reconcile');
  await page.waitForFunction(() => /starts Reconcile/.test(document.querySelector('#step-note')?.textContent));
  await page.click('#step-write');
  await page.waitForFunction(() => /answers PUT/.test(document.querySelector('#step-note')?.textContent));
  const steps = Number(await page.getAttribute('#step-note', 'data-step'));
  await page.click('#step');
  // the step's report comes back from the engine's side a frame later
  await page.waitForFunction((n) => Number(document.querySelector('#step-note')?.dataset.step) > n, steps);
  assert.equal(await page.getAttribute('#step-note', 'data-events'), '1', 'Step is one engine event');
  assert.equal(await page.getAttribute('#play', 'aria-pressed'), 'false', 'stepping keeps the run paused');
  await site.screenshot('page1-stepped-1280');
  // the note names the step in 中文 too, and goes away when the run plays again
  await page.click('#lang');
  await page.waitForFunction(() => document.documentElement.lang === 'zh-CN');
  await page.click('h1');
  const before = Number(await page.getAttribute('#step-note', 'data-step'));
  await page.keyboard.press('n');
  await page.waitForFunction((n) => Number(document.querySelector('#step-note')?.dataset.step) > n, before);
  assert.ok((await page.textContent('#step-note')).startsWith('单步：'));
  assert.match(await page.textContent('#step-note'), /开始 Reconcile/);
  await site.screenshot('page1-stepped-1280-zh');
  await page.keyboard.press('Space');
  await page.waitForFunction(() => !document.querySelector('#step-note'));
  await page.click('#lang');
  noProblems();
});

test('a seed too large, a speed that is no number and a binary settings file are each named for what they are', async () => {
  await open('?preset=flywheel&seed=99999999999999999999999&speed=abc&objects=lots');
  const { page } = site;
  const notice = (param) => page.textContent(`#notices .notice[data-param="${param}"] span`);
  assert.match(await notice('seed'), /'99999999999999999999999' is too large \(the largest is 18446744073709551615\)/);
  assert.match(await notice('speed'), /'abc' is not a number/);
  assert.match(await notice('objects'), /objects\.count: must be a whole number from 0 to 200000 \(got lots\)/);
  // a PNG picked as a settings file: described, its bytes not echoed
  const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0xff, 0xfe]);
  await page.setInputFiles('#import-settings', { name: 'flywheel-settings.txt', mimeType: 'text/plain', buffer: png });
  await page.waitForSelector('#notices .notice[data-param="import"]');
  const imported = await notice('import');
  assert.match(imported, /not a settings file: it holds binary data, not text/);
  assert.doesNotMatch(imported, /[\u0000-\u0008\u000e-\u001f\ufffd]|PNG/, `no bytes echoed: ${JSON.stringify(imported)}`);
  await site.screenshot('page1-notices-1280');
  // the same in 中文
  await open('?preset=flywheel&seed=99999999999999999999999&speed=abc&lang=zh');
  assert.match(await notice('seed'), /太大（最大为 18446744073709551615）/);
  assert.match(await notice('speed'), /'abc' 不是数字/);
  await page.setInputFiles('#import-settings', { name: 'x.txt', mimeType: 'text/plain', buffer: png });
  await page.waitForSelector('#notices .notice[data-param="import"]');
  assert.match(await notice('import'), /二进制数据/);
  await site.screenshot('page1-notices-1280-zh');
  noProblems();
});

test('the embed dialog names its buttons for what they copy and sizes its snippet to the layout it embeds', async () => {
  await open('?preset=flywheel&speed=50&b=sub.status-patch.pred.guard.ts');
  const { page } = site;
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(site.url).origin });
  await page.click('#embed-button');
  await page.waitForSelector('#embed-dialog');
  assert.equal((await page.textContent('#copy-snippet')).trim(), 'Copy embed code');
  assert.equal((await page.textContent('#copy-permalink')).trim(), 'Copy permalink');
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText());
  await page.click('#copy-permalink');
  assert.equal(await clipboard(), await page.inputValue('#permalink'), 'Copy permalink copies the permalink');
  assert.equal((await page.textContent('#copy-permalink')).trim(), 'Copied');
  await page.click('#copy-snippet');
  assert.equal(await clipboard(), await page.inputValue('#embed-snippet'), 'Copy embed code copies the snippet');
  assert.match(await clipboard(), /^<iframe src="[^"]+embed=1/);
  await site.screenshot('page1-embed-dialog-1280');
  // one snippet per width, with and without a panel
  const snippets = [];
  for (const width of ['640', '800', '1280']) {
    for (const tab of ['', 'code']) {
      await page.selectOption('#embed-width', width);
      await page.selectOption('#embed-tab', tab);
      snippets.push(await page.inputValue('#embed-snippet'));
    }
  }
  await page.keyboard.press('Escape');
  for (const snippet of snippets) {
    const src = snippet.match(/src="([^"]+)"/)[1].replaceAll('&amp;', '&');
    const width = Number(snippet.match(/width="(\d+)"/)[1]);
    const height = Number(snippet.match(/height="(\d+)"/)[1]);
    assert.match(snippet, /title="Flywheel: The death flywheel — A: r\.Update, no \/status · B: \/status \+ Status\(\)\.Patch \+ predicate \+ guard"/);
    await open(src.replace(/^https?:\/\/[^/]+\/docs\/flywheel\//, ''), { width, height });
    await page.waitForFunction(() => Number(document.querySelector('#clock')?.dataset.seconds) > 20);
    const used = await page.evaluate(() => document.documentElement.scrollHeight);
    assert.ok(used <= height, `${width} px${src.includes('tab=') ? ' with a panel' : ''}: the page (${used} px) fits the frame's ${height} px`);
    assert.ok(height - used < 80, `${width} px: the frame (${height} px) is not much taller than the page (${used} px)`);
    assert.equal(await page.textContent('#embed-caption .embed-title'), 'The death flywheel · flywheel');
    assert.equal(await page.textContent('#embed-caption .embed-sides'),
      'A: r.Update, no /status  ·  B: /status + Status().Patch + predicate + guard');
    if (src.includes('tab=code')) {
      assert.equal(await selectedTab(), 'tab-code');
      assert.ok(await page.isVisible('#go-code'), 'the panel asked for is shown');
    } else {
      assert.equal(await page.$('.tabs'), null, 'no panel unless one is asked for');
    }
    await site.screenshot(`page1-embed-compare-${width}${src.includes('tab=') ? '-code' : ''}`);
  }
  noProblems();
});

test('tab= opens a panel, the chosen panel goes into the permalink, and a bad one is named', async () => {
  await open('?preset=flywheel&tab=myths');
  const { page } = site;
  assert.equal(await selectedTab(), 'tab-myths');
  assert.ok(await page.isVisible('.myths'));
  await page.waitForSelector('.myth');
  await page.click('#tab-log');
  await page.waitForFunction(() => location.search.includes('tab=log'));
  assert.match(await page.getAttribute('#copy-link', 'data-href'), /tab=log/);
  await open('?preset=flywheel&tab=graphs');
  assert.match(await page.textContent('#notices .notice[data-param="tab"] span'),
    /unknown tab 'graphs' \(explain, code, inspect, log, myths\)/);
  assert.equal(await selectedTab(), 'tab-explain');
  noProblems();
});

test('the README documents every URL parameter, every setting key and every key of the keyboard', async () => {
  const fs = await import('node:fs');
  const path = await import('node:path');
  const { ROOT } = await import('./harness.mjs');
  const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  // the earlier keys (old_keys.rs) and the registry paths they now stand for
  const oldKeys = fs.readFileSync(path.join(ROOT, 'crates/web/src/old_keys.rs'), 'utf8');
  const moved = [...oldKeys.matchAll(/\("([a-z]+)", "([a-z_.]+)"\)|"([a-z]+)"(?: if [^\n]*?)? => \("([a-z_.]+)"/g)]
    .map((m) => [m[1] ?? m[3], m[2] ?? m[4]]);
  assert.ok(moved.length >= 18, moved.join());
  for (const key of ['preset', 'v', 'b', 'profile', 'seed', 'speed', 'lang', 'theme', 'tab', 'embed', 'autoplay']) {
    assert.match(readme, new RegExp(`^\\| \`${key}\` \\|`, 'm'), `the README has a row for ${key}=`);
  }
  for (const [key, setting] of moved) {
    assert.match(readme, new RegExp(`^\\| \`${setting}\` \\|.*\`${key}\``, 'm'), `the README has a row for ${setting}= (earlier ${key}=)`);
  }
  assert.match(readme, /`logic` is the\s+Reconcile's heavy-logic step/);
  for (const key of ['Space', '→', '`n`', '`w`', '`+` / `−`', '`r`', '`?`', 'Esc', '← / → / Home / End']) {
    assert.ok(readme.includes(`| ${key} |`), `the README's keyboard table has ${key}`);
  }
});

/**
 * Words that stay English in 简体中文 because they are names from the code (Kubernetes kinds,
 * client-go and controller-runtime parts, Go calls) or units; anything else in Latin letters
 * must be an identifier (camelCase, ALLCAPS, or with `_ . / ( ) -` or digits) or a preset name.
 */
const CODE_WORDS = new Set([
  'operator', 'informer', 'watch', 'predicate', 'handler', 'worker', 'workqueue', 'key', 'spec',
  'status', 'generation', 'etcd', 'kubectl', 'delta', 'goroutine', 'finalizer', 'server', 'controller',
  'Reflector', 'Indexer', 'Reconcile', 'Pod', 'Node', 'Flywheel', 'Kubernetes', 'Go', 'Update', 'List',
  'Stop', 'Terminating', 'Pending', 'Burstable', 'Patch', 'Get', 'Now', 'Time', 'Watch',
  'ms', 's', 'p99', 'k8s', 'seed', 'modern', 'auto', 'light', 'dark', 'en', 'zh', 'explain', 'code',
  'inspect', 'log', 'myths', 'px', 'Mi', 'Gi', 'us', 'k',
  // client-go, controller-runtime and kubelet names the narrations and myth cards use as they are
  'listener', 'indexer', 'customresource', 'Store', 'Replace', 'manager', 'scheduler', 'kubelet',
  'cgroup', 'request', 'limit', 'priority', 'Guaranteed', 'condition', 'owner', 'context', 'defer',
  // Go and kernel terms kept in Chinese technical writing, and values of code.* fields
  'kill', 'killer', 'heap', 'profile', 'safe', 'counts',
]);

function englishWords(text, presetNames) {
  const bad = [];
  // what the user typed, quoted back in a notice, is theirs
  const own = text.replace(/'[^']*'/g, ' ');
  for (const [token] of own.matchAll(/[A-Za-z][A-Za-z0-9_.\-/()+]*/g)) {
    const t = token.replace(/[.()]+$/, '');
    if (!t) continue;
    if (/[0-9_./()+\-]/.test(t)) continue; // identifiers, metric names, units, preset names
    if (t === t.toUpperCase()) continue; // acronyms, verbs, A and B
    if (/[A-Z]/.test(t.slice(1))) continue; // camelCase
    if (CODE_WORDS.has(t) || presetNames.has(t)) continue;
    bad.push(t);
  }
  return bad;
}

/** Every text a user can see or hear on the page: DOM text outside code, labels, canvas text. */
async function visibleTexts(page) {
  return page.evaluate(() => {
    const out = [];
    const skip = (el) => el.closest('pre, code, kbd, [lang="en"], [translate="no"], script, style, noscript');
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (n.parentElement && !skip(n.parentElement) && n.textContent.trim()) out.push(n.textContent.trim());
    }
    for (const el of document.querySelectorAll('[aria-label], [title], [placeholder], [alt], [aria-valuetext]')) {
      if (skip(el)) continue;
      for (const a of ['aria-label', 'title', 'placeholder', 'alt', 'aria-valuetext']) {
        const v = el.getAttribute(a);
        if (v) out.push(v);
      }
    }
    for (const t of window.__drawn ?? []) out.push(t);
    return out;
  });
}

test('简体中文: every preset renders without English words outside code identifiers and metric names', async () => {
  await open('?preset=flywheel&lang=zh');
  const { page } = site;
  const presets = await page.$$eval('#preset option', (os) => os.map((o) => o.value));
  const names = new Set(presets);
  const found = new Map();
  const check = async (where) => {
    for (const text of await visibleTexts(page)) {
      for (const w of englishWords(text, names)) {
        if (!found.has(w)) found.set(w, `${where}: ${text.slice(0, 120)}`);
      }
    }
  };
  for (const [i, name] of presets.entries()) {
    const compare = i % 4 === 0 ? '&b=sub.status-patch.pred.guard.ts' : '';
    await open(`?preset=${encodeURIComponent(name)}&lang=zh&speed=100${compare}`);
    await page.evaluate(() => window.__drawn?.clear());
    await page.waitForFunction(() => Number(document.querySelector('#clock')?.dataset.seconds) > 3, null, { timeout: 20000 });
    await page.waitForTimeout(600);
    await check(name);
    if (i % 3 === 0) {
      for (const tab of ['code', 'inspect', 'log', 'myths']) {
        await page.click(`#tab-${tab}`);
        // the cards are fetched with the language's myths file
        if (tab === 'myths') await page.waitForSelector('.myth');
        await check(`${name} ${tab}`);
      }
      await page.click('#embed-button');
      await check(`${name} embed dialog`);
      await page.keyboard.press('Escape');
      await page.click('h1');
      await page.keyboard.press('?');
      await check(`${name} help`);
      await page.keyboard.press('Escape');
      await page.keyboard.press('n');
      // (the step line is checked by its own test; here only its words matter)
      await page.waitForSelector('#step-note', { timeout: 3000 }).catch(() => {});
      await check(`${name} step`);
    }
  }
  await open('?preset=flywheel&lang=zh&seed=99999999999999999999999&speed=abc&tab=nope&zzz=1&embed=1&autoplay=1');
  await page.waitForFunction(() => Number(document.querySelector('#clock')?.dataset.seconds) > 2);
  await check('notices, embed');
  await site.screenshot('page1-zh-embed-notices');
  await open('?preset=seed-000-incident&lang=zh&speed=200');
  await page.waitForTimeout(3000);
  await site.screenshot('page1-zh-1280');
  await open('?preset=flywheel&lang=zh&speed=50&b=sub.status-patch.pred.guard.ts');
  await page.waitForTimeout(3000);
  await site.screenshot('page1-zh-compare-1280');
  await open('?preset=flywheel&lang=zh&speed=50&embed=1&autoplay=1&b=sub.status-patch.pred.guard.ts', { width: 800, height: 971 });
  await page.waitForTimeout(3000);
  await site.screenshot('page1-zh-embed-compare-800');
  await open('?preset=flywheel&lang=zh&speed=50', { width: 390, height: 844 });
  await page.waitForTimeout(2000);
  await site.screenshot('page1-zh-390');
  const report = [...found].map(([w, where]) => `${w}  ← ${where}`).join('\n');
  assert.equal(found.size, 0, `English words in zh-CN:\n${report}`);
  noProblems();
});
