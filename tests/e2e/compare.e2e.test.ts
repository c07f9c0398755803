// Browser tests of compare mode's way back: "Step back", the timeline and
// "Go to step" move both sides together (each engine restores its
// checkpoint and replays), and each side then shows exactly the counters the
// single view shows for its variant at that step. In headless Chromium
// against the built site (dist/). Run after `vite build`:
//   npx vite build && npx vitest run --config tests/e2e/vitest.e2e.config.ts tests/e2e/compare.e2e.test.ts
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SHOTS, counters, deltas, open, useBrowser, waitForStep } from './harness';

useBrowser({ nothingMissing: true });

/** multi-memcg-kswapd, seed 1: its before and after counters part after step 17. */
const EXPERIMENT = '?v=1&scenario=multi-memcg-kswapd&seed=1';

async function waitForText(locator: Locator, text: string): Promise<void> {
  await expect.poll(async () => (await locator.textContent())?.replace(/,/g, ''), { timeout: 60_000 }).toBe(text);
}

/** The counters the single view shows for `variant` at `step` (reached with "Go to step"). */
async function singleCounters(variant: string, step: number): Promise<Record<string, number>> {
  const { page, problems } = await open(`${EXPERIMENT}&variant=${variant}`, { ready: 'experiment' });
  // An experiment's page opens on its comparison; the counters are beside the LRU tab.
  await page.getByRole('tab', { name: /^LRU/ }).click();
  await page.getByRole('table', { name: 'Counters' }).waitFor();
  await page.getByLabel('Go to step', { exact: true }).fill(String(step));
  await page.getByRole('button', { name: 'Go', exact: true }).click();
  await waitForStep(page, step, 60_000);
  const values = await counters(page);
  expect(problems).toEqual([]);
  return values;
}

/** Both sides' step and counters. */
async function bothSides(mode: Locator): Promise<{ steps: string[]; left: Record<string, number>; right: Record<string, number> }> {
  const left = mode.getByTestId('compare-side-0');
  const right = mode.getByTestId('compare-side-1');
  return {
    steps: [(await left.getByTestId('side-step').textContent())!, (await right.getByTestId('side-step').textContent())!],
    left: await counters(left),
    right: await counters(right),
  };
}

/** Side by side on `search` (an experiment), both sides at `step`, on the Shadows view. */
async function shadowsAt(search: string, step: number): Promise<{ page: Page; mode: Locator; problems: string[] }> {
  const { page, problems } = await open(search, { ready: 'experiment', reducedMotion: 'reduce' });
  await page.getByRole('button', { name: 'Side by side', exact: true }).click();
  const mode = page.getByRole('region', { name: 'Side by side' });
  await waitForText(mode.getByTestId('compare-step'), '0');
  const timeline = mode.getByRole('group', { name: 'Compare timeline' });
  await timeline.getByLabel('Go to step', { exact: true }).fill(String(step));
  await timeline.getByRole('button', { name: 'Go', exact: true }).click();
  await waitForText(mode.getByTestId('compare-step'), String(step));
  await mode.getByRole('group', { name: 'Compare view' }).getByRole('button', { name: 'Shadows', exact: true }).click();
  return { page, mode, problems };
}

async function openCompare(): Promise<{ page: Page; mode: Locator; problems: string[] }> {
  const { page, problems } = await open(EXPERIMENT, { ready: 'experiment' });
  await page.getByRole('button', { name: 'Side by side', exact: true }).click();
  const mode = page.getByRole('region', { name: 'Side by side' });
  await waitForText(mode.getByTestId('compare-step'), '0');
  return { page, mode, problems };
}

