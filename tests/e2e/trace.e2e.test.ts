// Browser tests of the trace replay page: the built site (dist/) in headless
// Chromium. The bundled small traces go in through the file input (and a
// drop); the miss ratios the page shows are the native CLI's `--json`
// figures. Run alone with
//   npx vite build && npx vitest run --config tests/e2e/vitest.e2e.config.ts tests/e2e/trace.e2e.test.ts
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ROOT, SHOTS, counters, open, useBrowser } from './harness';

useBrowser();

const SIM = path.join(ROOT, 'wasm-core/target/release/reclaim-sim');
const DATA = (name: string) => path.join(ROOT, 'wasm-core/tests/data', name);

interface NativeResult {
  policy: string;
  misses: number;
  missRatio: number;
}

function native(file: string, cachePages: number): NativeResult[] {
  if (!existsSync(SIM)) throw new Error(`${SIM} is missing: build it with cargo build --release --bin reclaim-sim`);
  const out = execFileSync(SIM, ['replay', file, '--cache-pages', String(cachePages), '--policy', 'all', '--json'], { encoding: 'utf8' });
  return (JSON.parse(out) as { results: NativeResult[] }).results.map(({ policy, misses, missRatio }) => ({ policy, misses, missRatio }));
}

async function openTracePage(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Trace replay', exact: true }).click();
  await page.getByRole('dialog', { name: 'Trace replay' }).waitFor();
  // The address says the trace page is open, so it can be sent as it is
  // (read from the page: Playwright's page.url() follows replaceState late).
  expect(await page.evaluate(() => location.hash)).toBe('#trace');
}

async function rows(page: Page): Promise<NativeResult[]> {
  return page.getByTestId('trace-result-row').evaluateAll((trs) =>
    trs.map((tr) => {
      const d = (tr as HTMLElement).dataset;
      return { policy: d.policy ?? '', misses: Number(d.misses), missRatio: Number(d.missRatio) };
    }),
  );
}

async function replay(page: Page, cachePages: number): Promise<void> {
  const cache = page.getByTestId('trace-cache-pages');
  await cache.fill(String(cachePages));
  await page.getByTestId('trace-run').click();
  await expect.poll(async () => (await rows(page)).length > 0 && (await page.getByText(/replayed in/).count()) > 0, { timeout: 30_000 }).toBe(true);
}

