// "Why did this run?", the command bar and forks (issue 18): the causal chain of a flywheel
// reconcile names its own write and says self-triggered, the panel names the fix, a fork keeps
// both branches and the URL reproduces the forked branch after a reload, and the command bar
// refuses what it does not know and completes what it does.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { openSite, ARTIFACTS, clock, openAt as open } from './harness.mjs';

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});


/** Opens the flywheel paused at `t` in `lang`, with the event log shown. */
async function openAt(page, t, lang) {
  await open(site, page, { t, lang });
  await page.waitForSelector('#event-log .line.rec');
}

test('the causal chain of a flywheel reconcile names its own write, says self-triggered and names the fix', async () => {
  const { page } = site;
  await openAt(page, 20, 'en');
  await page.click('#event-log .line.rec >> nth=-1');
  await page.waitForSelector('#why');
  const chain = await page.$eval('#why-chains', (el) => el.textContent);
  assert.match(chain, /its own write rv=\d+ \((PUT|PATCH)\)/, chain);
  assert.match(await page.$eval('#why-verdict', (el) => el.textContent), /^Self-triggered/);
  const fixes = await page.$eval('#why-fixes', (el) => el.textContent);
  assert.match(fixes, /\/status subresource/, fixes);
  // the chain is a list of lists, and the panel holds the focus once opened
  assert.equal(await page.$eval('#why-chains', (el) => el.tagName), 'OL');
  assert.ok((await page.$$('#why-chains li.hop')).length >= 5);
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'why');
  await site.screenshot('why-1280-en');
  // the screen a trainer projects: the pipeline with the chain lit above the panel
  await page.evaluate(() => window.scrollTo(0, 150));
  await page.screenshot({ path: path.join(ARTIFACTS, 'why-screen-1280x720-en.png') });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  await site.screenshot('why-390-en');
  assert.deepEqual(site.problems, []);
});

test('in Chinese the panel says 自我触发 and the keyboard reaches it from the event log', async () => {
  const { page } = site;
  await openAt(page, 20, 'zh');
  await page.focus('#why-now');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#why');
  assert.match(await page.$eval('#why-verdict', (el) => el.textContent), /^自我触发/);
  assert.match(await page.$eval('#why-chains', (el) => el.textContent), /它自己的写入 rv=/);
  await site.screenshot('why-1280-zh');
  assert.deepEqual(site.problems, []);
});

test('a fork keeps both branches and the URL reproduces the forked branch after a reload', async () => {
  const { page } = site;
  await openAt(page, 10, 'en');
  await page.keyboard.press(':');
  await page.waitForSelector('#command-input');
  await page.fill('#command-input', 'kubectl delete mycrd --all');
  await page.press('#command-input', 'Enter');
  await page.waitForFunction(() => /^Done at 10/.test(document.querySelector('#command-said')?.textContent ?? ''));
  const dos = new URL(page.url()).searchParams.getAll('do');
  assert.deepEqual(dos, ['10:delete']);
  await page.waitForSelector('#branches .tl-branch >> nth=1');
  const branches = () => page.$$eval('#branches .tl-branch', (els) => els.map((e) => [e.dataset.branch, e.getAttribute('aria-pressed')]));
  const [main, fork] = await branches();
  assert.equal(fork[1], 'true', 'the new branch is the one shown');
  await site.screenshot('why-fork-1280-en');

  await page.click(`#branches .tl-branch[data-branch="${main[0]}"]`);
  await page.waitForFunction((id) => document.querySelector(`#branches .tl-branch[data-branch="${id}"]`)?.getAttribute('aria-pressed') === 'true', main[0]);
  assert.deepEqual(new URL(page.url()).searchParams.getAll('do'), [], 'the main branch has no interventions');
  // ↓ moves to the fork again, by keyboard
  await page.focus(`#branches .tl-branch[data-branch="${main[0]}"]`);
  await page.keyboard.press('ArrowDown');
  await page.waitForFunction(() => new URL(location.href).searchParams.getAll('do').length === 1);

  const forked = new URL(page.url());
  forked.searchParams.delete('t');
  await page.goto(forked.toString());
  await page.waitForSelector('#branches .tl-branch >> nth=1');
  const after = await branches();
  assert.equal(after.length, 2, 'the reload rebuilt both branches');
  assert.equal(after[1][1], 'true', 'and landed on the forked one');
  assert.ok((await clock(page)) >= 10);
  await page.waitForFunction(() => /DELETED/.test(document.querySelector('#event-log')?.textContent ?? ''));
  assert.deepEqual(site.problems, []);
});

test('the command bar refuses kubectl frobnicate with a message and completes kubectl del', async () => {
  const { page } = site;
  await openAt(page, 5, 'en');
  await page.click('#command-open');
  await page.fill('#command-input', 'kubectl frobnicate');
  await page.press('#command-input', 'Enter');
  const said = await page.$eval('#command-said', (el) => [el.className, el.textContent]);
  assert.match(said[0], /refused/);
  assert.match(said[1], /kubectl frobnicate: the command bar does not know this command/);
  await page.fill('#command-input', 'kubectl del');
  await page.press('#command-input', 'Tab');
  assert.match(await page.inputValue('#command-input'), /^kubectl delete /);
  assert.ok((await page.$$('#command-list .cmd-known')).length >= 2, 'the list shows what it knows');
  await site.screenshot('command-1280-en');

  await openAt(page, 5, 'zh');
  await page.keyboard.press(':');
  await page.fill('#command-input', 'kubectl frobnicate');
  await page.press('#command-input', 'Enter');
  assert.match(await page.$eval('#command-said', (el) => el.textContent), /命令栏不认识这个命令/);
  await site.screenshot('command-1280-zh');
  assert.deepEqual(site.problems, []);
});

test('the inspector deletes the object it shows with a button and a reload rebuilds that delete', async () => {
  const { page } = site;
  await openAt(page, 8, 'en');
  await page.click('#tab-inspect');
  await page.waitForSelector('#act-delete');
  await page.click('.objects li:nth-child(2) button');
  await page.click('#act-delete');
  await page.waitForFunction(() => /^Done at 8/.test(document.querySelector('#act-said')?.textContent ?? ''));
  assert.deepEqual(new URL(page.url()).searchParams.getAll('do'), ['8:delete:ns-0/demo-1']);
  await site.screenshot('why-inspect-1280-en');
  const url = new URL(page.url());
  url.searchParams.delete('t');
  url.searchParams.set('tab', 'log');
  await page.goto(url.toString());
  await page.waitForSelector('#branches .tl-branch >> nth=1');
  await page.waitForFunction(() => /DELETED/.test(document.querySelector('#event-log')?.textContent ?? ''));
  const deleted = await page.$$eval('#event-log .line', (els) => els.map((e) => e.textContent).filter((t) => /DELETED/.test(t)));
  assert.ok(deleted.length > 0 && deleted.every((t) => t.includes('demo-1')), deleted.join('\n'));
  assert.deepEqual(site.problems, []);
});