describe('side by side: opening', () => {
  it('opens with both sides at the step the page was at', async () => {
    const { page, problems } = await open(EXPERIMENT, { ready: 'experiment' });
    await page.getByLabel('Go to step', { exact: true }).first().fill('12');
    await page.getByRole('button', { name: 'Go', exact: true }).first().click();
    await waitForStep(page, 12);
    await page.getByRole('button', { name: 'Side by side', exact: true }).click();
    const mode = page.getByRole('region', { name: 'Side by side' });
    await waitForText(mode.getByTestId('compare-step'), '12');
    const sides = await bothSides(mode);
    expect(sides.steps).toEqual(['12', '12']);
    // The Tour button says that a tour leaves side by side (it steps one run).
    expect(await page.locator('#tour-button').getAttribute('title')).toContain('It closes side by side');
    expect(problems).toEqual([]);
  });

  it('opens on the view the page showed (the System tab stays the System view)', async () => {
    const { page, problems } = await open(EXPERIMENT, { ready: 'experiment' });
    await page.getByRole('tab', { name: /^System/ }).click();
    await page.getByRole('button', { name: 'Side by side', exact: true }).click();
    const mode = page.getByRole('region', { name: 'Side by side' });
    await waitForText(mode.getByTestId('compare-step'), '0');
    const views = mode.getByRole('group', { name: 'Compare view' });
    expect(await views.getByRole('button', { name: 'System', exact: true }).getAttribute('aria-pressed')).toBe('true');
    expect(await views.getByRole('button', { name: 'LRU', exact: true }).getAttribute('aria-pressed')).toBe('false');
    expect(problems).toEqual([]);
  });
});

describe('side by side: the button', () => {
  // Side by side runs memcg-lru-fairness's 128 memcgs twice: slow on a loaded machine (it took over 60 s once in CI).
  it('sits clear of the variant switch, four variants at 1,280 px too, and Space after its click plays both sides', { timeout: 180_000 }, async () => {
    // memcg-lru-fairness has four variants: their buttons once ran out of their card and over "Side by side".
    const { page, problems } = await open('?v=1&scenario=memcg-lru-fairness&seed=1&tab=lru');
    const toggle = page.getByRole('button', { name: 'Side by side', exact: true });
    const card = page.locator('.variant-bar').first();
    const box = async (l: Locator) => (await l.boundingBox())!;
    const [c, t, tour] = [await box(card), await box(toggle), await box(page.locator('#tour-button'))];
    const labels = await card.locator('label').evaluateAll((ls) => ls.map((l) => l.getBoundingClientRect().toJSON() as DOMRect));
    expect(labels).toHaveLength(4);
    for (const l of labels) {
      expect(l.right, 'inside its card').toBeLessThanOrEqual(c.x + c.width + 0.5);
      for (const b of [t, tour]) expect(l.right <= b.x || l.left >= b.x + b.width || l.bottom <= b.y || l.top >= b.y + b.height, 'clear of the buttons').toBe(true);
    }
    // Clicked, the button leaves Space to the page's keys: it plays both sides, it does not close side by side,
    // also when Space comes while side by side is still starting (the keys then do nothing).
    await toggle.click();
    await page.keyboard.press(' ');
    const mode = page.getByRole('region', { name: 'Side by side' });
    await expect.poll(() => mode.getAttribute('aria-busy'), { timeout: 120_000 }).not.toBe('true');
    expect(await mode.count()).toBe(1);
    const pause = mode.getByRole('button', { name: 'Pause', exact: true });
    if (await pause.isDisabled()) await page.keyboard.press(' ');
    await expect.poll(async () => Number((await mode.getByTestId('compare-step').textContent())?.replace(/,/g, '')), { timeout: 30_000 }).toBeGreaterThan(2);
    expect(await mode.count()).toBe(1);
    await page.keyboard.press(' ');
    expect(problems).toEqual([]);
  });
});

