// The app's range check, timed: opens each experiment's comparison tab in
// headless Chromium (the built site, `vite preview`), presses "Check the
// ranges" and prints how long the table took to finish, next to the native
// `reclaim-sim sweep NAME --threads N` with as many threads as the page has
// workers. `npm run bench` runs it last (it builds both); alone, build first:
// `npx vite build` and `cargo build --release --bin reclaim-sim` in wasm-core/.
//
//   node scripts/bench-ranges.mjs [EXPERIMENT...]    (default: all five)
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { preview } from 'vite';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SIM = path.join(ROOT, 'wasm-core', 'target', 'release', 'reclaim-sim');
const ALL = ['proactive-reclaim-batching', 'kswapd-classzone', 'multi-memcg-kswapd', 'memcg-lru-fairness', 'refault-distance-mglru'];
const names = process.argv.slice(2).length ? process.argv.slice(2) : ALL;

if (!existsSync(path.join(ROOT, 'dist', 'index.html'))) throw new Error('dist/ is missing: run `npx vite build` first');
const server = await preview({ root: ROOT, logLevel: 'silent', preview: { port: 0, host: '127.0.0.1' } });
const base = server.resolvedUrls.local[0];
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu'] });
try {
  for (const name of names) {
    const page = await browser.newPage();
    await page.goto(`${base}?v=1&scenario=${name}&seed=1&tab=comparison`);
    const card = page.getByRole('region', { name: 'Across the parameter ranges' });
    const button = card.getByRole('button', { name: 'Check the ranges' });
    await button.waitFor();
    const workers = await page.evaluate(() => navigator.hardwareConcurrency);
    const t0 = performance.now();
    await button.click();
    // The recorded table (and its badge) is there from the start: wait for the check run here.
    await card.locator('table[data-source="checked"]').waitFor({ timeout: 3_600_000 });
    await card.locator('.badge').waitFor();
    const browserS = (performance.now() - t0) / 1000;
    const badge = await card.locator('.badge').textContent();
    await page.close();
    let nativeS = null;
    if (existsSync(SIM)) {
      const threads = String(Math.max(1, Math.min(4, workers)));
      const n0 = performance.now();
      execFileSync(SIM, ['sweep', name, '--threads', threads, '--json'], { stdio: ['ignore', 'ignore', 'inherit'] });
      nativeS = (performance.now() - n0) / 1000;
    }
    console.log(
      `${name}: browser ${browserS.toFixed(1)} s (${workers} cores reported; ${badge})` +
        (nativeS === null ? '' : `, native sweep with as many threads ${nativeS.toFixed(1)} s`),
    );
  }
} finally {
  await browser.close();
  await new Promise((resolve) => server.httpServer.close(resolve));
}
