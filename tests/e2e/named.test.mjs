// Interventions on a named object and the branch URL after a seek (issue 18): kubectl delete,
// label and edit act on the object named (namespace from -n), an object that does not exist is
// refused naming one that does, and a seek to before a branch's start puts the URL's `do` on
// the branch shown.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { openSite, openAt as open, settled } from './harness.mjs';

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});

const dos = (page) => new URL(page.url()).searchParams.getAll('do');

const openAt = (page, t, lang, size) => open(site, page, { t, lang, size });

async function command(page, line) {
  await page.keyboard.press(':');
  await page.waitForSelector('#command-input');
  const before = Number(await page.getAttribute('#command-said', 'data-said'));
  await page.fill('#command-input', line);
  await page.press('#command-input', 'Enter');
  // an intervention's outcome comes back from the engine's side a frame later
  await page.waitForFunction((n) => Number(document.querySelector('#command-said')?.dataset.said) > n, before);
  return page.$eval('#command-said', (el) => [el.className, el.textContent]);
}

test('kubectl delete mycrd demo-3 deletes that object and the URL keeps its key', async () => {
  const { page } = site;
  await openAt(page, 6, 'en');
  await command(page, 'kubectl delete mycrd demo-3 -n ns-0');
  await page.waitForFunction(() => /^Done at 6/.test(document.querySelector('#command-said')?.textContent ?? ''));
  assert.deepEqual(dos(page), ['6:delete:ns-0/demo-3']);
  await site.screenshot('named-delete-1280-en');
  const url = new URL(page.url());
  url.searchParams.delete('t');
  await page.goto(url.toString());
  await page.waitForSelector('#branches .tl-branch >> nth=1');
  await page.waitForFunction(() => /DELETED/.test(document.querySelector('#event-log')?.textContent ?? ''));
  const deleted = await page.$$eval('#event-log .line', (els) => els.map((e) => e.textContent).filter((t) => /DELETED/.test(t)));
  assert.ok(deleted.length > 0 && deleted.every((t) => t.includes('demo-3')), deleted.join('\n'));
  assert.deepEqual(site.problems, []);
});

test('kubectl label and edit act on the named object, and an unknown one is refused naming one that exists', async () => {
  const { page } = site;
  await openAt(page, 6, 'en');
  await command(page, 'kubectl label mycrd demo-2 a=b');
  await page.waitForFunction(() => /^Done at 6/.test(document.querySelector('#command-said')?.textContent ?? ''));
  assert.deepEqual(dos(page), ['6:label:ns-0/demo-2']);
  const said = await command(page, 'kubectl delete mycrd demo-99');
  assert.match(said[0], /refused/);
  assert.match(said[1], /There is no object default\/demo-99 \(ns-0\/demo-0 is one\)/);
  await site.screenshot('named-refused-1280-en');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.waitForTimeout(300);
  await site.screenshot('named-refused-390-en');

  await openAt(page, 6, 'zh');
  const zh = await command(page, 'kubectl edit mycrd demo-99 -n ns-0');
  assert.match(zh[1], /没有对象 ns-0\/demo-99（ns-0\/demo-0 是其中之一）/);
  await site.screenshot('named-refused-1280-zh');
  await command(page, 'kubectl edit mycrd demo-4');
  await page.waitForSelector('#act-edit');
  await page.click('#act-edit');
  await page.waitForFunction(() => /第 6 秒/.test(document.querySelector('#act-said')?.textContent ?? ''));
  assert.deepEqual(dos(page), ['6:edit_spec:ns-0/demo-4']);
  await site.screenshot('named-edit-1280-zh');
  assert.deepEqual(site.problems, []);
});

test('a seek to before the branch started puts the URL on the parent branch', async () => {
  const { page } = site;
  await openAt(page, 10, 'en');
  await command(page, 'kubectl delete mycrd demo-3');
  await page.waitForFunction(() => /^Done at 10/.test(document.querySelector('#command-said')?.textContent ?? ''));
  assert.deepEqual(dos(page), ['10:delete:ns-0/demo-3']);
  await page.keyboard.press('Escape');
  await page.focus('#timeline');
  await page.keyboard.press('Home');
  await settled(page);
  await page.waitForFunction(() => new URL(location.href).searchParams.getAll('do').length === 0);
  const pressed = await page.$$eval('#branches .tl-branch', (els) => els.map((e) => e.getAttribute('aria-pressed')));
  assert.deepEqual(pressed, ['true', 'false'], 'the tracks and the URL show the parent branch');
  assert.deepEqual(site.problems, []);
});