describe('side by side: the two sides line up', () => {
  it('puts each card of one side level with its counterpart, and gives the side without a memcg LRU a row saying why', async () => {
    // memcg-lru-fairness: `before` (classic LRU, a walk of the memcg tree) has no memcg LRU,
    // `after` has one; the descriptions and the LRU views differ in height as well.
    const { page, problems } = await open('?v=1&scenario=memcg-lru-fairness&seed=1', { ready: 'experiment' });
    await page.getByRole('button', { name: 'Side by side', exact: true }).click();
    const mode = page.getByRole('region', { name: 'Side by side' });
    await waitForText(mode.getByTestId('compare-step'), '0');
    const tops = (side: Locator) =>
      side.evaluate((el) => [...el.children].map((c) => Math.round(c.getBoundingClientRect().top)));
    const left = mode.getByTestId('compare-side-0');
    const right = mode.getByTestId('compare-side-1');
    for (const view of ['LRU', 'Memcgs']) {
      await mode.getByRole('group', { name: 'Compare view' }).getByRole('button', { name: view, exact: true }).click();
      await left.getByRole('table', { name: 'Counters' }).waitFor();
      const [l, r] = [await tops(left), await tops(right)];
      expect(l.length, `${view}: cards on each side`).toBe(r.length);
      expect(l, `${view}: the tops of the left side's cards`).toEqual(r);
    }
    await expect.poll(() => left.getByTestId('no-memcg-lru').textContent()).toMatch(/No memcg LRU on node 0 in before: its reclaim walks the memcg tree/);
    expect(await right.getByTestId('no-memcg-lru').count()).toBe(0);
    // The labels under the generations do not run into each other in a side's narrower chart.
    await mode.getByRole('group', { name: 'Compare view' }).getByRole('button', { name: 'LRU', exact: true }).click();
    await right.locator('text.gen-label').first().waitFor({ state: 'attached' });
    await page.waitForTimeout(500);
    const labels = await right.locator('text.gen-label').evaluateAll((texts) =>
      texts.map((t) => t.getBoundingClientRect()).sort((a, b) => a.left - b.left).map((r) => [Math.round(r.left), Math.round(r.right)]),
    );
    expect(labels.length).toBeGreaterThan(1);
    for (let i = 1; i < labels.length; i++) expect(labels[i]![0], `label ${i} starts before label ${i - 1} ends: ${JSON.stringify(labels)}`).toBeGreaterThanOrEqual(labels[i - 1]![1]!);
    // Inside the two heads too: each side's step sits level with the other's, whichever description is
    // longer (classic-incremental's takes more lines than before's).
    await right.getByLabel('Right variant').selectOption('classic-incremental');
    await expect.poll(() => right.getAttribute('data-variant')).toBe('classic-incremental');
    await waitForText(mode.getByTestId('compare-step'), '0');
    const heads = await mode.locator('.compare-about').evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().height)));
    expect(heads[1], 'the right description is the longer').toBeGreaterThan(heads[0]!);
    const stepTops = await mode.getByTestId('side-step').evaluateAll((els) => els.map((e) => Math.round(e.getBoundingClientRect().top)));
    expect(stepTops[0]).toBe(stepTops[1]);
    expect(problems).toEqual([]);
  });
});

describe('side by side in a link', () => {
  it('a copied link keeps the view chosen in compare mode, and leaving compare mode keeps it too', async () => {
    const { page, problems } = await open(EXPERIMENT, { ready: 'experiment', clipboard: true });
    await page.getByRole('button', { name: 'Side by side', exact: true }).click();
    const mode = page.getByRole('region', { name: 'Side by side' });
    await waitForText(mode.getByTestId('compare-step'), '0');
    const views = mode.getByRole('group', { name: 'Compare view' });
    await views.getByRole('button', { name: 'Memcgs', exact: true }).click();
    await page.getByRole('button', { name: 'Copy link', exact: true }).click();
    await page.getByRole('status').getByText('Link copied').waitFor();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    const second = await open(new URL(link).search, { ready: 'experiment' });
    const again = second.page.getByRole('region', { name: 'Side by side' });
    await waitForText(again.getByTestId('compare-step'), '0');
    expect(await again.getByRole('group', { name: 'Compare view' }).getByRole('button', { name: 'Memcgs', exact: true }).getAttribute('aria-pressed')).toBe('true');
    expect(second.problems).toEqual([]);
    await second.page.close();
    // Leaving compare mode from the keyboard, the page shows the view compare mode was on, and the focus goes back to Side by side.
    await page.getByRole('button', { name: 'Exit side by side', exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('tab', { name: /^Memcgs/ }).getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.focusName ?? null)).toBe('side-by-side');
    expect(problems).toEqual([]);
  });

  it("a copied link keeps each side's counters and their Δ, the change over the last step", async () => {
    const { page, problems } = await open(EXPERIMENT, { ready: 'experiment', clipboard: true });
    await page.getByRole('button', { name: 'Side by side', exact: true }).click();
    const mode = page.getByRole('region', { name: 'Side by side' });
    await waitForText(mode.getByTestId('compare-step'), '0');
    await mode.getByRole('group', { name: 'Compare view' }).getByRole('button', { name: 'System', exact: true }).click();
    for (const step of ['1', '2', '3']) {
      await mode.getByRole('button', { name: 'Step forward', exact: true }).click();
      await waitForText(mode.getByTestId('compare-step'), step);
    }
    const sides = [mode.getByTestId('compare-side-0'), mode.getByTestId('compare-side-1')];
    const shown = await Promise.all(sides.map(async (side) => ({ counters: await counters(side), deltas: await deltas(side) })));
    expect(Object.values(shown[0]!.deltas).some((d) => d !== '' && d !== '0'), 'something changed in step 3').toBe(true);
    await page.getByRole('button', { name: 'Copy link', exact: true }).click();
    await page.getByRole('status').getByText('Link copied').waitFor();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    const second = await open(new URL(link).search, { ready: 'experiment' });
    const again = second.page.getByRole('region', { name: 'Side by side' });
    await waitForText(again.getByTestId('compare-step'), '3');
    const reopened = [again.getByTestId('compare-side-0'), again.getByTestId('compare-side-1')];
    for (const [i, side] of reopened.entries()) {
      await expect.poll(async () => deltas(side)).toEqual(shown[i]!.deltas);
      expect(await counters(side)).toEqual(shown[i]!.counters);
    }
    expect(second.problems).toEqual([]);
    await second.page.close();
    expect(problems).toEqual([]);
  });
});

