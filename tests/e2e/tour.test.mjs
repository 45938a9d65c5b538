// Guided tours and presenter mode (issue 19): a tour opens from the URL at its step, a
// prediction is run and answered by the engine, Back/Next and the keys move, every step points
// at a part that is on the page, and presenter mode fits a projector's screen without scrolling.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { openSite, ROOT } from './harness.mjs';

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});

const TOURS = { flywheel: 7, incident: 4, 'list-vs-index': 3, 'informer-myths': 2 };
const stepOf = (page) => page.$eval('#tour', (el) => Number(el.dataset.step));
/** The tour's step once it reads `n` (a key's render may land a frame later), or after 5 s. */
const stepAfter = async (page, n) => {
  await page.waitForFunction((want) => Number(document.querySelector('#tour')?.dataset.step) === want, n, { timeout: 5000 })
    .catch(() => {});
  return stepOf(page);
};
const phase = (page) => page.$eval('#tour', (el) => el.dataset.phase);
const urlStep = (page) => new URL(page.url()).searchParams.get('step');
const shown = (page) => page.waitForFunction(() => document.querySelector('#tour')?.dataset.phase === 'shown', null, { timeout: 60000 });

/** Whether the element the step points at is on the page, visible and highlighted. */
const pointedVisible = (page) =>
  page.evaluate(() => {
    const el = document.querySelector('.tour-highlight');
    if (!el) return 'nothing is highlighted';
    const r = el.getBoundingClientRect();
    const style = getComputedStyle(el);
    if (r.width < 4 || r.height < 4 || style.visibility === 'hidden' || style.display === 'none') {
      return `${el.dataset.part} is not visible`;
    }
    return el.dataset.part ?? 'no data-part';
  });

test('the URL opens the flywheel tour at step 1 with its text', async () => {
  const { page } = site;
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`${site.url}?tour=flywheel&step=1&lang=en`);
  await page.waitForSelector('#tour-text');
  assert.equal(await stepOf(page), 1);
  assert.match(await page.textContent('#tour-text'), /Reconcile writes status with a full Update/);
  await shown(page);
  assert.equal(await pointedVisible(page), 'pipeline.loop');
  await site.screenshot('tour-step1-1280-en');
});

test('a prediction is run and the page reveals the engine answer kindly', async () => {
  const { page } = site;
  await page.goto(`${site.url}?tour=flywheel&step=2&lang=en`);
  await page.waitForSelector('#tour-question');
  assert.equal(await phase(page), 'asking');
  assert.equal(await page.$('#tour-text'), null, 'the text waits for the answer');
  await page.click('.tour-choice[data-index="0"]');
  await shown(page);
  assert.match(await page.textContent('#tour-verdict'), /Not this time/);
  assert.match(await page.textContent('#tour-shown'), /No, it keeps turning/);
  assert.match(await page.textContent('#tour-explain'), /new timestamp/);
  assert.ok(await page.$('.tour-choice.right[data-index="1"]'), 'the right choice is marked');
  await site.screenshot('tour-prediction-1280-en');

  await page.goto(`${site.url}?tour=flywheel&step=5&lang=zh`);
  await page.click('.tour-choice[data-index="0"]');
  await shown(page);
  assert.match(await page.textContent('#tour-verdict'), /答对了/);
  await site.screenshot('tour-prediction-1280-zh');
});

test('Next, Back and the arrow keys move through the tour and the URL follows', async () => {
  const { page } = site;
  await page.goto(`${site.url}?tour=list-vs-index&step=1&lang=en`);
  await page.waitForSelector('#tour');
  await page.click('#tour-next');
  assert.equal(await stepAfter(page, 2), 2);
  await page.waitForFunction(() => new URL(location.href).searchParams.get('step') === '2');
  await page.keyboard.press('ArrowRight');
  assert.equal(await stepAfter(page, 3), 3);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('PageUp');
  assert.equal(await stepAfter(page, 1), 1);
  await page.keyboard.press('PageDown');
  assert.equal(await stepAfter(page, 2), 2);
  await page.click('#tour-back');
  assert.equal(await stepAfter(page, 1), 1);
  await page.waitForFunction(() => new URL(location.href).searchParams.get('step') === '1', null, { timeout: 5000 })
    .catch(() => {});
  assert.equal(urlStep(page), '1');
  await page.keyboard.press('Escape');
  await page.waitForSelector('#tour', { state: 'detached', timeout: 5000 }).catch(() => {});
  assert.equal(await page.$('#tour'), null, 'Escape closes the tour');
});

test('every step of every tour points at a part that is on the page', async () => {
  const { page } = site;
  await page.setViewportSize({ width: 1280, height: 720 });
  for (const [id, steps] of Object.entries(TOURS)) {
    for (let n = 1; n <= steps; n += 1) {
      await page.goto(`${site.url}?tour=${id}&step=${n}&lang=en`);
      await page.waitForSelector('#tour');
      await page.waitForFunction(() => document.querySelector('.tour-highlight'), null, { timeout: 10000 })
        .catch(() => {});
      const part = await pointedVisible(page);
      assert.ok(!/not visible|nothing|no data-part/.test(part), `${id} step ${n}: ${part}`);
    }
  }
});

test('presenter mode fits 1280×720 and 1920×1080 without scrollbars, in English and Chinese', async () => {
  const { page } = site;
  for (const [w, h] of [[1280, 720], [1920, 1080]]) {
    for (const lang of ['en', 'zh']) {
      await page.setViewportSize({ width: w, height: h });
      await page.goto(`${site.url}?tour=flywheel&step=4&lang=${lang}`);
      await page.waitForSelector('#tour');
      await page.keyboard.press('p');
      await page.waitForSelector('.app.presenter');
      await page.click('.tour-choice[data-index="1"]');
      await shown(page);
      const { scroll, inner, scrollW, innerW } = await page.evaluate(() => ({
        scroll: document.documentElement.scrollHeight,
        inner: window.innerHeight,
        scrollW: document.documentElement.scrollWidth,
        innerW: window.innerWidth,
      }));
      assert.ok(scroll <= inner, `${w}×${h} ${lang}: scrollHeight ${scroll} > innerHeight ${inner}`);
      assert.ok(scrollW <= innerW, `${w}×${h} ${lang}: scrollWidth ${scrollW} > innerWidth ${innerW}`);
      assert.equal(await page.isVisible('.sidebar'), false, 'the side panel is hidden');
      const file = await site.screenshot(`presenter-${w}-${lang}`);
      if (w === 1280 && lang === 'en') {
        fs.copyFileSync(file, path.join(ROOT, 'docs', 'presenter.png'));
      }
    }
  }
});

test('B blanks the presenter screen and B again shows it; P leaves presenter mode', async () => {
  const { page } = site;
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`${site.url}?tour=flywheel&step=1&lang=en`);
  await page.waitForSelector('#tour');
  await page.click('#presenter-button');
  await page.waitForSelector('.app.presenter');
  await page.keyboard.press('b');
  assert.ok(await page.isVisible('#blank'), 'the screen is blank');
  await page.keyboard.press('b');
  assert.equal(await page.$('#blank'), null, 'the screen shows again');
  await page.keyboard.press('p');
  assert.equal(await page.$('.app.presenter'), null);
  assert.deepEqual(site.problems, []);
});
