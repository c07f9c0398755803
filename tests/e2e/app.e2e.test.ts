// Browser tests: the built site (dist/) in headless Chromium. Run by
// `node scripts/rl.mjs test` after `vite build`, or alone with
//   npx vite build && npx vitest run --config tests/e2e/vitest.e2e.config.ts
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { serveStatic, type StaticServer } from './static-server';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const DIST = path.join(ROOT, 'dist');
const SHOTS = path.join(ROOT, 'test-results');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let server: StaticServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

interface Opened {
  page: Page;
  /** Console errors and uncaught exceptions seen on the page (and its worker). */
  problems: string[];
}

async function open(search = '', options: { reducedMotion?: 'reduce' | 'no-preference' } = {}): Promise<Opened> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...options });
  contexts.push(context);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('worker', (worker) => worker.on('console', (m) => m.type() === 'error' && problems.push(`worker: ${m.text()}`)));
  await page.goto(new URL(search, server.url).href);
  await page.getByRole('table', { name: 'Counters' }).waitFor();
  return { page, problems };
}

async function counters(page: Page): Promise<Record<string, number>> {
  const rows = await page
    .getByRole('table', { name: 'Counters' })
    .locator('tbody tr')
    .evaluateAll((trs) =>
      trs.map((tr) => [(tr as HTMLElement).dataset.counter, Number(tr.querySelector('td[data-value]')?.getAttribute('data-value'))]),
    );
  return Object.fromEntries(rows);
}

async function stepCount(page: Page): Promise<number> {
  return Number((await page.getByTestId('step').textContent())?.replace(/,/g, ''));
}

async function waitForStep(page: Page, step: number): Promise<void> {
  await page.waitForFunction(
    (n) => document.querySelector('[data-testid="step"]')?.textContent?.replace(/,/g, '') === String(n),
    step,
  );
}

async function stepForward(page: Page, times: number): Promise<void> {
  const before = await stepCount(page);
  const button = page.getByRole('button', { name: 'Step forward', exact: true });
  for (let i = 0; i < times; i++) await button.click();
  await waitForStep(page, before + times);
}

/** The bars of every generations chart: [type, seq, pages, drawn height]. */
async function bars(page: Page) {
  return page.getByTestId('gen-bar').evaluateAll((rects) =>
    rects.map((r) => ({
      type: r.getAttribute('data-type'),
      seq: Number(r.getAttribute('data-seq')),
      pages: Number(r.getAttribute('data-pages')),
      height: Number(r.getAttribute('height')),
    })),
  );
}

function query(page: Page): URLSearchParams {
  return new URL(page.url()).searchParams;
}

beforeAll(async () => {
  if (!existsSync(path.join(DIST, 'index.html'))) throw new Error('dist/ is missing: run `npx vite build` first');
  mkdirSync(SHOTS, { recursive: true });
  server = await serveStatic(DIST);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
});

