// Browser tests of the guided tours: every tour walked from its first step
// to its last with the keyboard, each step checked against what the page
// shows (the panel's own check of the step's precondition, the variant, the
// step, the tab, the ring on a visible anchored element), Previous, Exit
// tour with focus back on the Tour button, the tour in the picker, and
// readable links to a tour step and to a step and view. Run after `vite build`:
//   npx vite build && npx vitest run --config tests/e2e/vitest.e2e.config.ts tests/e2e/tours.e2e.test.ts
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ALL_TOURS as TOURS } from '../../web/src/tours/all';
import type { Tour, TourStep } from '../../web/src/tours/types';
import { SHOTS, newContext, open, openIn, stepCount, useBrowser, waitForStep } from './harness';

useBrowser();

/** Waits until the panel shows step `index` (0-based) and the run has got there; returns the panel's state. */
async function arrive(page: Page, index: number): Promise<string> {
  await page.waitForFunction(
    (n) => {
      const panel = document.querySelector('[data-testid="tour-panel"]');
      return panel?.getAttribute('data-tour-step') === String(n) && panel.getAttribute('data-state') !== 'moving';
    },
    index + 1,
    { timeout: 120_000 },
  );
  return (await page.getByTestId('tour-panel').getAttribute('data-state')) ?? '';
}

/** Everything a step says about the page, checked on the page. */
async function checkStep(page: Page, tour: Tour, index: number): Promise<void> {
  const step: TourStep = tour.steps[index]!;
  const where = `${tour.experiment} step ${index + 1} (${step.title})`;
  const state = await arrive(page, index);
  const problem = state === 'problem' ? await page.getByTestId('tour-problem').textContent() : '';
  // The panel's check of the step's precondition against the frame on screen.
  expect(state, `${where}: ${problem}`).toBe('ready');
  const panel = page.getByRole('dialog', { name: step.title });
  expect(await panel.getByTestId('tour-title').textContent()).toBe(step.title);
  expect(await panel.getByTestId('tour-text').textContent()).toBe(step.text);
  expect(await panel.getByTestId('tour-count').textContent()).toBe(`Step ${index + 1} of ${tour.steps.length}`);
  // The variant the step is about is the one running.
  const variant = page.getByRole('radiogroup', { name: 'Variant' }).getByRole('radio', { checked: true });
  expect(await variant.getAttribute('value'), where).toBe(step.variant);
  // The step the run is at, when the step names one.
  if (step.at && 'step' in step.at) expect(await stepCount(page), where).toBe(step.at.step);
  if (step.at && 'from' in step.at) expect(await stepCount(page), where).toBeGreaterThan(step.at.from);
  // The view it talks about is the one selected.
  expect(await page.locator(`#views-tab-${step.tab}`).getAttribute('aria-selected'), where).toBe('true');
  // The ring is on one element, the step's anchor, and it is in the window.
  const ring = page.locator('[data-tour-highlight]');
  await expect.poll(() => ring.count(), { message: `${where}: one highlighted element` }).toBe(1);
  expect(await ring.getAttribute('data-tour'), where).toBe(step.anchor);
  for (const [key, value] of Object.entries(step.anchorWith ?? {})) expect(await ring.getAttribute(`data-${key}`), where).toBe(value);
  expect(await ring.isVisible(), where).toBe(true);
  await expect
    .poll(
      () =>
        ring.evaluate((el) => {
          const r = el.getBoundingClientRect();
          return r.bottom > 0 && r.top < window.innerHeight && r.right > 0 && r.left < window.innerWidth;
        }),
      { message: `${where}: the highlighted element is scrolled into the window` },
    )
    .toBe(true);
  for (const mark of step.marks ?? []) expect(await ring.locator(mark).first().getAttribute('data-tour-mark'), `${where}: ${mark}`).toBe('');
  // The first row the step marks is whole in the views' column, clear of the panel.
  if (step.marks?.length)
    await expect
      .poll(
        () =>
          page.evaluate(() => {
            const mark = document.querySelector('[data-tour-mark]')!;
            const first = mark.getBoundingClientRect();
            const column = document.querySelector('.main-column')!.getBoundingClientRect();
            const panel = document.querySelector('[data-testid="tour-panel"]')!.getBoundingClientRect();
            const underPanel = first.bottom > panel.top && first.right > panel.left && first.left < panel.right;
            // Nothing lies over its middle either (a table header that stays at the top of its scroll box).
            const hit = document.elementFromPoint((first.left + first.right) / 2, (first.top + first.bottom) / 2);
            const seen = hit !== null && mark.contains(hit);
            return first.top >= column.top - 1 && first.bottom <= column.bottom + 1 && !underPanel && seen;
          }),
        { message: `${where}: the first marked row is in view and clear of the panel` },
      )
      .toBe(true);
  // A comparison step: the panel covers none of the table's metric names (the text speaks of unmarked rows too).
  if (step.compare)
    await expect
      .poll(
        () =>
          page.evaluate(() => {
            const panel = document.querySelector('[data-testid="tour-panel"]')!.getBoundingClientRect();
            return [...document.querySelectorAll('tr[data-metric] > :first-child')]
              .map((cell) => cell.getBoundingClientRect())
              .filter((r) => r.bottom > panel.top && r.top < panel.bottom && r.right > panel.left && r.left < panel.right).length;
          }),
        { message: `${where}: metric names under the panel` },
      )
      .toBe(0);
}

