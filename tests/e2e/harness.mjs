// Shared set-up of the end-to-end tests: serve dist/ on 127.0.0.1 under a sub-path, drive Debian's
// Chromium with playwright-core, and record every console error, page error and off-origin request.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { startServer } from '../../www/tools/serve.mjs';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const ARTIFACTS = path.join(ROOT, 'tests', 'artifacts');
export const CHROMIUM = process.env.FLYWHEEL_CHROMIUM ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic',
];
/** The sub-path the site is served under, to prove that every URL in the page is relative. */
export const PREFIX = '/docs/flywheel/';

/**
 * Starts a server and a browser; returns { page, url, problems, screenshot(name), close() }.
 * `problems` collects console errors, uncaught page errors and requests that leave 127.0.0.1.
 */
export async function openSite() {
  const dist = path.join(ROOT, 'dist');
  if (!fs.existsSync(path.join(dist, 'index.html'))) {
    throw new Error('dist/index.html is missing: run bash www/tools/build.sh first');
  }
  const { server, url } = await startServer({ root: dist, port: 0, prefix: PREFIX });
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'flywheel-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 900 },
  });
  const problems = [];
  context.on('request', (req) => {
    const u = new URL(req.url());
    if (!['data:', 'blob:'].includes(u.protocol) && u.hostname !== '127.0.0.1') {
      problems.push(`request left 127.0.0.1: ${req.url()}`);
    }
  });
  const page = context.pages()[0] ?? (await context.newPage());
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`page error: ${err.message}`));
  // the engine's Web Worker speaks through its own console
  page.on('worker', (worker) => worker.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`worker console error: ${msg.text()}`);
  }));
  // net::ERR_ABORTED is the browser cancelling a request in flight because the test moved on (a
  // navigation ends the document, and its engine Worker, with their loads): not a failure of the page
  page.on('requestfailed', (req) => {
    const why = req.failure()?.errorText;
    if (why !== 'net::ERR_ABORTED') problems.push(`request failed: ${req.url()} ${why}`);
  });
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
  });
  return {
    page,
    url,
    problems,
    async screenshot(name) {
      fs.mkdirSync(ARTIFACTS, { recursive: true });
      const file = path.join(ARTIFACTS, `${name}.png`);
      await page.screenshot({ path: file, fullPage: true });
      return file;
    },
    async close() {
      await context.close();
      server.close();
      fs.rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Counts the pixels of a canvas that are neither transparent nor white (read back in the page). */
export async function inkedPixels(page, selector) {
  return page.$eval(selector, (canvas) => {
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    let n = 0;
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3] > 0 && (data[i] < 250 || data[i + 1] < 250 || data[i + 2] < 250)) n++;
    }
    return n;
  });
}

/** The instant the timeline shows, in simulated seconds. */
export const clock = (page) => page.$eval('#timeline', (el) => Number(el.dataset.seconds));

/**
 * Waits until no seek is under way (the timeline's progress bar is gone). The page's engine
 * answers from its Web Worker: two animation frames first let a seek just asked for begin.
 */
export const settled = async (page) => {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  await page.waitForFunction(() => !document.querySelector('#seek-progress'));
};

/**
 * Opens `preset` paused at `t` seconds in `lang` with the panel `tab` shown, at `size`, and waits
 * until the timeline has reached `t` and the seek has settled.
 */
export async function openAt(site, page, { t, lang = 'en', preset = 'flywheel', tab = 'log', size = { width: 1280, height: 720 } }) {
  await page.setViewportSize(size);
  await page.goto(`${site.url}?preset=${preset}&lang=${lang}&t=${t}&tab=${tab}`);
  await page.waitForFunction((t) => Number(document.querySelector('#timeline')?.dataset.seconds) >= t, t);
  await settled(page);
}