describe('side by side in the address bar', () => {
  it('keeps side by side and its step in the address bar, so that a reload opens both sides there', async () => {
    const { page, problems } = await open(EXPERIMENT, { ready: 'experiment' });
    await page.getByRole('button', { name: 'Side by side', exact: true }).click();
    const mode = page.getByRole('region', { name: 'Side by side' });
    await waitForText(mode.getByTestId('compare-step'), '0');
    for (let i = 0; i < 3; i++) await mode.getByRole('button', { name: 'Step forward', exact: true }).click();
    await waitForText(mode.getByTestId('compare-step'), '3');
    await mode.getByRole('group', { name: 'Compare view' }).getByRole('button', { name: 'System', exact: true }).click();
    // A readable link, written once the sides are still: the variants as written, their step and view.
    await expect.poll(() => new URL(page.url()).search).toContain('&compare=before,after&step=3&tab=system');
    const before = await bothSides(mode);
    await page.reload();
    const again = page.getByRole('region', { name: 'Side by side' });
    await waitForText(again.getByTestId('compare-step'), '3');
    expect(await again.getByRole('group', { name: 'Compare view' }).getByRole('button', { name: 'System', exact: true }).getAttribute('aria-pressed')).toBe('true');
    expect(await bothSides(again)).toEqual(before);
    expect(await page.getByTestId('page-link-problem').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('names a variant the experiment does not have, and opens the page without side by side', async () => {
    const { page, problems } = await open(`${EXPERIMENT}&compare=before,sideways&step=3`, { ready: 'experiment' });
    const notice = page.getByTestId('page-link-problem');
    await notice.waitFor();
    expect(await notice.textContent()).toContain('compare: "sideways" is not a variant of multi-memcg-kswapd (before, after); ignored');
    expect(await page.getByRole('region', { name: 'Side by side' }).count()).toBe(0);
    // The rest of the link still holds: the page goes to its step.
    await waitForStep(page, 3);
    expect(problems).toEqual([]);
  });
});

describe('side by side: step back and seek, in lock step', () => {
  it('steps both sides back to the step they showed before, with the same counters', async () => {
    const { page, mode, problems } = await openCompare();
    const controls = mode.getByRole('group', { name: 'Compare controls' });
    const back = controls.getByRole('button', { name: 'Step back', exact: true });
    const forward = controls.getByRole('button', { name: 'Step forward', exact: true });
    expect(await back.isDisabled()).toBe(true);
    for (let i = 0; i < 19; i++) await forward.click();
    await waitForText(mode.getByTestId('compare-step'), '19');
    const at19 = await bothSides(mode);
    const sides = [mode.getByTestId('compare-side-0'), mode.getByTestId('compare-side-1')];
    const deltas19 = await Promise.all(sides.map((side) => deltas(side)));
    // The variants differ by then (else this test would not tell the sides apart).
    expect(at19.left).not.toEqual(at19.right);
    await forward.click();
    await forward.click();
    await waitForText(mode.getByTestId('compare-step'), '21');
    const at21 = await bothSides(mode);
    expect(at21.left).not.toEqual(at19.left);

    await back.click();
    await waitForText(mode.getByTestId('compare-step'), '20');
    // The keyboard steps both back too.
    await page.locator('body').press('ArrowLeft');
    await waitForText(mode.getByTestId('compare-step'), '19');
    expect(await bothSides(mode)).toEqual(at19);
    // Step 18 was shown: each side's Δ is the change into step 19 again, not blank.
    expect(await Promise.all(sides.map((side) => deltas(side)))).toEqual(deltas19);
    // And forward again to where they were.
    await forward.click();
    await forward.click();
    await waitForText(mode.getByTestId('compare-step'), '21');
    expect(await bothSides(mode)).toEqual(at21);
    // The page's own run stood still all along.
    expect(await page.getByTestId('step').textContent()).toBe('0');
    expect(problems).toEqual([]);
  });

  it('goes to a step and scrubs back on its timeline; each side matches the single view of its variant', { timeout: 240_000 }, async () => {
    const { page, mode, problems } = await openCompare();
    const timeline = mode.getByRole('group', { name: 'Compare timeline' });
    await timeline.getByLabel('Go to step', { exact: true }).fill('300');
    await timeline.getByRole('button', { name: 'Go', exact: true }).click();
    await waitForText(mode.getByTestId('compare-step'), '300');
    expect(await timeline.getByTestId('timeline-end').textContent()).toBe('300 reached');
    const at300 = await bothSides(mode);
    expect(at300.steps).toEqual(['300', '300']);

    // The slider back to step 120 (as dragging does: an input event).
    const slider = timeline.getByRole('slider');
    await slider.evaluate((input: HTMLInputElement) => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, '120');
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await waitForText(mode.getByTestId('compare-step'), '120');
    const at120 = await bothSides(mode);
    expect(at120.steps).toEqual(['120', '120']);
    expect(at120.left).not.toEqual(at120.right);
    await page.screenshot({ path: path.join(SHOTS, 'compare-seek.png'), fullPage: true });

    // Exactly what the single view of each variant shows at those steps.
    expect(at120.left).toEqual(await singleCounters('before', 120));
    expect(at120.right).toEqual(await singleCounters('after', 120));
    expect(at300.right).toEqual(await singleCounters('after', 300));

    // Forward again with the slider: the same state as the first time.
    await slider.evaluate((input: HTMLInputElement) => {
      Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, '300');
      input.dispatchEvent(new Event('input', { bubbles: true }));
    });
    await waitForText(mode.getByTestId('compare-step'), '300');
    expect(await bothSides(mode)).toEqual(at300);
    expect(problems).toEqual([]);
  });
});

/** Starts a Go to step 999,999 on the compare timeline and waits until it has made progress. */
async function startLongMove(mode: Locator): Promise<{ timeline: Locator; progress: Locator }> {
  const timeline = mode.getByRole('group', { name: 'Compare timeline' });
  await timeline.getByLabel('Go to step', { exact: true }).fill('999999');
  await timeline.getByRole('button', { name: 'Go', exact: true }).click();
  const progress = timeline.getByRole('progressbar');
  await progress.waitFor({ timeout: 30_000 });
  await expect.poll(async () => Number(await progress.getAttribute('value')), { timeout: 30_000 }).toBeGreaterThan(0);
  return { timeline, progress };
}

describe('side by side: stopping a long move', () => {
  it("plays both sides to the run's end and pauses there, as the page's own player does; played again, goes on past it", { timeout: 120_000 }, async () => {
    const { mode, problems } = await openCompare();
    const controls = mode.getByRole('group', { name: 'Compare controls' });
    await controls.getByLabel('Speed').selectOption('100');
    await controls.getByRole('button', { name: 'Play', exact: true }).click();
    // multi-memcg-kswapd runs 10 s: 1,000 steps.
    await waitForText(mode.getByTestId('compare-step'), '1000');
    await expect.poll(() => controls.getByRole('button', { name: 'Play', exact: true }).isEnabled()).toBe(true);
    await mode.page().waitForTimeout(400);
    expect((await mode.getByTestId('compare-step').textContent())?.replace(/,/g, '')).toBe('1000');
    await controls.getByRole('button', { name: 'Play', exact: true }).click();
    await expect.poll(async () => Number((await mode.getByTestId('compare-step').textContent())?.replace(/,/g, '')), { timeout: 60_000 }).toBeGreaterThan(1000);
    await controls.getByRole('button', { name: 'Pause', exact: true }).click();
    expect(problems).toEqual([]);
  });

  it('stops both sides where they got to and brings them to one step', { timeout: 120_000 }, async () => {
    const { mode, problems } = await openCompare();
    const { timeline, progress } = await startLongMove(mode);
    await timeline.getByRole('button', { name: 'Stop', exact: true }).click();
    await progress.waitFor({ state: 'detached', timeout: 30_000 });
    const step = Number((await mode.getByTestId('compare-step').textContent())!.replace(/,/g, ''));
    expect(step).toBeGreaterThan(0);
    expect(step).toBeLessThan(999_999);
    const sides = await bothSides(mode);
    expect(sides.steps.map((s) => Number(s.replace(/,/g, '')))).toEqual([step, step]);
    // And they go on together from there.
    await mode.getByRole('group', { name: 'Compare controls' }).getByRole('button', { name: 'Step forward', exact: true }).click();
    await waitForText(mode.getByTestId('compare-step'), String(step + 1));
    expect(problems).toEqual([]);
  });
});

describe('side by side: Escape', () => {
  it('stops a long move first, then leaves side by side with the focus on its button', { timeout: 120_000 }, async () => {
    const { page, mode, problems } = await openCompare();
    const { progress } = await startLongMove(mode);
    // The first Escape only stops the move: side by side stays, at the step it reached.
    await page.keyboard.press('Escape');
    await progress.waitFor({ state: 'detached', timeout: 30_000 });
    const step = Number((await mode.getByTestId('compare-step').textContent())!.replace(/,/g, ''));
    expect(step).toBeLessThan(999_999);
    expect(await mode.isVisible()).toBe(true);
    // Nor does one pressed while typing in a field.
    await mode.getByRole('group', { name: 'Compare timeline' }).getByLabel('Go to step', { exact: true }).focus();
    await page.keyboard.press('Escape');
    // Side by side still answers after it: a step lands on both sides.
    await mode.getByRole('group', { name: 'Compare controls' }).getByRole('button', { name: 'Step forward', exact: true }).click();
    await waitForText(mode.getByTestId('compare-step'), String(step + 1));
    // The next one, elsewhere, leaves it: the page's own controls are back and the keyboard is on Side by side.
    await mode.getByRole('group', { name: 'Compare controls' }).getByRole('button', { name: 'Step forward', exact: true }).focus();
    await page.keyboard.press('Escape');
    await mode.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Step forward', exact: true }).waitFor();
    await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.focusName ?? null)).toBe('side-by-side');
    expect(problems).toEqual([]);
  });
});