/** The step a tour's screenshot is taken at: its first step seen in the "before" variant after the introduction. */
function shotStep(tour: Tour): number {
  const i = tour.steps.findIndex((s, n) => n > 0 && !s.compare && s.variant !== 'after');
  return i > 0 ? i : 1;
}

describe('every tour, first to last step', () => {
  for (const tour of TOURS) {
    it(`${tour.experiment}: ${tour.steps.length} steps`, { timeout: 600_000 }, async () => {
      const { page, problems } = await open(`?v=1&scenario=${tour.experiment}&seed=1`, { ready: 'experiment' });
      // Keyboard only: the Tour button, then Next, Previous and Exit tour.
      const tourButton = page.getByRole('button', { name: 'Tour', exact: true });
      await tourButton.focus();
      await page.keyboard.press('Enter');
      const next = page.getByRole('button', { name: 'Next', exact: true });
      let stepBefore = 0;
      for (let i = 0; i < tour.steps.length; i++) {
        await checkStep(page, tour, i);
        // A step with no moment of its own (the comparison) keeps the run where the step before left it, whatever its variant.
        if (i > 0 && tour.steps[i]!.at === undefined) expect(await stepCount(page), `step ${i + 1}`).toBe(stepBefore);
        stepBefore = await stepCount(page);
        // The address bar links to this step of the tour.
        const query = new URL(page.url()).searchParams;
        expect(query.get('tour')).toBe(tour.experiment);
        expect(query.get('tourStep')).toBe(String(i + 1));
        if (i === shotStep(tour)) await page.screenshot({ path: path.join(SHOTS, `tour-${tour.experiment}.png`) });
        if (i + 1 < tour.steps.length) {
          await next.focus();
          await page.keyboard.press('Enter');
        }
      }
      // The last step: Finish where Next was (and no Exit tour beside it), with the focus Next had; Previous goes back a step.
      expect(await next.count()).toBe(0);
      if (tour.steps.length > 1) await expect.poll(() => page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Finish');
      expect(await page.getByRole('button', { name: 'Finish', exact: true }).isEnabled()).toBe(true);
      expect(await page.getByRole('button', { name: 'Exit tour', exact: true }).count()).toBe(0);
      await page.getByRole('button', { name: 'Previous', exact: true }).focus();
      await page.keyboard.press('Enter');
      await checkStep(page, tour, tour.steps.length - 2);
      // Exit tour: the panel and the ring go, focus is back on the Tour button, the link loses the tour.
      await page.getByRole('button', { name: 'Exit tour', exact: true }).focus();
      await page.keyboard.press('Enter');
      await page.getByTestId('tour-panel').waitFor({ state: 'detached' });
      expect(await page.locator('[data-tour-highlight], [data-tour-mark]').count()).toBe(0);
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('tour-button');
      await expect.poll(() => new URL(page.url()).searchParams.get('tour')).toBeNull();
      // Left before its end, the tour resumes where it was left.
      const resume = page.locator('#tour-button');
      expect(await resume.textContent()).toBe(`Resume tour (step ${tour.steps.length - 1})`);
      await resume.click();
      await checkStep(page, tour, tour.steps.length - 2);
      await page.getByRole('button', { name: 'Next', exact: true }).click();
      // Once the last step is there: the panel may change sides when it lands, under a click aimed at it.
      expect(await arrive(page, tour.steps.length - 1)).toBe('ready');
      await page.getByRole('button', { name: 'Finish', exact: true }).click();
      await page.getByTestId('tour-panel').waitFor({ state: 'detached' });
      // Finished, it starts again at its first step.
      expect(await resume.textContent()).toBe('Tour');
      expect(problems).toEqual([]);
    });
  }
});

describe('opening tours', () => {
  it('Escape closes a tour; the picker opens one', async () => {
    const { page, problems } = await open('?v=1&scenario=mglru-basic&seed=1');
    await page.locator('form.scenario-form').getByLabel('Scenario', { exact: true }).selectOption({ label: 'Tour: The memcg LRU: reclaim that stops in time and is fair over time' });
    expect(await arrive(page, 0)).toBe('ready');
    expect(await page.getByTestId('scenario-title').textContent()).toContain('memcg-lru-fairness');
    // Focus went into the panel, to the step's title.
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('tour-title');
    // Space there is the reader's: it does not set the run going under the step.
    const at = await stepCount(page);
    await page.keyboard.press(' ');
    await page.waitForTimeout(400);
    expect(await stepCount(page)).toBe(at);
    expect(await page.getByRole('button', { name: 'Pause', exact: true }).isDisabled()).toBe(true);
    await page.keyboard.press('Escape');
    await page.getByTestId('tour-panel').waitFor({ state: 'detached' });
    expect(problems).toEqual([]);
  });

  it('the default page says where to start: run it, or one of the five tours, until the first step', async () => {
    const { page, problems } = await open();
    const start = page.getByRole('navigation', { name: 'Start here' });
    await start.waitFor();
    expect(await start.getByRole('listitem').getByRole('button').allTextContents()).toEqual(TOURS.map((t) => t.title));
    await page.screenshot({ path: path.join(SHOTS, 'start-here.png') });
    await start.getByRole('button', { name: TOURS[3]!.title }).click();
    expect(await arrive(page, 0)).toBe('ready');
    expect(await page.getByTestId('scenario-title').textContent()).toContain(TOURS[3]!.experiment);
    // An experiment's page has its own Tour button: no strip there.
    expect(await start.count()).toBe(0);

    const plain = await open();
    await plain.page.getByRole('navigation', { name: 'Start here' }).waitFor();
    await plain.page.getByRole('button', { name: 'Step forward', exact: true }).click();
    await waitForStep(plain.page, 1);
    expect(await plain.page.getByRole('navigation', { name: 'Start here' }).count()).toBe(0);
    // Played from step 0, it stays while the run plays (the views do not jump up as they start to move),
    // and goes once the run is paused.
    const played = await open();
    const strip = played.page.getByRole('navigation', { name: 'Start here' });
    await strip.waitFor();
    await played.page.getByRole('button', { name: 'Play', exact: true }).click();
    await played.page.waitForFunction(() => Number(document.querySelector('[data-testid="step"]')?.textContent?.replace(/,/g, '')) >= 3);
    expect(await strip.count()).toBe(1);
    await played.page.getByRole('button', { name: 'Pause', exact: true }).click();
    await strip.waitFor({ state: 'detached' });
    expect(played.problems).toEqual([]);
    // Closed, it stays closed in this browser, also on a new visit.
    const context = await newContext();
    const first = await openIn(context);
    await first.page.getByRole('button', { name: 'Close Start here', exact: true }).click();
    expect(await first.page.getByRole('navigation', { name: 'Start here' }).count()).toBe(0);
    const again = await openIn(context);
    await again.page.getByRole('button', { name: 'Step forward', exact: true }).waitFor();
    expect(await again.page.getByRole('navigation', { name: 'Start here' }).count()).toBe(0);
    expect([...problems, ...plain.problems, ...first.problems, ...again.problems]).toEqual([]);
  });

  it("loads a tour's steps when it first opens; if they cannot be, the panel says so, the page keeps working, and Try again opens it", async () => {
    const { page, problems } = await open();
    const chunk = /\/assets\/kswapd-classzone-[^/]*\.js$/;
    const fetched: string[] = [];
    page.on('request', (r) => chunk.test(r.url()) && fetched.push(r.url()));
    await page.route(chunk, (route) => route.abort('internetdisconnected'));
    expect(fetched, 'the initial page does not load the steps').toEqual([]);
    const start = page.getByRole('navigation', { name: 'Start here' });
    await start.getByRole('button', { name: TOURS[3]!.title }).click();
    const panel = page.getByTestId('tour-panel');
    await expect.poll(() => panel.getAttribute('data-state')).toBe('failed');
    const problem = page.getByTestId('tour-problem');
    expect(await problem.textContent()).toBe("The tour's steps could not be loaded (the connection, or a new version of the site?). Try again");
    // The browser's own words are in the tooltip.
    expect(await problem.getAttribute('title')).toMatch(/\S/);
    expect(fetched).toHaveLength(1);
    await page.getByRole('button', { name: 'Exit tour', exact: true }).click();
    await panel.waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Step forward', exact: true }).click();
    await waitForStep(page, 1);
    // The only console errors are the chunk's failed request.
    expect(problems.every((p) => /ERR_INTERNET_DISCONNECTED|Failed to fetch dynamically imported module/.test(p)), problems.join('\n')).toBe(true);

    // A link to a tour step whose steps cannot be fetched keeps its address (a reload tries again), and Try again opens that step.
    const blocked = await newContext();
    await blocked.route(chunk, (route) => route.abort('internetdisconnected'));
    const linkFetches: string[] = [];
    blocked.on('request', (r) => chunk.test(r.url()) && linkFetches.push(r.url()));
    const link = await openIn(blocked, '?v=1&scenario=kswapd-classzone&seed=1&tour=kswapd-classzone&tourStep=3', 'experiment');
    const linked = link.page.getByTestId('tour-panel');
    await expect.poll(() => linked.getAttribute('data-state')).toBe('failed');
    expect(linkFetches, 'the link opens the tour with one try at its steps').toHaveLength(1);
    await link.page.waitForTimeout(500);
    expect(new URL(link.page.url()).searchParams.get('tour')).toBe('kswapd-classzone');
    expect(new URL(link.page.url()).searchParams.get('tourStep')).toBe('3');
    await blocked.unroute(chunk);
    await link.page.getByRole('button', { name: 'Try again', exact: true }).click();
    expect(await arrive(link.page, 2)).toBe('ready');
    expect(await link.page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'focus on the step once it is there').toBe('tour-title');
  });

  it('Finish on the last step ends the tour', async () => {
    const tour = TOURS.find((t) => t.experiment === 'kswapd-classzone')!;
    const last = tour.steps.length;
    // A projector's 1,280 x 720: the tour gives the views the form's width, so the table's verdicts and seed
    // counts, which the last step's text speaks of, are clear of its panel.
    const { page, problems } = await open(`?v=1&scenario=kswapd-classzone&seed=1&tour=kswapd-classzone&tourStep=${last}`, { ready: 'experiment', viewport: { width: 1280, height: 720 } });
    expect(await arrive(page, last - 1)).toBe('ready');
    const sidebar = page.getByRole('complementary', { name: 'Scenario' });
    expect(await sidebar.isVisible()).toBe(false);
    const panel = (await page.getByTestId('tour-panel').boundingBox())!;
    const table = page.getByRole('table', { name: 'Comparison' });
    await table.locator('td.tally').first().waitFor();
    const verdicts = await table.locator('tr.headline').evaluateAll((rows) =>
      rows.flatMap((row) => [...row.querySelectorAll('td')].slice(-4, -2).map((td) => td.getBoundingClientRect())).map((r) => ({ left: r.left, right: r.right, top: r.top, bottom: r.bottom })),
    );
    expect(verdicts.length).toBe(8);
    const under = verdicts.filter((r) => r.right > panel.x && r.left < panel.x + panel.width && r.bottom > panel.y && r.top < panel.y + panel.height);
    expect(under, JSON.stringify({ panel, verdicts })).toEqual([]);
    await page.getByRole('button', { name: 'Finish', exact: true }).click();
    await page.getByTestId('tour-panel').waitFor({ state: 'detached' });
    expect(await page.locator('[data-tour-highlight], [data-tour-mark]').count()).toBe(0);
    // The form is back.
    expect(await sidebar.isVisible()).toBe(true);
    await expect.poll(() => new URL(page.url()).searchParams.get('tour')).toBeNull();
    expect(problems).toEqual([]);
  });

  it("a comparison step's panel opens on the side it keeps once the table comes", async () => {
    // refault-distance-mglru's last step runs its comparison (a few seconds here): the rows it marks come with the table.
    const tour = TOURS.find((t) => t.experiment === 'refault-distance-mglru')!;
    const last = tour.steps.length;
    const { page, problems } = await open(`?v=1&scenario=refault-distance-mglru&seed=1&tour=refault-distance-mglru&tourStep=${last}`, { ready: 'experiment' });
    // The panel's side at every frame until the step is ready, sampled in the page.
    const sides = await page.evaluate(
      () =>
        new Promise<string[]>((resolve) => {
          const seen: string[] = [];
          const sample = () => {
            const panel = document.querySelector('[data-testid="tour-panel"]');
            const side = panel?.className.match(/tour-(left|right)/)?.[1];
            if (side && seen.at(-1) !== `${side}/${panel!.getAttribute('data-state')}`) seen.push(`${side}/${panel!.getAttribute('data-state')}`);
            if (panel?.getAttribute('data-state') === 'ready' || performance.now() > 60_000) resolve(seen);
            else requestAnimationFrame(sample);
          };
          sample();
        }),
    );
    // It was seen moving (the comparison running) and then ready, on one side throughout: right, clear of the metric names.
    expect(sides.some((s) => s.endsWith('/moving'))).toBe(true);
    expect(sides.at(-1)).toBe('right/ready');
    expect(new Set(sides.map((s) => s.split('/')[0]))).toEqual(new Set(['right']));
    expect(problems).toEqual([]);
  });

  it("a link to a step that marks counters shows every one, none under the table's header", async () => {
    // The steps that mark counters in the vmstat table, whose header stays at its top: three rows together
    // (refault-distance-mglru), or three a dozen rows apart (multi-memcg-kswapd: workingset_refault_anon, pswpin, pswpout).
    const steps = TOURS.flatMap((t) => t.steps.flatMap((s, i) => (s.anchor === 'counters' && (s.marks?.length ?? 0) >= 3 ? [{ tour: t.experiment, index: i, marks: s.marks!.length }] : [])));
    expect(steps.map((s) => s.tour)).toEqual(expect.arrayContaining(['refault-distance-mglru', 'multi-memcg-kswapd']));
    for (const { tour, index, marks } of steps) {
      const { page, problems } = await open(`?v=1&scenario=${tour}&seed=1&tour=${tour}&tourStep=${index + 1}`, { ready: 'experiment' });
      expect(await arrive(page, index)).toBe('ready');
      const allSeen = () =>
        page.evaluate(() =>
          [...document.querySelectorAll('[data-tour-mark]')].map((mark) => {
            const box = mark.getBoundingClientRect();
            const hit = document.elementFromPoint((box.left + box.right) / 2, (box.top + box.bottom) / 2);
            return hit !== null && mark.contains(hit);
          }),
        );
      // Once the scroll that brings them into view is over (the rows still for a quarter of a second).
      const tops = () => page.evaluate(() => [...document.querySelectorAll('[data-tour-mark]')].map((m) => Math.round(m.getBoundingClientRect().top)).join());
      let last = '';
      await expect
        .poll(async () => {
          const now = await tops();
          const still = now === last;
          last = now;
          return still;
        }, { interval: 250 })
        .toBe(true);
      expect(await allSeen(), `${tour} step ${index + 1}`).toEqual(Array.from({ length: marks }, () => true));
      expect(problems).toEqual([]);
      await page.context().close();
    }
  });

  it('a link to a tour step opens the tour there', async () => {
    const tour = TOURS.find((t) => t.experiment === 'kswapd-classzone')!;
    const { page, problems } = await open('?v=1&scenario=kswapd-classzone&seed=1&tour=kswapd-classzone&tourStep=3', { ready: 'experiment', clipboard: true });
    await checkStep(page, tour, 2);
    expect(await page.getByTestId('kswapd-premature').textContent()).not.toBe('0');
    // Copy link during a tour gives the tour at this step, and it opens there.
    await page.getByRole('button', { name: 'Copy link', exact: true }).click();
    await page.getByRole('status').getByText('Link copied').waitFor();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(new URL(link).searchParams.get('tour')).toBe('kswapd-classzone');
    expect(new URL(link).searchParams.get('tourStep')).toBe('3');
    const second = await open(new URL(link).search, { ready: 'experiment' });
    await checkStep(second.page, tour, 2);
    expect(second.problems).toEqual([]);
    await second.page.close();
    // The panel moves to the other side to show what it covers, and back.
    const panel = page.getByTestId('tour-panel');
    const side = async () => ((await panel.getAttribute('class')) ?? '').match(/tour-(left|right)/)?.[1];
    const placed = await side();
    expect(['left', 'right']).toContain(placed);
    await page.getByTestId('tour-move').click();
    await expect.poll(side).toBe(placed === 'left' ? 'right' : 'left');
    await page.getByTestId('tour-move').click();
    await expect.poll(side).toBe(placed);
    // It folds down to its buttons, to uncover a wide table, and opens again.
    const height = async () => (await panel.boundingBox())?.height ?? 0;
    const open_ = await height();
    await page.getByTestId('tour-fold').click();
    await expect.poll(() => panel.getAttribute('data-folded')).toBe('true');
    expect(await page.getByTestId('tour-text').isVisible()).toBe(false);
    expect(await page.getByTestId('tour-fold').getAttribute('aria-expanded')).toBe('false');
    expect(await height()).toBeLessThan(open_ / 2);
    await page.screenshot({ path: path.join(SHOTS, 'tour-folded.png') });
    await page.getByTestId('tour-fold').click();
    await expect.poll(() => panel.getAttribute('data-folded')).toBe('false');
    expect(await page.getByTestId('tour-text').isVisible()).toBe(true);
    // This step runs to kswapd's next sleep: stepping past where it landed is noticed too.
    const landed = await stepCount(page);
    await page.getByRole('button', { name: 'Step forward', exact: true }).click();
    await waitForStep(page, landed + 1);
    const problem = page.getByTestId('tour-problem');
    await problem.waitFor();
    expect(await problem.textContent()).toContain(`the run is at step ${landed + 1}, not ${landed}`);
    await page.getByRole('button', { name: 'Show this step again', exact: true }).click();
    await checkStep(page, tour, 2);
    // So is another view than the one the step explains.
    await page.getByRole('tab', { name: /^LRU/ }).click();
    await problem.waitFor();
    expect(await problem.textContent()).toContain('the LRU tab is shown, not System');
    // Copy link now gives what the page shows, not the tour step it has left.
    await page.evaluate(() => navigator.clipboard.writeText(''));
    await page.getByRole('button', { name: 'Copy link', exact: true }).click();
    await expect.poll(() => page.evaluate(() => navigator.clipboard.readText())).not.toBe('');
    const left = new URL(await page.evaluate(() => navigator.clipboard.readText()));
    expect(left.searchParams.get('tour')).toBeNull();
    expect(problems).toEqual([]);
  });

  it('a link to a tour step brings its element into view once the views have laid out', async () => {
    // memcg-lru-fairness's fourth step marks the memory.reclaim card, below views that finish laying out after the first scroll.
    for (const viewport of [{ width: 1280, height: 800 }, { width: 1024, height: 768 }]) {
      const { page, problems } = await open('?v=1&scenario=memcg-lru-fairness&seed=1&tour=memcg-lru-fairness&tourStep=4', { ready: 'experiment', viewport });
      await page.waitForFunction(() => document.querySelector('[data-testid="tour-panel"]')?.getAttribute('data-state') === 'ready');
      const box = () =>
        page.evaluate(() => {
          const r = document.querySelector('[data-tour-highlight]')!.getBoundingClientRect();
          return { top: Math.round(r.top), bottom: Math.round(r.bottom) };
        });
      const inView = async () => {
        const b = await box();
        return b.bottom > 0 && b.top < viewport.height;
      };
      await expect.poll(inView, { timeout: 5_000 }).toBe(true);
      // And it stays there.
      await page.waitForTimeout(1_500);
      expect(await inView(), `${viewport.width}x${viewport.height}: ${JSON.stringify(await box())}`).toBe(true);
      expect(problems).toEqual([]);
      await page.close();
    }
  });

  it("a tour link says which of its run's keys the tour does not use", async () => {
    const tour = TOURS.find((t) => t.experiment === 'kswapd-classzone')!;
    const { page, problems } = await open('?v=1&scenario=kswapd-classzone&seed=3&variant=before&bursts=4&readers=8&tour=kswapd-classzone&tourStep=3', {
      ready: 'experiment',
    });
    await checkStep(page, tour, 2);
    // readers=8 is the default and variant=before is step 3's: only seed and bursts differ from what the tour runs.
    const notice = page.getByTestId('page-link-problem');
    await notice.waitFor();
    expect(await notice.textContent()).toContain("seed, bursts: a tour link runs the tour's experiment (kswapd-classzone) at its defaults on seed 1, in each step's variant; ignored");
    expect(problems).toEqual([]);
  });

  it('dark theme, reduced motion: a still ring; stepping away is noticed, and "Show this step again" goes back', async () => {
    const tour = TOURS.find((t) => t.experiment === 'kswapd-classzone')!;
    const { page, problems } = await open('?v=1&scenario=kswapd-classzone&seed=1&tour=kswapd-classzone&tourStep=5', {
      ready: 'experiment',
      colorScheme: 'dark',
      reducedMotion: 'reduce',
    });
    await checkStep(page, tour, 4);
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await page.locator('[data-tour-highlight]').evaluate((el) => getComputedStyle(el).animationName)).toBe('none');
    await page.screenshot({ path: path.join(SHOTS, 'tour-dark.png') });
    // The reader steps on: the panel says the page no longer shows the step's moment.
    await page.getByRole('button', { name: 'Step forward', exact: true }).click();
    await waitForStep(page, 106);
    const problem = page.getByTestId('tour-problem');
    await problem.waitFor();
    expect(await problem.textContent()).toMatch(/the run is at step 106, not 105/);
    await page.getByRole('button', { name: 'Show this step again', exact: true }).click();
    await checkStep(page, tour, 4);
    expect(problems).toEqual([]);
  });

  it('a readable link opens its step and view; a bad page key is named and the rest applies', async () => {
    const { page, problems } = await open('?v=1&scenario=kswapd-classzone&seed=1&variant=before&step=105&tab=system', { ready: 'experiment' });
    await waitForStep(page, 105);
    await expect.poll(() => page.locator('#views-tab-system').getAttribute('aria-selected')).toBe('true');
    expect(await page.getByTestId('kswapd-pending').textContent()).toContain('DMA');

    const bad = await open('?v=1&scenario=kswapd-classzone&seed=1&variant=before&step=ten&tab=system&tour=nope', { ready: 'experiment' });
    const notice = bad.page.getByTestId('page-link-problem');
    await notice.waitFor();
    expect(await notice.textContent()).toMatch(/step: "ten" is not a whole number/);
    expect(await notice.textContent()).toMatch(/tour: there is no tour named "nope"/);
    expect([...problems, ...bad.problems]).toEqual([]);
  });
});