afterEach(async () => {
  for (const context of contexts.splice(0)) await context.close();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

describe('Reclaim Lab in a browser', () => {
  let firstUrl = '';
  let afterFive: Record<string, number> = {};

  it('loads, steps, and draws the generations', async () => {
    const { page, problems } = await open();
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Reclaim Lab');
    expect(await page.getByTestId('scenario-title').textContent()).toBeTruthy();

    // The URL now names the whole run.
    const q = query(page);
    expect(q.get('v')).toBe('1');
    expect(q.get('seed')).toBe('1');
    expect(q.get('scenario')).toBeTruthy();
    firstUrl = page.url();

    expect(await stepCount(page)).toBe(0);
    const start = await counters(page);
    expect(Object.keys(start).length).toBeGreaterThan(0);

    await stepForward(page, 5);
    afterFive = await counters(page);
    expect(Object.keys(afterFive)).toEqual(Object.keys(start));
    const changed = Object.keys(start).filter((name) => start[name] !== afterFive[name]);
    expect(changed.length, 'counters that changed in 5 steps').toBeGreaterThan(0);
    // The Δ column shows the last step's change.
    expect(await page.locator('td[data-delta]').count()).toBe(Object.keys(start).length);

    const charts = page.getByRole('img', { name: /^Generations of .+ on node \d+$/ });
    expect(await charts.count()).toBeGreaterThan(0);
    await page.waitForTimeout(800); // let the transitions finish
    const drawn = await bars(page);
    expect(drawn.length).toBeGreaterThanOrEqual(2);
    const full = drawn.filter((b) => b.pages > 0);
    expect(full.length, 'bars holding folios').toBeGreaterThan(0);
    for (const b of full) expect(b.height, `bar ${b.type} seq ${b.seq}`).toBeGreaterThan(0);

    expect(await page.getByTestId('memory-current').first().textContent()).toMatch(/^[\d,]+$/);
    expect(await page.getByTestId('sim-time').textContent()).toMatch(/ms$/);

    await page.screenshot({ path: path.join(SHOTS, 'app.png') });
    expect(problems).toEqual([]);
    expect(server.missing).toEqual([]);
  });

  it('reproduces the same run from the same URL', async () => {
    expect(firstUrl).not.toBe('');
    const again = await open(new URL(firstUrl).search);
    await stepForward(again.page, 5);
    expect(await counters(again.page)).toEqual(afterFive);

    // And with a seed of its own, two pages, steps batched differently.
    const search = `?v=1&scenario=${query(again.page).get('scenario')}&seed=777`;
    const a = await open(search);
    const b = await open(search);
    await stepForward(a.page, 7);
    await stepForward(b.page, 3);
    await stepForward(b.page, 4);
    expect(await counters(b.page)).toEqual(await counters(a.page));
    await a.page.waitForTimeout(600);
    await b.page.waitForTimeout(600);
    const pages = (x: Awaited<ReturnType<typeof bars>>) => x.map(({ type, seq, pages }) => ({ type, seq, pages }));
    expect(pages(await bars(b.page))).toEqual(pages(await bars(a.page)));
    expect([...again.problems, ...a.problems, ...b.problems]).toEqual([]);
  });

  it('reports a malformed seed in the URL and keeps working', async () => {
    const { page, problems } = await open('?v=1&seed=abc');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    const text = await alert.textContent();
    expect(text).toContain('seed');
    expect(text).toContain('"abc"');
    expect(query(page).get('seed')).toBe('1');
    const before = await counters(page);
    await stepForward(page, 3);
    expect(await counters(page)).not.toEqual(before);
    await page.screenshot({ path: path.join(SHOTS, 'app-bad-url.png') });
    expect(problems).toEqual([]);
  });

  it('shows the engine rejecting an out-of-range parameter and falls back to the default', async () => {
    // The parameter comes from the page's form (listScenarios), not from a hard-coded list.
    const probe = await open();
    const input = probe.page.locator('input[data-param]').first();
    const name = (await input.getAttribute('data-param'))!;
    const min = Number(await input.getAttribute('min'));
    const defaultValue = Number(await input.inputValue());
    const scenario = query(probe.page).get('scenario')!;
    const bad = min - 5;

    const { page, problems } = await open(`?v=1&scenario=${scenario}&seed=9&${name}=${bad}`);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    const text = (await alert.textContent()) ?? '';
    expect(text).toContain(name);
    expect(text).toMatch(/default scenario/);
    // The page runs (and its URL names) the default scenario now.
    expect(Number(query(page).get(name))).toBe(defaultValue);
    expect(query(page).get('seed')).toBe('1');
    const before = await counters(page);
    await stepForward(page, 2);
    expect(await counters(page)).not.toEqual(before);

    const unknown = await open('?v=1&scenario=no-such-scenario');
    await unknown.page.getByRole('alert').waitFor();
    expect(await unknown.page.getByRole('alert').textContent()).toContain('no-such-scenario');
    expect(query(unknown.page).get('scenario')).toBe(scenario);
    expect([...probe.problems, ...problems, ...unknown.problems]).toEqual([]);
  });

  it('plays and pauses', async () => {
    const { page, problems } = await open();
    const play = page.getByRole('button', { name: 'Play', exact: true });
    const pause = page.getByRole('button', { name: 'Pause', exact: true });
    expect(await pause.isDisabled()).toBe(true);
    await page.getByLabel('Speed').selectOption('10');
    await play.click();
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="step"]')?.textContent?.replace(/,/g, '')) >= 30);
    await page.screenshot({ path: path.join(SHOTS, 'app-playing.png') });
    await pause.click();
    await page.waitForTimeout(400); // a step already sent still lands
    const stopped = await stepCount(page);
    expect(stopped % 10).toBe(0);
    await page.waitForTimeout(600);
    expect(await stepCount(page)).toBe(stopped);
    expect(await play.isEnabled()).toBe(true);

    await page.getByRole('button', { name: 'Reset', exact: true }).click();
    await waitForStep(page, 0);
    expect(problems).toEqual([]);
  });

  it('draws at once when the user prefers reduced motion', async () => {
    const { page, problems } = await open('', { reducedMotion: 'reduce' });
    await stepForward(page, 3);
    await page.waitForTimeout(100); // one animation frame, far less than a transition
    const full = (await bars(page)).filter((b) => b.pages > 0);
    expect(full.length).toBeGreaterThan(0);
    // Every bar already has its final height: height is proportional to pages.
    const scale = full[0]!.height / full[0]!.pages;
    for (const b of full) expect(b.height / b.pages).toBeCloseTo(scale, 3);
    expect(problems).toEqual([]);
  });

  it('applies a new seed from the form and writes it to the URL', async () => {
    const { page, problems } = await open();
    await stepForward(page, 2);
    await page.getByLabel('Seed', { exact: true }).fill('4242');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForFunction(() => new URL(location.href).searchParams.get('seed') === '4242');
    await waitForStep(page, 0);

    // An out-of-range value is caught by the form; nothing restarts.
    const input = page.locator('input[data-param]').first();
    const name = (await input.getAttribute('data-param'))!;
    const max = Number(await input.getAttribute('max'));
    await stepForward(page, 1);
    await input.fill(String(max + 1));
    await page.getByRole('button', { name: 'Apply' }).click();
    expect(await input.getAttribute('aria-invalid')).toBe('true');
    expect(await stepCount(page)).toBe(1);
    expect(Number(query(page).get(name))).not.toBe(max + 1);
    expect(problems).toEqual([]);
  });
});
