// Browser tests of the timeline controls: step back, scrubbing the timeline,
// "Go to step", "Run to next" and the keyboard shortcuts, in headless
// Chromium against the built site (dist/). Run after `vite build`:
//   npx vite build && npx vitest run --config tests/e2e/vitest.e2e.config.ts tests/e2e/controls.e2e.test.ts
// Also prints (does not assert) how long seeking takes in a 100,000-step run.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SHOTS, counters, deltas, open as openPage, stepCount, useBrowser, waitForStep, type Opened, type Ready } from './harness';

/** mglru-basic, light: a uniform reader over a file 4x memory.max and a small, slow heap (about 40 µs a step). */
const LIGHT = '?v=1&scenario=mglru-basic&seed=1&reader_pattern=1&file_pages=8192&anon_pages=256&anon_rate=1000';

/** The site, with transitions off (these tests time seeks). */
function open(search = '', { ready = 'counters' }: { ready?: Ready } = {}): Promise<Opened> {
  return openPage(search, { ready, reducedMotion: 'reduce' });
}

/** Clicks a transport button once and waits for the step it leads to. */
async function press(page: Page, name: 'Step forward' | 'Step back'): Promise<number> {
  const before = await stepCount(page);
  await page.getByRole('button', { name, exact: true }).click();
  const after = before + (name === 'Step forward' ? 1 : -1);
  await waitForStep(page, after);
  return after;
}

async function goTo(page: Page, step: number, timeout?: number): Promise<void> {
  await page.getByLabel('Go to step', { exact: true }).fill(String(step));
  await page.getByRole('button', { name: 'Go', exact: true }).click();
  await waitForStep(page, step, timeout);
}

/** The kernel functions in the event list of the step shown. */
async function eventFunctions(page: Page): Promise<string[]> {
  return page.locator('ol.event-list li[data-function]').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-function')!));
}

/**
 * Sets the timeline slider to `step` the way dragging does (an input
 * event) and returns the wall time until the page shows that step, in ms,
 * measured in the page.
 */
async function scrub(page: Page, step: number): Promise<number> {
  const ms = await page.evaluate(async (target) => {
    const input = document.querySelector<HTMLInputElement>('input[type="range"][aria-valuetext]')!;
    const shown = () => document.querySelector('[data-testid="step"]')?.textContent?.replace(/,/g, '') === String(target);
    const began = performance.now();
    Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')!.set!.call(input, String(target));
    input.dispatchEvent(new Event('input', { bubbles: true }));
    await new Promise<void>((resolve) => {
      const check = () => (shown() ? resolve() : requestAnimationFrame(check));
      check();
    });
    return performance.now() - began;
  }, step);
  return ms;
}

useBrowser();

