// What every browser test file needs: the built site (dist/) on a local
// server, one headless Chromium, a fresh context per page, and readers for the
// counters and the step. Call `useBrowser()` once at the top of a test file.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type BrowserContext, type BrowserContextOptions, type Locator, type Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { serveStatic, type StaticServer } from './static-server';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const DIST = path.join(ROOT, 'dist');
/** Where the tests save their screenshots. */
export const SHOTS = path.join(ROOT, 'test-results');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

let server: StaticServer;
let browser: Browser;
const contexts: BrowserContext[] = [];

export interface Opened {
  page: Page;
  /** Console errors and uncaught exceptions seen on the page (and its workers). */
  problems: string[];
}

export type Ready = 'counters' | 'experiment';

export interface OpenOptions extends BrowserContextOptions {
  /** What shows that the page is up: the counters (default), or an experiment's page (its comparison tab hides them). */
  ready?: Ready;
  /** Grant the clipboard permissions (else the page may not use the clipboard). */
  clipboard?: boolean;
  /** Take the clipboard API away from the page (as on a plain-http origin). */
  noClipboard?: boolean;
}

/**
 * Starts the server and the browser before the file's tests, closes each
 * test's contexts after it, and both at the end. With `nothingMissing`, the
 * file also fails if the pages asked the server for a file it does not have.
 */
export function useBrowser({ nothingMissing = false }: { nothingMissing?: boolean } = {}): void {
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
    if (nothingMissing) expect(server?.missing ?? []).toEqual([]);
  });
}

/** An address on the test server (a path with its query). */
export function siteUrl(pathAndQuery: string): string {
  return new URL(pathAndQuery, server.url).href;
}

/** Paths the pages asked for that the site does not have. */
export function missingFiles(): string[] {
  return server.missing;
}

/** A browser context (1280x800 unless `options` say otherwise), closed after the test. */
export async function newContext({ clipboard, noClipboard, ...options }: Omit<OpenOptions, 'ready'> = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, acceptDownloads: true, ...options });
  contexts.push(context);
  if (clipboard) await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  if (noClipboard) await context.addInitScript(() => Object.defineProperty(navigator, 'clipboard', { value: undefined }));
  return context;
}

/** Opens the site at `search` in `context` and waits until it is up. */
export async function openIn(context: BrowserContext, search = '', ready: Ready = 'counters'): Promise<Opened> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('worker', (worker) => worker.on('console', (m) => m.type() === 'error' && problems.push(`worker: ${m.text()}`)));
  await page.goto(new URL(search, server.url).href);
  // The experiment's form is there (attached: side by side and tours put the form aside under 1,600 px).
  if (ready === 'experiment') await page.locator('button', { hasText: /^Run comparison$/ }).waitFor({ state: 'attached' });
  else await page.getByRole('table', { name: 'Counters' }).waitFor();
  return { page, problems };
}

/** Opens the site at `search` in a new context. */
export async function open(search = '', { ready, ...options }: OpenOptions = {}): Promise<Opened> {
  return openIn(await newContext(options), search, ready);
}

/** The counters of one table (the page's, or inside `scope`): name -> value. */
export async function counters(scope: Page | Locator): Promise<Record<string, number>> {
  const rows = await scope
    .getByRole('table', { name: 'Counters' })
    .locator('tbody tr')
    .evaluateAll((trs) =>
      trs.map((tr) => [(tr as HTMLElement).dataset.counter, Number(tr.querySelector('td[data-value]')?.getAttribute('data-value'))]),
    );
  return Object.fromEntries(rows);
}

/** The counters' Δ column (the page's, or inside `scope`): name -> the delta as the page holds it ('' without a previous frame). */
export async function deltas(scope: Page | Locator): Promise<Record<string, string>> {
  const rows = await scope
    .getByRole('table', { name: 'Counters' })
    .locator('tbody tr')
    .evaluateAll((trs) =>
      trs.map((tr) => [(tr as HTMLElement).dataset.counter, tr.querySelector('td[data-delta]')?.getAttribute('data-delta')]),
    );
  return Object.fromEntries(rows);
}

/** The step the page shows. */
export async function stepCount(page: Page): Promise<number> {
  return Number((await page.getByTestId('step').textContent())?.replace(/,/g, ''));
}

export async function waitForStep(page: Page, step: number, timeout?: number): Promise<void> {
  await page.waitForFunction(
    (n) => document.querySelector('[data-testid="step"]')?.textContent?.replace(/,/g, '') === String(n),
    step,
    { timeout },
  );
}

/** Clicks "Step forward" `times` times and waits for the step it leads to. */
export async function stepForward(page: Page, times: number): Promise<void> {
  const before = await stepCount(page);
  const button = page.getByRole('button', { name: 'Step forward', exact: true });
  for (let i = 0; i < times; i++) await button.click();
  await waitForStep(page, before + times);
}

/** The page's query string. */
export function query(page: Page): URLSearchParams {
  return new URL(page.url()).searchParams;
}

/** Plays at `speed` steps a tick until the step count reaches `atLeast`, then pauses and waits for the last tick. */
export async function playTo(page: Page, speed: '10' | '100', atLeast: number): Promise<number> {
  await page.getByLabel('Speed').selectOption(speed);
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await page.waitForFunction(
    (n) => Number(document.querySelector('[data-testid="step"]')?.textContent?.replace(/,/g, '')) >= n,
    atLeast,
  );
  // Play pauses by itself at the run's end: it may have got there (a slow machine) before Pause is pressed.
  await page
    .getByRole('button', { name: 'Pause', exact: true })
    .click({ timeout: 2_000 })
    .catch(() => undefined);
  await expect.poll(() => page.getByRole('button', { name: 'Play', exact: true }).isEnabled()).toBe(true);
  await page.waitForTimeout(300);
  await page.getByLabel('Speed').selectOption('1');
  return stepCount(page);
}
