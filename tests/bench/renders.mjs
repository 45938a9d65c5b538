// Components rendered per second while the page plays: loads the flywheel preset at 1×, reads
// `window.__flywheelRenders()` (the page's render counter) before and after 5 s of wall time and
// prints the total per second and the ten components rendered most.
//   node tests/bench/renders.mjs        (after bash www/tools/build.sh)
import { openSite } from '../e2e/harness.mjs';

const WALL_MS = 5000;
const query = process.argv[2] ?? '?preset=flywheel&speed=1';

const site = await openSite();
try {
  const { page } = site;
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(`${site.url}${query}`);
  await page.waitForSelector('#pipeline-a');
  await page.waitForFunction(() => Number(document.querySelector('#clock').dataset.seconds) > 0);
  const before = await page.evaluate(() => window.__flywheelRenders());
  const t0 = Date.now();
  await page.waitForTimeout(WALL_MS);
  const after = await page.evaluate(() => window.__flywheelRenders());
  const seconds = (Date.now() - t0) / 1000;
  const rates = Object.keys(after)
    .map((name) => [name, ((after[name] ?? 0) - (before[name] ?? 0)) / seconds])
    .filter(([, r]) => r > 0)
    .sort((x, y) => y[1] - x[1]);
  const total = rates.reduce((s, [, r]) => s + r, 0);
  console.log(`${query}: ${total.toFixed(1)} component renders/s over ${seconds.toFixed(1)} s of wall time`);
  for (const [name, r] of rates.slice(0, 10)) console.log(`  ${name.padEnd(16)} ${r.toFixed(1)}/s`);
  if (site.problems.length) console.log('problems:', site.problems);
} finally {
  await site.close();
}