describe('Timeline controls', () => {
  it('stops a long "Go to step" where it got to (Stop, Escape), and a new seed does not wait for it', { timeout: 120_000 }, async () => {
    const { page, problems } = await open(LIGHT);
    const progress = page.getByRole('progressbar');
    const far = async () => {
      await page.getByLabel('Go to step', { exact: true }).fill('999999');
      await page.getByRole('button', { name: 'Go', exact: true }).click();
      await progress.waitFor({ timeout: 30_000 });
      // Some way in (a report or two), then stop.
      await page.waitForFunction(() => Number(document.querySelector('progress')?.getAttribute('value') ?? 0) > 0);
    };

    await far();
    // Stepping waits for the jump to be stopped instead of queueing behind it unseen.
    for (const name of ['Step forward', 'Step back', 'Play']) {
      expect(await page.getByRole('button', { name, exact: true }).isDisabled(), name).toBe(true);
    }
    await page.screenshot({ path: path.join(SHOTS, 'controls-stop.png') });
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await progress.waitFor({ state: 'detached', timeout: 10_000 });
    const first = await stepCount(page);
    expect(first).toBeGreaterThan(0);
    expect(first).toBeLessThan(999_999);
    // The run goes on from there, and stepping there again gives the same counters.
    const at = await counters(page);
    await press(page, 'Step forward');
    expect(await page.locator('.counters .card-footnote').textContent()).toBe('Δ: change over the last step');
    await press(page, 'Step back');
    expect(await counters(page)).toEqual(at);
    // Back there (the jump did not show the step before it), no change is shown, and the caption says why.
    expect(await page.locator('.counters .card-footnote').textContent()).toMatch(/^Δ: no earlier frame to compare with \(at the start, or after going back to a step whose step before was not shown\)/);
    // Back to a step whose step before was shown: its Δ is the change over that step, as when it was first shown.
    await press(page, 'Step forward');
    const seen = await deltas(page);
    await press(page, 'Step forward');
    await press(page, 'Step back');
    expect(await page.locator('.counters .card-footnote').textContent()).toBe('Δ: change over the last step');
    expect(await deltas(page)).toEqual(seen);

    await far();
    await page.keyboard.press('Escape');
    await progress.waitFor({ state: 'detached', timeout: 10_000 });
    expect(await stepCount(page)).toBeGreaterThan(first);
    // Nothing was found wanting: a stop is no error.
    expect(await page.getByTestId('alerts').count()).toBe(0);

    // A new seed applied during a long move starts at once, not after it.
    await far();
    await page.getByLabel('Seed', { exact: true }).fill('7');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForFunction(() => new URL(location.href).searchParams.get('seed') === '7', undefined, { timeout: 10_000 });
    await waitForStep(page, 0, 10_000);
    await progress.waitFor({ state: 'detached', timeout: 10_000 });
    expect(problems).toEqual([]);
  });

  it('Play pauses once at the run\'s end and goes on past it when played again; Pause stops a 1,000-step tick where it got to', { timeout: 120_000 }, async () => {
    // kswapd-classzone with two bursts: a 125-step run (`reclaim-sim run kswapd-classzone --param bursts=2` says so).
    const { page, problems } = await open('?v=1&scenario=kswapd-classzone&seed=1&bursts=2&variant=after', { ready: 'experiment' });
    const play = page.getByRole('button', { name: 'Play', exact: true });
    await page.getByLabel('Speed').selectOption('100');
    await play.click();
    await waitForStep(page, 125, 30_000);
    await expect.poll(() => play.isEnabled()).toBe(true);
    expect(await stepCount(page), 'paused at the end, not past it').toBe(125);
    expect(await page.getByTestId('timeline-at-end').textContent()).toBe("the run's end");
    await page.waitForTimeout(500);
    expect(await stepCount(page)).toBe(125);
    await play.click();
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="step"]')?.textContent?.replace(/,/g, '')) > 125);
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await page.getByTestId('timeline-past').waitFor();

    // A two-minute run at 1,000 steps a tick: Pause during a tick stops it where it has got to; nothing lands after.
    const heavy = await open('?v=1&scenario=multi-memcg-kswapd&seed=1&seconds=120&variant=after', { ready: 'experiment' });
    await heavy.page.getByLabel('Speed').selectOption('1000');
    await heavy.page.getByRole('button', { name: 'Play', exact: true }).click();
    await heavy.page.waitForFunction(() => Number(document.querySelector('[data-testid="step"]')?.textContent?.replace(/,/g, '')) >= 1000);
    const shown = await stepCount(heavy.page);
    await heavy.page.getByRole('button', { name: 'Pause', exact: true }).click();
    await expect.poll(() => heavy.page.getByRole('button', { name: 'Play', exact: true }).isEnabled()).toBe(true);
    // A step forward queues behind the tick in flight: once it has landed (its Δ is one step's), so has the tick,
    // which stopped where it had got to, short of the next thousand.
    await heavy.page.getByRole('button', { name: 'Step forward', exact: true }).click();
    const footnote = heavy.page.locator('.counters .card-footnote');
    await expect.poll(() => footnote.textContent(), { timeout: 30_000 }).toBe('Δ: change over the last step');
    const stepped = await stepCount(heavy.page);
    expect(stepped, 'the step after the stopped tick').toBeGreaterThan(shown);
    expect(stepped - 1, 'stopped part way through the tick').toBeLessThan(Math.floor(shown / 1000) * 1000 + 1000);
    // Nothing lands later.
    await heavy.page.waitForTimeout(1_500);
    expect(await stepCount(heavy.page), 'nothing lands later').toBe(stepped);
    expect(problems).toEqual([]);
    expect(heavy.problems).toEqual([]);
  });

  it('steps back to exactly the counters of the previous step, across checkpoints', async () => {
    const { page, problems } = await open(LIGHT);
    const back = page.getByRole('button', { name: 'Step back', exact: true });
    expect(await back.isDisabled(), 'nothing before step 0').toBe(true);
    const seen: Record<number, Record<string, number>> = { 0: await counters(page) };
    for (let i = 0; i < 6; i++) seen[await press(page, 'Step forward')] = await counters(page);
    expect(seen[6]).not.toEqual(seen[5]);
    for (const step of [5, 4, 3]) {
      expect(await press(page, 'Step back')).toBe(step);
      expect(await counters(page), `counters at step ${step}`).toEqual(seen[step]);
    }
    // The engine keeps a checkpoint every 500 steps of this run: step back across the one at 2,000.
    await goTo(page, 1998);
    seen[1998] = await counters(page);
    for (let i = 0; i < 4; i++) seen[await press(page, 'Step forward')] = await counters(page);
    for (const step of [2001, 2000, 1999, 1998]) {
      expect(await press(page, 'Step back')).toBe(step);
      expect(await counters(page), `counters at step ${step}`).toEqual(seen[step]);
    }
    await press(page, 'Step forward');
    expect(await counters(page)).toEqual(seen[1999]);
    expect(problems).toEqual([]);
  });

  it('scrubs the timeline to the counters of stepping there', async () => {
    const stepped = await open(LIGHT);
    const seen: Record<number, Record<string, number>> = {};
    for (let i = 0; i < 30; i++) seen[await press(stepped.page, 'Step forward')] = await counters(stepped.page);

    const { page, problems } = await open(LIGHT);
    await goTo(page, 45);
    const timeline = page.getByRole('slider', { name: 'Timeline' });
    expect(await timeline.getAttribute('max')).toBe('45');
    for (const step of [12, 30, 1, 29]) {
      await timeline.fill(String(step));
      await waitForStep(page, step);
      expect(await counters(page), `counters at step ${step}`).toEqual(seen[step]);
      expect(await timeline.inputValue()).toBe(String(step));
    }
    // The slider's end stays at the furthest step reached.
    expect(await timeline.getAttribute('max')).toBe('45');
    // From the keyboard, the focused slider moves one step at a time.
    await timeline.focus();
    await page.keyboard.press('ArrowRight');
    await waitForStep(page, 30);
    expect(await counters(page)).toEqual(seen[30]);
    await page.screenshot({ path: path.join(SHOTS, 'controls-timeline.png') });
    expect([...stepped.problems, ...problems]).toEqual([]);
  });

  it('runs to the next aging and stops on it', async () => {
    // The default mglru-basic (the light reader evicts without ever aging): first at step 296 for seed 1.
    const { page, problems } = await open('?v=1&scenario=mglru-basic&seed=1');
    await page.getByLabel('Stop at', { exact: true }).selectOption('aging');
    await page.getByRole('button', { name: 'Run to next', exact: true }).click();
    await page.waitForFunction(() => document.querySelector('[data-testid="step"]')?.textContent !== '0');
    const first = await stepCount(page);
    expect(await eventFunctions(page)).toContain('inc_max_seq');
    // The first one: the step before had none.
    await press(page, 'Step back');
    expect(await eventFunctions(page)).not.toContain('inc_max_seq');
    await press(page, 'Step forward');
    // And the next one after it.
    await page.getByRole('button', { name: 'Run to next', exact: true }).click();
    await page.waitForFunction((n) => Number(document.querySelector('[data-testid="step"]')?.textContent?.replace(/,/g, '')) > n, first);
    expect(await eventFunctions(page)).toContain('inc_max_seq');
    expect(problems).toEqual([]);
  });

  it("stops at the run's end when nothing comes before it, as Play does; again, it goes on past it", async () => {
    // classic-basic runs 500 steps and never kills a task.
    const { page, problems } = await open('?v=1&scenario=classic-basic&seed=1');
    await page.getByLabel('Stop at', { exact: true }).selectOption('oom');
    const run = page.getByRole('button', { name: 'Run to next', exact: true });
    expect(await run.getAttribute('title')).toBe("Step until the next OOM kill: at most to the run's end (step 500); from there, at most 10,000 steps");
    await run.click();
    await waitForStep(page, 500);
    const alerts = page.getByTestId('alerts');
    await expect.poll(() => alerts.textContent()).toContain("No OOM kill before the run's end: stopped there, at step 500. Run to next again goes on past it.");
    expect(await page.getByTestId('timeline-at-end').isVisible()).toBe(true);
    expect(await run.getAttribute('title')).toBe('Step until the next OOM kill: at most 10,000 steps');
    await run.click();
    await waitForStep(page, 10_500, 120_000);
    await expect.poll(() => alerts.textContent()).toContain('No OOM kill in 10,000 steps: stopped at step 10,500.');
    expect(problems).toEqual([]);
  });

  it('shows the reclaim round it stopped at, on a step crowded with thousands of evictions', async () => {
    // proactive-reclaim-batching: the first write to /uid_0 at step 101 evicts from 64 memcgs in the same step.
    const { page, problems } = await open('?v=1&scenario=proactive-reclaim-batching&seed=1', { ready: 'experiment' });
    await page.getByLabel('Stop at', { exact: true }).selectOption('reclaim');
    await page.getByRole('button', { name: 'Run to next', exact: true }).click();
    await page.waitForFunction(() => document.querySelector('[data-testid="step"]')?.textContent !== '0');
    expect(await eventFunctions(page)).toContain('try_to_free_mem_cgroup_pages');
    const round = page.locator('ol.event-list li[data-function="try_to_free_mem_cgroup_pages"]').first();
    expect(await round.textContent()).toMatch(/memory\.reclaim of \/uid_0: asked for \d+ pages/);
    // Marked as what Run to next stopped for, and scrolled to within the list.
    expect(await round.getAttribute('data-matched')).toBe('');
    expect(await page.locator('ol.event-list li[data-matched]').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-kind')))).toEqual(
      expect.arrayContaining(['reclaim']),
    );
    const inList = await round.evaluate((li) => {
      const list = li.closest('ol')!.getBoundingClientRect();
      const row = li.getBoundingClientRect();
      return row.top >= list.top - 1 && row.bottom <= list.bottom + 1;
    });
    expect(inList, 'the row is within the list\'s visible part').toBe(true);
    // A step later it is no longer marked.
    await page.getByRole('button', { name: 'Step forward', exact: true }).click();
    await expect.poll(() => page.locator('ol.event-list li[data-matched]').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('runs to the next kswapd sleep and stops on it', async () => {
    const { page, problems } = await open('?v=1&scenario=kswapd-classzone&seed=1', { ready: 'experiment' });
    await page.getByRole('tab', { name: /^System/ }).click();
    // The classic LRU (the kernel of 2017) has no MGLRU aging or evict_folios: no stopping there.
    const stopAt = page.getByLabel('Stop at', { exact: true });
    const options = await stopAt.locator('option').evaluateAll((os) => os.map((o) => ({ kind: (o as HTMLOptionElement).value, disabled: (o as HTMLOptionElement).disabled })));
    expect(options.filter((o) => o.disabled).map((o) => o.kind)).toEqual(['aging', 'eviction']);
    // The experiment's page offers the event its patch is about first (EXPERIMENT_RUN_KIND).
    expect(await stopAt.inputValue()).toBe('kswapd-sleep');
    await page.getByRole('button', { name: 'Run to next', exact: true }).click();
    await page.waitForFunction(() => document.querySelector('[data-testid="step"]')?.textContent !== '0');
    const event = page.locator('ol.event-list li[data-function="kswapd_try_to_sleep"]', { hasText: 'asleep until wakeup_kswapd' });
    expect(await event.count()).toBeGreaterThan(0);
    const stopped = await stepCount(page);
    await press(page, 'Step back');
    expect(await page.locator('ol.event-list li', { hasText: 'asleep until wakeup_kswapd' }).count(), 'the step before').toBe(0);
    await press(page, 'Step forward');
    expect(await stepCount(page)).toBe(stopped);
    await page.screenshot({ path: path.join(SHOTS, 'controls-kswapd-sleep.png') });
    expect(problems).toEqual([]);
  });

  it('runs to the first reclaim throttle of slow-disk, which its page offers first, and shows why it slept', async () => {
    const { page, problems } = await open('?v=1&scenario=slow-disk&seed=1');
    // It opens on the System tab, where kswapd's part is told (SCENARIO_FIRST_TAB), and its address needs no tab.
    await expect.poll(() => page.getByRole('tab', { name: /^System/ }).getAttribute('aria-selected')).toBe('true');
    expect(new URL(page.url()).searchParams.get('tab')).toBeNull();
    const stopAt = page.getByLabel('Stop at', { exact: true });
    expect(await stopAt.inputValue()).toBe('throttle');
    await page.getByRole('button', { name: 'Run to next', exact: true }).click();
    await page.waitForFunction(() => document.querySelector('[data-testid="step"]')?.textContent !== '0');
    // Not before the allocating task starts at 3 s (step 300).
    const stopped = await stepCount(page);
    expect(stopped).toBeGreaterThanOrEqual(300);
    const event = page.locator('ol.event-list li[data-function="reclaim_throttle"]').first();
    await event.waitFor();
    expect(await event.textContent()).toMatch(/sleeps .* ms of its .* ms timeout \(VMSCAN_THROTTLE_/);
    await press(page, 'Step back');
    expect(await eventFunctions(page)).not.toContain('reclaim_throttle');
    // By 8 s kswapd has slept on writeback: the System tab's kswapd card counts it, with the time.
    await page.getByLabel('Go to step', { exact: true }).first().fill('800');
    await page.getByRole('button', { name: 'Go', exact: true }).first().click();
    await waitForStep(page, 800);
    await page.getByRole('tab', { name: /^System/ }).click();
    const throttled = page.getByTestId('kswapd-throttled');
    expect(await throttled.textContent()).toMatch(/^[1-9][\d,]* · [\d.]+ m?s$/);
    // And its timeline paints those sleeps as their own mode, in the legend too.
    expect(await page.locator('[data-testid="kswapd-segment"][data-mode="throttled"], [data-testid="kswapd-packed"][data-mode="throttled"]').count()).toBeGreaterThan(0);
    expect(await page.locator('.kswapd-chart .legend-key.mode-throttled').count()).toBe(1);
    await page.screenshot({ path: path.join(SHOTS, 'controls-slow-disk-throttle.png') });
    // The LRU tab, chosen, goes in the address (it is not this scenario's first), and a reload opens on it.
    await page.getByRole('tab', { name: /^LRU/ }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('tab')).toBe('lru');
    const again = await open(new URL(page.url()).search);
    await expect.poll(() => again.page.getByRole('tab', { name: /^LRU/ }).getAttribute('aria-selected')).toBe('true');
    expect([...problems, ...again.problems]).toEqual([]);
  });

  it('shows a long function name whole in the events of a laptop screen (it wraps after an underscore)', async () => {
    const { page, problems } = await openPage('?v=1&scenario=mglru-basic&seed=1', { reducedMotion: 'reduce', viewport: { width: 1366, height: 768 } });
    await page.getByLabel('Stop at', { exact: true }).selectOption('reclaim');
    await page.getByRole('button', { name: 'Run to next', exact: true }).click();
    const name = page.locator('ol.event-list li[data-function="try_to_free_mem_cgroup_pages"] .event-function').first();
    await name.waitFor();
    const shown = await name.evaluate((e) => ({ text: e.textContent, whole: e.scrollWidth <= e.clientWidth + 1, fits: e.getBoundingClientRect().right <= e.closest('li')!.getBoundingClientRect().right }));
    expect(shown).toEqual({ text: 'try_to_free_mem_cgroup_pages', whole: true, fits: true });
    expect(problems).toEqual([]);
  });

  it('after a long jump, the generations fade in where they belong: their labels never stack while they animate', async () => {
    // With motion on: the new columns' transition is what this checks.
    const { page, problems } = await openPage('?v=1&scenario=mglru-basic&seed=1', { viewport: { width: 1366, height: 768 } });
    await page.getByLabel('Go to step', { exact: true }).fill('3000');
    await page.getByRole('button', { name: 'Go', exact: true }).click();
    await waitForStep(page, 3000, 60_000);
    // Sample the seq labels every frame or so until the transition is over.
    const samples = await page.evaluate(async () => {
      const out: { seq: string; left: number; right: number }[][] = [];
      for (let i = 0; i < 40; i++) {
        out.push(
          [...document.querySelectorAll<SVGGElement>('g.column')]
            .filter((g) => Number(getComputedStyle(g).opacity) > 0.05)
            .map((g) => {
              const r = g.querySelector('text.seq-label')!.getBoundingClientRect();
              return { seq: g.getAttribute('data-seq') ?? '', left: r.left, right: r.right };
            }),
        );
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return out;
    });
    const stacked = samples.flatMap((cols, i) =>
      cols.flatMap((a, j) => cols.slice(j + 1).filter((b) => a.left < b.right - 1 && b.left < a.right - 1).map((b) => `sample ${i}: seq ${a.seq} over seq ${b.seq}`)),
    );
    expect(stacked).toEqual([]);
    // The jump did change the generations (max_seq well past the first four).
    expect(Math.max(...samples[samples.length - 1]!.map((c) => Number(c.seq)))).toBeGreaterThan(4);
    expect(problems).toEqual([]);
  });

  it('answers the keyboard: → steps, ← steps back, Space plays and pauses, not while typing', async () => {
    const { page, problems } = await open(LIGHT);
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
    await waitForStep(page, 3);
    await page.keyboard.press('ArrowLeft');
    await waitForStep(page, 2);
    const pause = page.getByRole('button', { name: 'Pause', exact: true });
    await page.keyboard.press(' ');
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="step"]')?.textContent?.replace(/,/g, '')) >= 6);
    expect(await pause.isEnabled()).toBe(true);
    await page.keyboard.press(' ');
    await page.waitForFunction(() => (document.querySelector('button[title^="Run continuously"]') as HTMLButtonElement | null)?.disabled === false);
    await page.waitForTimeout(300);
    const stopped = await stepCount(page);
    await page.waitForTimeout(400);
    expect(await stepCount(page)).toBe(stopped);
    // In the "Go to step" field and the event kind's select, the keys belong to them.
    const field = page.getByLabel('Go to step', { exact: true });
    await field.focus();
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press(' ');
    await page.getByLabel('Stop at', { exact: true }).focus();
    await page.keyboard.press('ArrowLeft');
    await page.waitForTimeout(300);
    expect(await stepCount(page)).toBe(stopped);
    expect(await pause.isDisabled()).toBe(true);
    // On the timeline slider the arrows move it; at its end (the furthest step reached) → steps on, and Space plays.
    const slider = page.getByRole('slider', { name: 'Timeline' });
    await slider.focus();
    expect(await slider.getAttribute('max')).toBe(String(stopped));
    await page.keyboard.press('ArrowRight');
    await waitForStep(page, stopped + 1);
    await page.keyboard.press('ArrowLeft');
    await waitForStep(page, stopped);
    await page.keyboard.press(' ');
    await page.waitForFunction((n) => Number(document.querySelector('[data-testid="step"]')?.textContent?.replace(/,/g, '')) >= n, stopped + 4);
    await page.keyboard.press(' ');
    await page.waitForFunction(() => (document.querySelector('button[title^="Run continuously"]') as HTMLButtonElement | null)?.disabled === false);
    expect(problems).toEqual([]);
  });

  it('gives the keys to the page after a click: Space plays after Step forward was clicked, → steps after a tab was clicked', async () => {
    const { page, problems } = await open(LIGHT);
    const play = page.getByRole('button', { name: 'Play', exact: true });
    const pause = page.getByRole('button', { name: 'Pause', exact: true });
    // Reached with the keyboard, a button keeps Space: it presses Step forward once.
    const forward = page.getByRole('button', { name: 'Step forward', exact: true });
    await forward.focus();
    await page.keyboard.press(' ');
    await waitForStep(page, 1);
    await page.waitForTimeout(300);
    expect(await stepCount(page)).toBe(1);
    expect(await pause.isDisabled()).toBe(true);
    // Clicked, it leaves Space to the page: Space plays (not one more step), and Space again pauses.
    await forward.click();
    await waitForStep(page, 2);
    await page.keyboard.press(' ');
    await expect.poll(() => pause.isEnabled()).toBe(true);
    await page.waitForFunction(() => Number(document.querySelector('[data-testid="step"]')?.textContent?.replace(/,/g, '')) >= 5);
    await page.keyboard.press(' ');
    await expect.poll(() => play.isEnabled()).toBe(true);
    // A tab clicked: → steps instead of moving to the next tab.
    const tab = page.getByRole('tab', { name: /^System/ });
    await tab.click();
    const at = await stepCount(page);
    await page.keyboard.press('ArrowRight');
    await waitForStep(page, at + 1);
    expect(await tab.getAttribute('aria-selected')).toBe('true');
    // Reached with the keyboard (Shift+Tab away and Tab back), the tab list keeps its arrows.
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.getAttribute('role'))).toBe('tab');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => tab.getAttribute('aria-selected')).toBe('false');
    expect(await stepCount(page)).toBe(at + 1);
    expect(problems).toEqual([]);
  });

  it('goes to step 100,000 with a progress bar, then seeks anywhere in it (timings printed)', { timeout: 300_000 }, async () => {
    const { page, problems } = await open(LIGHT);
    await page.getByLabel('Go to step', { exact: true }).fill('100000');
    const began = Date.now();
    await page.getByRole('button', { name: 'Go', exact: true }).click();
    const progress = page.getByRole('progressbar');
    await progress.waitFor({ timeout: 30_000 });
    await page.screenshot({ path: path.join(SHOTS, 'controls-progress.png') });
    await waitForStep(page, 100_000, 240_000);
    const runMs = Date.now() - began;
    expect(await progress.count(), 'the progress bar is gone').toBe(0);
    expect(await page.getByRole('slider', { name: 'Timeline' }).getAttribute('max')).toBe('100000');

    // Seeks to steps spread over the run, in an order that jumps back and forth.
    const targets = [73_421, 12_007, 99_999, 50_000, 1, 88_888, 31_337, 64_000, 5_555, 99_000, 42_424, 77_777];
    const times: number[] = [];
    for (const target of targets) {
      times.push(await scrub(page, target));
      expect(await stepCount(page)).toBe(target);
    }
    const sorted = [...times].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)]!;
    console.log(
      `[seek] light mglru-basic, 100,000-step run reached in ${(runMs / 1000).toFixed(1)} s; ` +
        `seek to a step (slider input to the step shown): median ${median.toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms, ` +
        `min ${sorted[0]!.toFixed(0)} ms over ${times.length} seeks (${times.map((t) => t.toFixed(0)).join(', ')})`,
    );
    // The last jump was over 35,000 steps: its Δ column is wide, and still fits beside the names (they wrap instead).
    const counterBox = page.locator('.counters .table-scroll');
    expect(await counterBox.evaluate((el) => [el.scrollWidth <= el.clientWidth, el.clientWidth])).toEqual([true, expect.any(Number)]);
    await page.locator('.counters').screenshot({ path: path.join(SHOTS, 'counters-large-delta.png') });
    // And the counters there are those of stepping there: one step forward and back agree.
    const at = await counters(page);
    await press(page, 'Step forward');
    await press(page, 'Step back');
    expect(await counters(page)).toEqual(at);
    await page.screenshot({ path: path.join(SHOTS, 'controls.png') });
    expect(problems).toEqual([]);
  });
});