describe('trace replay page', () => {
  it('makes a sample trace for a first try: the bytes `reclaim-sim gen-trace` writes, with the CLI miss ratios', async () => {
    const { page, problems } = await open();
    await openTracePage(page);
    await page.getByTestId('trace-sample').click();
    await expect.poll(() => page.getByTestId('trace-file-name').textContent()).toContain('sample-zipf.oracleGeneral.bin');
    // A cache a quarter of the sample's 20,000 pages.
    expect(await page.getByTestId('trace-cache-pages').inputValue()).toBe('5000');
    await page.getByTestId('trace-run').click();
    await expect.poll(async () => (await rows(page)).length > 0 && (await page.getByText(/replayed in/).count()) > 0, { timeout: 60_000 }).toBe(true);
    const dir = mkdtempSync(path.join(tmpdir(), 'rl-sample-'));
    try {
      const file = path.join(dir, 'sample-zipf.oracleGeneral.bin');
      execFileSync(SIM, ['gen-trace', file, '--requests', '200000', '--pages', '20000', '--zipf', '0.9', '--seed', '1']);
      const shown = await rows(page);
      expect(shown).toEqual(native(file, 5000));
      // Misses beyond the 20,000 cold ones: the cache is too small for the stream.
      expect(shown.every((r) => r.misses > 20_000)).toBe(true);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
    expect(problems).toEqual([]);
  });

  it('replays the bundled trace under every policy and shows the CLI miss ratios', async () => {
    const { page, problems } = await open();
    await openTracePage(page);
    await page.getByTestId('trace-file-input').setInputFiles(DATA('small.csv'));
    await expect.poll(() => page.getByTestId('trace-file-name').textContent()).toContain('small.csv');
    await replay(page, 40);
    expect(await rows(page)).toEqual(native(DATA('small.csv'), 40));
    // One line per policy in the chart, each with a path.
    const series = page.getByTestId('trace-series');
    expect(await series.count()).toBe(5);
    for (const d of await series.evaluateAll((ps) => ps.map((p) => p.getAttribute('d') ?? ''))) expect(d.length).toBeGreaterThan(20);
    await page.screenshot({ path: path.join(SHOTS, 'trace-replay.png') });

    // The compressed binary trace of the same requests, by drag and drop, other cache size.
    const bytes = readFileSync(DATA('small.oracleGeneral.bin.zst')).toString('base64');
    const transfer = await page.evaluateHandle((b64) => {
      const data = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
      const dt = new DataTransfer();
      dt.items.add(new File([data], 'small.oracleGeneral.bin.zst'));
      return dt;
    }, bytes);
    await page.getByTestId('trace-drop-zone').dispatchEvent('drop', { dataTransfer: transfer });
    await expect.poll(() => page.getByTestId('trace-file-name').textContent()).toContain('small.oracleGeneral.bin.zst');
    await page.getByTestId('trace-policy-classic').uncheck();
    await replay(page, 64);
    const want = native(DATA('small.oracleGeneral.bin.zst'), 64).filter((r) => r.policy !== 'classic');
    await expect.poll(() => rows(page)).toEqual(want);
    expect(problems).toEqual([]);
  });

  it('names the line of a malformed trace, and the app keeps working', async () => {
    const { page } = await open();
    const before = await counters(page);
    await openTracePage(page);
    await page.getByTestId('trace-file-input').setInputFiles({ name: 'broken.csv', mimeType: 'text/csv', buffer: Buffer.from('time,obj_id\n0,1\n0,2\n0,x\n') });
    await page.getByTestId('trace-cache-pages').fill('16');
    await page.getByTestId('trace-run').click();
    const error = page.getByTestId('trace-error');
    await error.waitFor({ timeout: 30_000 });
    expect(await error.textContent()).toContain('line 4: obj_id "x" is not a whole number');
    await page.screenshot({ path: path.join(SHOTS, 'trace-replay-error.png') });
    // A truncated binary trace names its byte offset.
    await page.getByTestId('trace-file-input').setInputFiles({ name: 'cut.oracleGeneral.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(24 * 2 + 7, 1) });
    await page.getByTestId('trace-run').click();
    await expect.poll(() => error.textContent(), { timeout: 30_000 }).toContain('byte offset 48: truncated record');
    // A bad cache size is refused before running.
    await page.getByTestId('trace-cache-pages').fill('0');
    expect(await page.getByTestId('trace-run').isDisabled()).toBe(true);
    // The same page replays a good trace afterwards, and the simulation behind is untouched.
    await page.getByTestId('trace-file-input').setInputFiles(DATA('small.csv'));
    await replay(page, 40);
    expect((await rows(page)).length).toBe(5);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Trace replay' }).waitFor({ state: 'hidden' });
    await page.waitForFunction(() => location.hash === '', undefined, { timeout: 5000 });
    expect(await counters(page)).toEqual(before);
  });

  it('replays a two-million-request trace under every policy, as the CLI does', { timeout: 180_000 }, async () => {
    const file = path.join(tmpdir(), `reclaim-trace-e2e-${process.pid}.oracleGeneral.bin`);
    execFileSync(SIM, ['gen-trace', file, '--requests', '2000000', '--pages', '200000', '--zipf', '0.9', '--seed', '11']);
    try {
      const { page, problems } = await open();
      await openTracePage(page);
      await page.getByTestId('trace-file-input').setInputFiles(file);
      const began = Date.now();
      await page.getByTestId('trace-cache-pages').fill('50000');
      await page.getByTestId('trace-run').click();
      await page.getByTestId('trace-progress').waitFor();
      await expect.poll(async () => (await page.getByText(/replayed in/).count()) > 0, { timeout: 170_000, interval: 500 }).toBe(true);
      const seconds = (Date.now() - began) / 1000;
      console.log(`browser: 2,000,000 requests x 5 policies replayed in ${seconds.toFixed(1)} s (${((2e6 * 5) / seconds / 1e6).toFixed(2)} M policy-accesses/s)`);
      expect(await rows(page)).toEqual(native(file, 50000));
      await page.screenshot({ path: path.join(SHOTS, 'trace-replay-2m.png') });
      expect(problems).toEqual([]);
    } finally {
      rmSync(file, { force: true });
    }
  });

  it('stops a long replay on Cancel, keeping the figures up to where it stopped; the next replay runs whole', { timeout: 120_000 }, async () => {
    const file = path.join(tmpdir(), `reclaim-trace-cancel-${process.pid}.oracleGeneral.bin`);
    execFileSync(SIM, ['gen-trace', file, '--requests', '8000000', '--pages', '1000000', '--seed', '5']);
    try {
      const { page, problems } = await open();
      await openTracePage(page);
      await page.getByTestId('trace-file-input').setInputFiles(file);
      await page.getByTestId('trace-cache-pages').fill('65536');
      // From the keyboard: Replay gives way to Cancel and Cancel back to Replay, each taking the focus.
      const focused = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid ?? null);
      await page.getByTestId('trace-run').focus();
      await page.keyboard.press('Enter');
      await page.getByTestId('trace-progress').waitFor();
      await expect.poll(focused).toBe('trace-cancel');
      await page.keyboard.press('Enter');
      await page.getByText('Cancelled; the figures below are up to where it stopped.').waitFor({ timeout: 15_000 });
      expect(await page.getByText(/replayed in/).count()).toBe(0);
      expect(await page.getByTestId('trace-cancel').isDisabled()).toBe(true);
      await expect.poll(focused).toBe('trace-run');
      // The page still replays: the small bundled trace, to its end.
      await page.getByTestId('trace-file-input').setInputFiles(DATA('small.csv'));
      await expect.poll(() => page.getByTestId('trace-file-name').textContent()).toContain('small.csv');
      await replay(page, 40);
      expect(await rows(page)).toEqual(native(DATA('small.csv'), 40));
      expect(problems).toEqual([]);
    } finally {
      rmSync(file, { force: true });
    }
  });

  it('opens from the address #trace, in the dark theme too', async () => {
    const { page } = await open('#trace', { colorScheme: 'dark' });
    await page.getByRole('dialog', { name: 'Trace replay' }).waitFor();
    // The page loads after the dialog opened: its first control takes the focus from the dialog.
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('trace-close');
    await page.getByTestId('trace-file-input').setInputFiles(DATA('small.csv'));
    await replay(page, 24);
    await page.getByRole('button', { name: 'since the start' }).click();
    await page.screenshot({ path: path.join(SHOTS, 'trace-replay-dark.png') });
    await page.getByTestId('trace-close').click();
    await page.getByRole('dialog', { name: 'Trace replay' }).waitFor({ state: 'hidden' });
    await page.waitForFunction(() => location.hash === '', undefined, { timeout: 5000 });
  });
});