describe('side by side: the shadow LRU of each side', () => {
  it('shows one lruvec on both sides, the one chosen on either side (multi-memcg-kswapd)', async () => {
    const { mode, problems } = await shadowsAt(EXPERIMENT, 300);
    const shown = (i: number) => mode.getByTestId(`compare-side-${i}`).getByRole('region', { name: 'Shadow LRU' }).locator('.card-title .mono').textContent();
    await mode.getByTestId('compare-side-1').getByRole('region', { name: 'Shadow LRU' }).waitFor();
    const first = await shown(0);
    expect(await shown(1)).toBe(first);
    // Choosing another lruvec on the right moves the left too.
    const picker = mode.getByTestId('compare-side-1').getByLabel('Lruvec', { exact: true });
    const other = (await picker.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).find((v) => !v.startsWith(`${first}@`));
    expect(other, 'a second lruvec with shadows').toBeDefined();
    await picker.selectOption(other!);
    await expect.poll(() => shown(0)).not.toBe(first);
    expect(await shown(0)).toBe(await shown(1));
    expect(await mode.getByTestId('shadow-note').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('fits the tables and the lruvec picker of each side in its half of a 1280-pixel screen (multi-memcg-kswapd)', async () => {
    const { mode, problems } = await shadowsAt(EXPERIMENT, 60);
    const sides = [mode.getByTestId('compare-side-0'), mode.getByTestId('compare-side-1')];
    // Sideways overflow of a scrolling table, and how far a picker reaches past its card.
    const overflow = (box: Locator) => box.evaluate((e) => e.scrollWidth - e.clientWidth);
    const pickerPast = (side: Locator) =>
      side.getByRole('region', { name: 'Shadow LRU' }).evaluate((card) => {
        const select = card.querySelector('.shadow-picker select')!;
        return Math.round(select.getBoundingClientRect().right - card.getBoundingClientRect().right);
      });
    for (const side of sides) {
      // The before side's refaults come from two lruvecs: the widest table, with its lruvec column.
      await side.locator('.refaults-scroll').waitFor();
      expect(await overflow(side.locator('.refaults-scroll'))).toBeLessThanOrEqual(0);
      expect(await pickerPast(side)).toBeLessThanOrEqual(0);
    }
    await mode.getByRole('group', { name: 'Compare view' }).getByRole('button', { name: 'Memcgs', exact: true }).click();
    for (const side of sides) {
      // Before the patch /memcached holds swap: its usage caption is the longest and wraps.
      await side.locator('.memcg-scroll').waitFor();
      expect(await overflow(side.locator('.memcg-scroll'))).toBeLessThanOrEqual(0);
    }
    expect(await sides[0]!.locator('tr[data-memcg="/memcached"] .bar-text').first().textContent()).toContain('swap');
    // Each lruvec's generation charts share their y scale across the sides, so that bars compare by height.
    await mode.getByRole('group', { name: 'Compare view' }).getByRole('button', { name: 'LRU', exact: true }).click();
    const tops = await Promise.all(
      sides.map(async (side) => {
        const chart = side.getByTestId('generations-chart').first();
        await chart.waitFor();
        await expect.poll(() => chart.getAttribute('data-y-top')).not.toBeNull();
        return Number(await chart.getAttribute('data-y-top'));
      }),
    );
    expect(tops[0]).toBeGreaterThan(0);
    expect(tops[1]).toBe(tops[0]);
    expect(problems).toEqual([]);
  });

  it('says so on a side where the lruvec chosen has no shadows (the classic LRU keeps them under the reclaim target)', async () => {
    const { mode, problems } = await shadowsAt('?v=1&scenario=memcg-lru-fairness&seed=1', 300);
    // The right side (after, MGLRU) picks a memcg's lruvec; the left (before, classic) has its shadows under /.
    const right = mode.getByTestId('compare-side-1');
    await right.getByLabel('Lruvec', { exact: true }).waitFor();
    await right.getByLabel('Lruvec', { exact: true }).selectOption({ index: 1 });
    const chosen = await right.getByLabel('Lruvec', { exact: true }).inputValue();
    const note = mode.getByTestId('compare-side-0').getByTestId('shadow-note');
    await expect.poll(() => note.textContent()).toContain(`before has no shadows of ${chosen.split('@')[0]} on node 0 at this step; this is / on node 0.`);
    expect(await right.getByTestId('shadow-note').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('shows the refault test each variant uses, side by side (refault-distance-mglru)', async () => {
    const { page, mode, problems } = await shadowsAt('?v=1&scenario=refault-distance-mglru&seed=1', 30);
    const left = mode.getByTestId('compare-side-0').getByRole('region', { name: 'Shadow LRU' });
    const right = mode.getByTestId('compare-side-1').getByRole('region', { name: 'Shadow LRU' });
    await left.waitFor();
    await right.waitFor();
    // Upstream MGLRU judges a refault by its generation alone; the patch by its refault distance too.
    expect(await left.getAttribute('data-model')).toBe('lru_gen_test_recent');
    expect(await right.getAttribute('data-model')).toBe('lru_test_refault');
    // Each half-width chart's titles (the patch's side has two strips) fit inside it: a shorter wording where the long one would be cut.
    for (const side of [left, right]) {
      const titles = side.locator('svg .strip-title');
      await titles.first().waitFor();
      const fits = await titles.evaluateAll((ts) =>
        ts.map((t) => ({ right: t.getBoundingClientRect().right, edge: (t as SVGTextElement).ownerSVGElement!.getBoundingClientRect().right, text: t.textContent })),
      );
      expect(fits.length).toBeGreaterThan(0);
      for (const fit of fits) expect(fit.right, `"${fit.text}"`).toBeLessThanOrEqual(fit.edge + 0.5);
    }
    await page.screenshot({ path: path.join(SHOTS, 'compare-shadows.png') });
    expect(problems).toEqual([]);
  });
});
