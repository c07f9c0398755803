// Browser tests: the built site (dist/) in headless Chromium. Run by
// `node scripts/rl.mjs test` after `vite build`, or alone with
//   npx vite build && npx vitest run --config tests/e2e/vitest.e2e.config.ts
// (the check that an experiment's table shows the numbers of the native
// `reclaim-sim compare` needs its release build, which `npm test` builds
// first; alone, run `npm run sim -- list` once to build it).
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ROOT, SHOTS, counters, missingFiles, open, stepCount, stepForward, useBrowser, waitForStep } from './harness';

// The native CLI, built by `node scripts/rl.mjs test` before the browser tests (for the same-numbers check).
const SIM = path.join(ROOT, 'wasm-core', 'target', 'release', 'reclaim-sim');

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

interface Dot {
  page: string;
  kind: string;
  state: string;
  column: string;
  seq: number | null;
  label: string;
  selected: boolean;
  /** The dot's centre on the page. */
  x: number;
  y: number;
}

/** The tracked-folio dots now on the page (not the ones fading out). */
async function dots(page: Page): Promise<Dot[]> {
  return page.locator('[data-testid="folio-dot"]:not(.leaving)').evaluateAll((gs) =>
    gs.map((g) => {
      const box = g.querySelector('circle.dot')!.getBoundingClientRect();
      const seq = g.getAttribute('data-seq');
      return {
        page: g.getAttribute('data-page')!,
        kind: g.getAttribute('data-kind')!,
        state: g.getAttribute('data-state')!,
        column: g.getAttribute('data-column')!,
        seq: seq === null ? null : Number(seq),
        label: g.getAttribute('aria-label')!,
        selected: g.getAttribute('aria-selected') === 'true',
        x: box.x + box.width / 2,
        y: box.y + box.height / 2,
      };
    }),
  );
}

/** The horizontal extent of one generation's bar of one type. */
async function barSpan(page: Page, seq: number, type: string): Promise<[number, number]> {
  const box = await page.locator(`rect[data-testid="gen-bar"][data-seq="${seq}"][data-type="${type}"]`).boundingBox();
  if (!box) throw new Error(`no bar for seq ${seq} ${type}`);
  return [box.x, box.x + box.width];
}

/** Kernel functions the engine names in its decisions about tracked folios. */
const FOLIO_FUNCTIONS = [
  'lru_gen_add_folio',
  'folio_inc_refs',
  'try_to_inc_max_seq',
  'lru_gen_look_around',
  'inc_min_seq',
  'sort_folio',
  'isolate_folio',
  'evict_folios',
  'folio_check_references',
  'pageout',
  '__remove_mapping',
  'lru_gen_refault',
  'workingset_refault',
  'folio_mark_accessed',
  'shrink_active_list',
];

function query(page: Page): URLSearchParams {
  return new URL(page.url()).searchParams;
}

useBrowser();

/** Whether the picker lists `name` under Experiments. */
async function isExperiment(page: Page, name: string): Promise<boolean> {
  return page
    .getByLabel('Scenario', { exact: true })
    .locator(`optgroup[label^="Experiments"] option[value="${name}"]`)
    .count()
    .then((n) => n > 0);
}

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

    const charts = page.getByRole('group', { name: /^Generations of .+ on node \d+$/ });
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
    expect(missingFiles()).toEqual([]);
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

  it('loads and plays every scenario and experiment in the picker, an experiment before and after its patch', async () => {
    const { page, problems } = await open('', { reducedMotion: 'reduce' });
    // What the picker offers: every built-in scenario and experiment (tours are not runs).
    const names = await page
      .getByLabel('Scenario', { exact: true })
      .locator('option')
      .evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value).filter((v) => v && !v.startsWith('tour:')));
    expect(names.length).toBeGreaterThanOrEqual(11);
    const played: string[] = [];
    for (const name of names) {
      const variants = (await isExperiment(page, name)) ? ['before', 'after'] : [null];
      for (const variant of variants) {
        const search = `?v=1&scenario=${name}&seed=1${variant ? `&variant=${variant}` : ''}`;
        const opened = await open(search, { ready: variant ? 'experiment' : 'counters', reducedMotion: 'reduce' });
        const run = opened.page;
        if (variant) await run.getByRole('tab', { name: /^LRU/ }).click();
        await run.getByLabel('Speed').selectOption('10');
        await run.getByRole('button', { name: 'Play', exact: true }).click();
        await run.waitForFunction(() => Number(document.querySelector('[data-testid="step"]')?.textContent?.replace(/,/g, '')) >= 20, undefined, { timeout: 60_000 });
        await run.getByRole('button', { name: 'Pause', exact: true }).click();
        const shown = await counters(run);
        // It played: the engine did work (pages came in), and the page shows it.
        expect(Object.values(shown).some((v) => v > 0), `${search}: all counters zero`).toBe(true);
        expect((shown.pgpgin ?? 0) + (shown.pgfault ?? 0), `${search}: no page came in`).toBeGreaterThan(0);
        if (variant === 'after') await run.screenshot({ path: path.join(SHOTS, `played-${name}.png`) });
        expect(opened.problems, search).toEqual([]);
        await run.context().close();
        played.push(variant ? `${name}/${variant}` : name);
      }
    }
    console.log(`[app] played ${played.length} runs: ${played.join(', ')}`);
    expect(problems).toEqual([]);
  }, 600_000);

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

  it('draws the tracked folios and shows the history of the one clicked', async () => {
    const { page, problems } = await open();
    expect(await page.getByTestId('folio-dot').count(), 'nothing is resident at step 0').toBe(0);
    await stepForward(page, 12);
    await page.waitForTimeout(800);
    const drawn = await dots(page);
    const resident = drawn.filter((d) => d.state === 'resident');
    expect(resident.length, 'resident tracked folios').toBeGreaterThan(10);
    expect(new Set(resident.map((d) => d.kind))).toEqual(new Set(['anon', 'file']));
    for (const d of resident) {
      expect(d.column).toBe(`seq:${d.seq}`);
      expect(d.label).toMatch(new RegExp(`^folio ${d.page.replace(/[#]/g, '\\$&')}, generation ${d.seq}, tier [0-3]$`));
      // Drawn over its generation's bar of its type.
      const [left, right] = await barSpan(page, d.seq!, d.kind);
      expect(d.x, d.page).toBeGreaterThan(left);
      expect(d.x, d.page).toBeLessThan(right);
    }
    // Reclaimed pages sit in the lane of shadow entries, below the chart's bars.
    const lane = drawn.filter((d) => d.state !== 'resident');
    expect(lane.length, 'evicted tracked folios by step 12').toBeGreaterThan(0);
    for (const d of lane) {
      expect(d.column).toBe('lane');
      expect(d.y).toBeGreaterThan(Math.max(...resident.map((r) => r.y)));
    }

    // Click a file folio in the oldest generation: its history opens.
    const oldest = Math.min(...resident.map((d) => d.seq!));
    const target = resident.find((d) => d.kind === 'file' && d.seq === oldest)!;
    expect(target, 'a file folio in the oldest generation').toBeTruthy();
    await page.locator(`[data-testid="folio-dot"][data-page="${target.page}"]`).click();
    const panel = page.getByRole('region', { name: 'Folio history' });
    await panel.waitFor();
    expect(await panel.getByTestId('folio-page').textContent()).toBe(target.page);
    expect(await panel.getByTestId('folio-state').textContent()).toBe(`resident in generation ${target.seq}, tier ${/tier (\d)/.exec(target.label)![1]}`);
    const rows = panel.getByRole('listitem');
    await rows.first().waitFor();
    const functions = await rows.evaluateAll((lis) => lis.map((li) => li.getAttribute('data-function')));
    expect(functions.length).toBeGreaterThan(0);
    for (const f of functions) expect(FOLIO_FUNCTIONS, `function ${f}`).toContain(f);
    const stepsShown = await rows.evaluateAll((lis) => lis.map((li) => Number(li.querySelector('.history-step')!.textContent!.replace(/\D/g, ''))));
    expect(stepsShown, 'newest first').toEqual([...stepsShown].sort((a, b) => b - a));
    expect(stepsShown[0]).toBeLessThanOrEqual(12);
    const selected = (await dots(page)).filter((d) => d.selected);
    expect(selected.map((d) => d.page)).toEqual([target.page]);
    expect(await page.locator('[data-testid="folio-dot"].selected').count()).toBe(1);
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(SHOTS, 'folios.png') });

    // The history follows the steps: the newest row is a decision from a later step.
    let newest = stepsShown[0]!;
    for (let step = 13; step <= 40 && newest <= 12; step++) {
      await stepForward(page, 1);
      await page.locator(`section[data-page="${target.page}"][data-history-step="${step}"]`).waitFor();
      const first = await rows.first().locator('.history-step').textContent();
      newest = Number(first!.replace(/\D/g, ''));
      if (newest > 12) expect(newest, 'a decision of the step just taken').toBe(step);
    }
    expect(newest, 'a decision about the selected folio within 40 steps').toBeGreaterThan(12);

    await page.getByRole('button', { name: 'Close folio history' }).click();
    expect(await panel.count()).toBe(0);
    expect(await page.locator('[data-testid="folio-dot"].selected').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('selects folios from the keyboard without stepping', async () => {
    const { page, problems } = await open();
    await stepForward(page, 8);
    const list = page.getByRole('listbox', { name: 'Tracked folios of /job on node 0' });
    await list.waitFor();
    const stop = page.locator('[data-testid="folio-dot"][tabindex="0"]');
    expect(await stop.count(), 'one tab stop').toBe(1);
    await stop.focus();
    const focusedPage = () => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.page ?? null);
    const first = await focusedPage();
    const options = list.getByRole('option');
    const names = await options.evaluateAll((os) => os.map((o) => o.getAttribute('aria-label')));
    expect(names[0]).toMatch(/^folio (anon|file):\w+#\d+, generation \d+, tier \d$/);
    await page.keyboard.press('ArrowRight');
    const second = await focusedPage();
    expect(second).not.toBe(first);
    await page.keyboard.press('Enter');
    const panel = page.getByRole('region', { name: 'Folio history' });
    await panel.waitFor();
    expect(await panel.getByTestId('folio-page').textContent()).toBe(second);
    expect(await list.getByRole('option', { selected: true }).getAttribute('data-page')).toBe(second);
    // The arrows and Space belonged to the list, not to the step controls.
    await page.keyboard.press(' ');
    await page.keyboard.press('ArrowRight');
    expect(await stepCount(page)).toBe(8);
    await page.keyboard.press('Escape');
    expect(await panel.count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('moves a folio to its new generation with a transition', async () => {
    // Find, without motion, the first step that moves a resident folio to another generation.
    const still = await open('', { reducedMotion: 'reduce' });
    let before = await dots(still.page);
    let moved: { page: string; from: number; to: number; kind: string; step: number } | null = null;
    for (let step = 1; step <= 60 && !moved; step++) {
      await stepForward(still.page, 1);
      await still.page.waitForTimeout(60);
      const after = await dots(still.page);
      for (const d of after) {
        const old = before.find((b) => b.page === d.page);
        if (old && old.state === 'resident' && d.state === 'resident' && old.seq !== d.seq) {
          moved = { page: d.page, from: old.seq!, to: d.seq!, kind: d.kind, step };
          // Reduced motion: it is already over its new bar.
          const [left, right] = await barSpan(still.page, d.seq!, d.kind);
          expect(d.x).toBeGreaterThan(left);
          expect(d.x).toBeLessThan(right);
          break;
        }
      }
      before = after;
    }
    expect(moved, 'a folio changes generation within 60 steps').not.toBeNull();
    const { page: folio, from, to, kind, step } = moved!;

    // The same run with motion: the dot travels from the old bar to the new one.
    const { page, problems } = await open();
    if (step > 1) await stepForward(page, step - 1);
    await page.waitForTimeout(800);
    const start = (await dots(page)).find((d) => d.page === folio)!;
    expect(start.seq).toBe(from);
    const [fromLeft, fromRight] = await barSpan(page, from, kind);
    expect(start.x).toBeGreaterThan(fromLeft);
    expect(start.x).toBeLessThan(fromRight);

    const samples = page.evaluate(
      (p) =>
        new Promise<number[]>((resolve) => {
          const xs: number[] = [];
          const began = performance.now();
          const tick = () => {
            const dot = document.querySelector(`[data-testid="folio-dot"][data-page="${p}"] circle.dot`);
            if (dot) {
              const box = dot.getBoundingClientRect();
              xs.push(box.x + box.width / 2);
            }
            if (performance.now() - began < 1000) requestAnimationFrame(tick);
            else resolve(xs);
          };
          requestAnimationFrame(tick);
        }),
      folio,
    );
    await page.getByRole('button', { name: 'Step forward', exact: true }).click();
    const xs = await samples;
    await waitForStep(page, step);
    await page.waitForTimeout(300);
    const end = (await dots(page)).find((d) => d.page === folio)!;
    expect(end.seq).toBe(to);
    expect(end.column).toBe(`seq:${to}`);
    const [toLeft, toRight] = await barSpan(page, to, kind);
    expect(end.x).toBeGreaterThan(toLeft);
    expect(end.x).toBeLessThan(toRight);
    // On the way it passed between the two columns.
    const [lo, hi] = start.x < end.x ? [start.x, end.x] : [end.x, start.x];
    expect(xs.some((x) => x > lo + 2 && x < hi - 2), `x along the way: ${xs.map(Math.round).join(' ')}`).toBe(true);
    await page.locator(`[data-testid="folio-dot"][data-page="${folio}"]`).click();
    await page.getByRole('region', { name: 'Folio history' }).waitFor();
    await page.waitForTimeout(200);
    await page.screenshot({ path: path.join(SHOTS, 'folios-moved.png') });
    expect([...still.problems, ...problems]).toEqual([]);
  });

  it('shows the PID controller tiers of a MGLRU lruvec', async () => {
    const { page, problems } = await open();
    await stepForward(page, 12);
    const tiers = page.getByRole('table', { name: 'Tiers' });
    await tiers.waitFor();
    const rows = await tiers.locator('tbody tr').evaluateAll((trs) =>
      trs.map((tr) => Array.from(tr.querySelectorAll('th, td')).map((c) => c.textContent)),
    );
    expect(rows.map((r) => r[0])).toEqual(['0', '1', '2', '3']);
    for (const r of rows) {
      expect(r).toHaveLength(5);
      expect(r[1]).toMatch(/^[\d,]+ \/ [\d,]+$/);
      expect(r[2]).toMatch(/^(–|\d+(\.\d)?%)$/);
    }
    // By step 12 file folios were evicted from tier 0, so its rate is a number.
    expect(rows[0]![4]).toMatch(/%$/);
    expect(await page.getByText('The PID controller protects tiers that refault more than tier 0').count()).toBe(1);
    expect(problems).toEqual([]);
  });

  it('draws the classic LRU lists with their tracked folios', async () => {
    const { page, problems } = await open('?v=1&scenario=classic-basic&seed=1');
    expect(query(page).get('scenario')).toBe('classic-basic');
    const chart = page.getByRole('group', { name: 'LRU lists of /job on node 0' });
    await chart.waitFor();
    expect(await page.getByRole('table', { name: 'Tiers' }).count(), 'no tiers without MGLRU').toBe(0);
    // By step 45 anon folios were activated too: all four lists hold pages.
    await stepForward(page, 45);
    await page.waitForTimeout(800);
    const lists = await page.locator('rect[data-testid="list-bar"]').evaluateAll((rects) =>
      rects.map((r) => ({
        list: r.getAttribute('data-list'),
        pages: Number(r.getAttribute('data-pages')),
        height: Number(r.getAttribute('height')),
      })),
    );
    expect(lists.map((l) => l.list).sort()).toEqual(['active_anon', 'active_file', 'inactive_anon', 'inactive_file']);
    const counted = await counters(page);
    for (const l of lists) {
      expect(l.pages, l.list!).toBeGreaterThan(0);
      expect(l.height, l.list!).toBeGreaterThan(0);
      expect(l.pages, `${l.list} against nr_${l.list}`).toBe(counted[`nr_${l.list}`]);
    }
    const drawn = (await dots(page)).filter((d) => d.state === 'resident');
    expect(drawn.length).toBeGreaterThan(10);
    for (const d of drawn) {
      expect(['inactive', 'active']).toContain(d.column);
      expect(d.label).toBe(`folio ${d.page}, ${d.column} ${d.kind} list`);
      const box = await page.locator(`rect[data-testid="list-bar"][data-list="${d.column}_${d.kind}"]`).boundingBox();
      expect(d.x).toBeGreaterThan(box!.x);
      expect(d.x).toBeLessThan(box!.x + box!.width);
    }
    expect(new Set(drawn.map((d) => d.column))).toEqual(new Set(['inactive', 'active']));
    const active = drawn.find((d) => d.column === 'active')!;
    await page.locator(`[data-testid="folio-dot"][data-page="${active.page}"]`).click();
    const panel = page.getByRole('region', { name: 'Folio history' });
    await panel.waitFor();
    expect(await panel.getByTestId('folio-state').textContent()).toBe(`resident on the active ${active.kind} list`);
    await panel.getByRole('listitem').first().waitFor();
    await page.waitForTimeout(200);
    await page.screenshot({ path: path.join(SHOTS, 'classic.png') });
    expect(problems).toEqual([]);
  });
});

/** Plays at `speed` steps a tick until the step count reaches `atLeast`, then pauses and waits for the last tick. */
async function playTo(page: Page, speed: '10' | '100', atLeast: number): Promise<number> {
  await page.getByLabel('Speed').selectOption(speed);
  await page.getByRole('button', { name: 'Play', exact: true }).click();
  await page.waitForFunction(
    (n) => Number(document.querySelector('[data-testid="step"]')?.textContent?.replace(/,/g, '')) >= n,
    atLeast,
  );
  await page.getByRole('button', { name: 'Pause', exact: true }).click();
  await page.waitForTimeout(300);
  await page.getByLabel('Speed').selectOption('1');
  return stepCount(page);
}

interface Chip {
  path: string;
  gen: number;
  bin: number;
  x: number;
  y: number;
  moved: boolean;
}

async function chips(page: Page): Promise<Chip[]> {
  return page.locator('[data-testid="memcg-chip"]:not(.leaving)').evaluateAll((gs) =>
    gs.map((g) => {
      const box = g.querySelector('rect.chip-body')!.getBoundingClientRect();
      return {
        path: g.getAttribute('data-path')!,
        gen: Number(g.getAttribute('data-gen')),
        bin: Number(g.getAttribute('data-bin')),
        x: box.x + box.width / 2,
        y: box.y + box.height / 2,
        moved: g.classList.contains('moved'),
      };
    }),
  );
}

async function binBox(page: Page, gen: number, bin: number) {
  const box = await page.locator(`rect[data-testid="memcg-bin"][data-gen="${gen}"][data-bin="${bin}"]`).boundingBox();
  if (!box) throw new Error(`no bin ${gen}/${bin}`);
  return box;
}

function inside(p: { x: number; y: number }, box: { x: number; y: number; width: number; height: number }): boolean {
  return p.x > box.x && p.x < box.x + box.width && p.y > box.y && p.y < box.y + box.height;
}

describe('System and Memcgs views', () => {
  it('shows the zones against their watermarks and kswapd running (global-pressure)', async () => {
    const { page, problems } = await open('?v=1&scenario=global-pressure&seed=1');
    // The tabs are reachable from the keyboard; the arrows move between them without stepping.
    const lruTab = page.getByRole('tab', { name: /^LRU/ });
    expect(await lruTab.getAttribute('aria-selected')).toBe('true');
    await lruTab.focus();
    await page.keyboard.press('ArrowRight');
    const systemTab = page.getByRole('tab', { name: /^System/ });
    expect(await systemTab.getAttribute('aria-selected')).toBe('true');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toMatch(/^System/);
    expect(await stepCount(page)).toBe(0);
    expect(await page.getByRole('tabpanel').getAttribute('aria-labelledby')).toBe(await systemTab.getAttribute('id'));

    // Normal and DMA32 run down to their low watermarks by step ~100; then kswapd wakes.
    const reached = await playTo(page, '10', 100);
    await stepForward(page, 20);
    await page.waitForTimeout(300);

    const zones = page.getByRole('region', { name: 'Zones of node 0' });
    await zones.waitFor();
    const charts = zones.getByRole('img', { name: /^Free pages of zone \w+ on node 0$/ });
    expect(await charts.count()).toBe(3);
    for (const name of ['DMA', 'DMA32', 'Normal']) {
      const chart = zones.getByRole('img', { name: `Free pages of zone ${name} on node 0` });
      const line = chart.locator('[data-testid="zone-free-line"]');
      expect(Number(await line.getAttribute('data-points')), `${name} points`).toBe(reached / 10 + 1 + 20);
      expect(await line.getAttribute('d')).toMatch(/^M-?[\d.]+,-?[\d.]+L/);
      const marks = await chart.locator('[data-testid="watermark"]').evaluateAll((gs) =>
        gs.map((g) => ({
          name: g.getAttribute('data-watermark'),
          pages: Number(g.getAttribute('data-pages')),
          label: g.querySelector('text')?.textContent,
          y: Number(g.querySelector('line')?.getAttribute('y1')),
        })),
      );
      expect(marks.map((m) => m.name), `${name} watermarks`).toEqual(['min', 'low', 'high']);
      for (const m of marks) expect(m.label).toBe(`${m.name} ${m.pages.toLocaleString('en-US')}`);
      expect(marks[0]!.pages).toBeLessThan(marks[1]!.pages);
      expect(marks[1]!.pages).toBeLessThan(marks[2]!.pages);
      // Higher watermark, higher line (SVG y grows downwards).
      expect(marks[0]!.y).toBeGreaterThanOrEqual(marks[1]!.y);
      expect(marks[1]!.y).toBeGreaterThanOrEqual(marks[2]!.y);
    }
    expect(await zones.getByRole('table', { name: 'lowmem_reserve of node 0' }).locator('tbody tr').count()).toBe(3);

    const kswapd = page.getByRole('region', { name: 'kswapd timeline of node 0' });
    const running = kswapd.locator('[data-testid="kswapd-segment"][data-mode="running"]');
    expect(await running.count(), 'running segments').toBeGreaterThan(0);
    const box = await running.last().boundingBox();
    expect(box!.width).toBeGreaterThanOrEqual(1.9);
    expect(Number(await kswapd.getByTestId('kswapd-runs').textContent())).toBeGreaterThan(0);
    expect(await kswapd.getByTestId('kswapd-mode').textContent()).toMatch(/^(asleep|napping|running)$/);
    for (const id of ['kswapd-failures', 'kswapd-sleeps', 'kswapd-premature']) {
      expect(await kswapd.getByTestId(id).textContent(), id).toMatch(/^[\d,]+$/);
    }
    await page.screenshot({ path: path.join(SHOTS, 'system.png') });
    await zones.screenshot({ path: path.join(SHOTS, 'zones.png') });
    expect(problems).toEqual([]);
  });

  it('shows memcgs, their pgsteal CV, the memcg LRU rotating and the memory.reclaim writes (proactive-root)', async () => {
    const search = '?v=1&scenario=proactive-root&seed=1';
    // Without motion first: the first write to memory.reclaim (at 200 ms, step 21) rotates
    // every memcg it reclaims; /memcg4 goes from bin 0 to bin 6 of the old generation.
    const still = await open(search, { reducedMotion: 'reduce' });
    await still.page.getByRole('tab', { name: /^Memcgs/ }).click();
    await stepForward(still.page, 20);
    const lru = still.page.getByRole('region', { name: 'Memcg LRU of node 0' });
    await lru.waitFor();
    const before = (await chips(still.page)).find((c) => c.path === '/memcg4')!;
    expect([before.gen, before.bin]).toEqual([0, 0]);
    await stepForward(still.page, 1);
    await still.page.waitForTimeout(80);
    const after = (await chips(still.page)).find((c) => c.path === '/memcg4')!;
    expect([after.gen, after.bin]).toEqual([0, 6]);
    expect(after.moved).toBe(true);
    expect(inside(after, await binBox(still.page, 0, 6)), 'already in its new bin').toBe(true);

    // With motion: the chip travels from bin 0 to bin 6.
    const { page, problems } = await open(search);
    await page.getByRole('tab', { name: /^Memcgs/ }).click();
    await stepForward(page, 20);
    await page.waitForTimeout(200);
    const start = (await chips(page)).find((c) => c.path === '/memcg4')!;
    expect(inside(start, await binBox(page, 0, 0))).toBe(true);
    const samples = page.evaluate(
      () =>
        new Promise<number[]>((resolve) => {
          const xs: number[] = [];
          const began = performance.now();
          const tick = () => {
            const chip = document.querySelector('[data-testid="memcg-chip"][data-path="/memcg4"] rect.chip-body');
            if (chip) {
              const box = chip.getBoundingClientRect();
              xs.push(box.x + box.width / 2);
            }
            if (performance.now() - began < 1000) requestAnimationFrame(tick);
            else resolve(xs);
          };
          requestAnimationFrame(tick);
        }),
    );
    await page.getByRole('button', { name: 'Step forward', exact: true }).click();
    const xs = await samples;
    await waitForStep(page, 21);
    const end = (await chips(page)).find((c) => c.path === '/memcg4')!;
    expect([end.gen, end.bin]).toEqual([0, 6]);
    expect(inside(end, await binBox(page, 0, 6))).toBe(true);
    expect(xs.some((x) => x > start.x + 5 && x < end.x - 5), `x along the way: ${xs.map(Math.round).join(' ')}`).toBe(true);

    // The event kinds of step 21 can be hidden and shown again.
    const filter = page.getByRole('group', { name: 'Event kinds' });
    const kinds = await filter.locator('input[type="checkbox"]').evaluateAll((inputs) => inputs.map((i) => i.getAttribute('data-kind')));
    expect(kinds).toEqual(expect.arrayContaining(['memcg-lru', 'reclaim', 'eviction']));
    const events = page.getByRole('list', { name: 'Events of the last step' });
    const shownKinds = () => events.locator('li').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-kind')));
    const all = await shownKinds();
    expect(all).toContain('memcg-lru');
    await filter.getByLabel(/^memcg-lru/).uncheck();
    const filtered = await shownKinds();
    expect(filtered).not.toContain('memcg-lru');
    // The rest in the same order (the list shows at most 100 decisions, so more may come up from below).
    const rest = all.filter((k) => k !== 'memcg-lru');
    expect(filtered.slice(0, rest.length)).toEqual(rest);
    await filter.getByLabel(/^memcg-lru/).check();
    expect(await shownKinds()).toEqual(all);

    // By step 30: every memcg's row, pgsteal from the write, the CV, 17 chips, the write's row and rounds.
    await stepForward(page, 9);
    await page.waitForTimeout(600);
    const memcgs = page.getByRole('region', { name: 'Memcgs' });
    const rows = memcgs.getByRole('table', { name: 'Memcg usage and reclaim' }).locator('tbody tr');
    expect(await rows.count()).toBe(17);
    const paths = await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-memcg')!));
    expect(paths[0]).toBe('/');
    const steal = await memcgs.getByTestId('pgsteal-bar').evaluateAll((bars) =>
      bars.map((b) => ({ value: Number(b.getAttribute('data-value')), width: b.getBoundingClientRect().width })),
    );
    const reclaimed = steal.filter((b) => b.value > 0);
    expect(reclaimed.length, 'memcgs with pgsteal').toBeGreaterThan(1);
    for (const b of reclaimed) expect(b.width).toBeGreaterThan(0);
    const cv = Number(await memcgs.getByTestId('pgsteal-cv').textContent());
    expect(cv).toBeGreaterThan(0);
    expect(Number(await memcgs.getByTestId('cv-line').getAttribute('data-points'))).toBe(31);

    const placed = await chips(page);
    expect(placed).toHaveLength(17);
    expect(placed.map((c) => c.path).sort()).toEqual([...paths].sort());
    for (const c of placed) expect(inside(c, await binBox(page, c.gen, c.bin)), c.path).toBe(true);

    const reclaim = page.getByRole('region', { name: 'memory.reclaim' });
    const writes = reclaim.getByTestId('reclaim-row');
    expect(await writes.count()).toBe(1);
    const cells = await writes.first().locator('td').allTextContents();
    expect(cells[0]).toBe('200.000 ms');
    expect(cells[1]).toBe('/');
    expect(cells[2]).toBe('256');
    expect(cells[4]).toMatch(/^(0|[+−][\d,]+) \((0|[+−][\d.]+)%\)$/);
    expect(cells[7]).toMatch(/^(ok|-EAGAIN)$/);
    const rounds = reclaim.getByRole('img', { name: 'Rounds of the memory.reclaim write at 200.000 ms' });
    const bars = rounds.locator('[data-testid="reclaim-round"]');
    expect(await bars.count()).toBe(Number(cells[5]));
    const sum = (await bars.evaluateAll((gs) => gs.map((g) => Number(g.getAttribute('data-reclaimed'))))).reduce((a, b) => a + b, 0);
    expect(sum).toBe(Number(cells[3]!.replace(/,/g, '')));

    await page.evaluate(() => document.querySelector('.main-column')?.scrollTo(0, 0));
    await page.screenshot({ path: path.join(SHOTS, 'memcgs.png') });
    await memcgs.screenshot({ path: path.join(SHOTS, 'memcgs-table.png') });
    await reclaim.screenshot({ path: path.join(SHOTS, 'memory-reclaim.png') });
    await page.getByRole('region', { name: 'Memcg LRU of node 0' }).screenshot({ path: path.join(SHOTS, 'memcg-lru.png') });
    expect([...still.problems, ...problems]).toEqual([]);
  });
});

describe('Experiments', () => {
  // The experiment whose comparison is the fastest (about 0.3 s native).
  const NAME = 'kswapd-classzone';
  /** The table's numbers, variant -> metric -> value, as the page showed them. */
  let shown: Record<string, Record<string, number>> = {};

  it('opens an experiment page, runs its comparison and shows the before/after table', async () => {
    const { page, problems } = await open(`?v=1&scenario=${NAME}&seed=1`, { ready: 'experiment' });
    expect(await page.getByTestId('scenario-title').textContent()).toContain(NAME);
    const patch = (await page.getByTestId('experiment-patch').textContent()) ?? '';
    expect(patch).toContain('classzone_idx');
    expect(patch).toContain('Mel Gorman');
    // The URL names the whole run: the default variant and every parameter.
    expect(query(page).get('variant')).toBe('after');
    expect(query(page).get('bursts')).toBe('10');
    // The picker lists the five experiments beside the scenarios.
    expect(await page.locator('optgroup[label^="Experiments"] option').count()).toBe(5);
    expect(await page.getByRole('tab', { name: 'Comparison' }).getAttribute('aria-selected')).toBe('true');
    expect(await page.getByRole('radiogroup', { name: 'Variant' }).getByRole('radio').count()).toBe(2);

    await page.getByRole('button', { name: 'Run comparison', exact: true }).click();
    await page.getByText('Running…').waitFor();
    const table = page.getByRole('table', { name: 'Comparison' });
    await table.waitFor({ timeout: 30_000 });
    await page.getByText('Running…').waitFor({ state: 'detached' });

    const headers = (await table.locator('thead th').allTextContents()).map((t) => t.trim());
    expect(headers).toEqual(['metric', 'before', 'after', 'change', 'as the patch says', 'author before', 'author after']);
    const sleeps = table.locator('tr[data-metric="kswapd_premature_sleeps"]');
    expect(await sleeps.locator('th').textContent()).toContain('headline');
    for (const variant of ['before', 'after']) {
      const cell = sleeps.locator(`td[data-variant="${variant}"]`);
      expect((await cell.textContent())?.trim()).toMatch(/^[\d,]+$/);
      expect(await cell.getAttribute('data-value')).not.toBe('');
    }
    expect(await sleeps.locator('td.change').textContent()).toMatch(/%|from 0/);
    expect(await sleeps.locator('[data-verdict]').textContent()).toMatch(/^[✓✗] (not )?lower/);
    const direct = (await table.locator('tr[data-metric="pgscan_direct"] td.author').allTextContents()).map((t) => t.trim());
    expect(direct).toEqual(['6,579,706', '6,256,811']);
    // A metric that is not a headline has no verdict and no author figures.
    expect(await table.locator('tr[data-metric="allocstall"] [data-verdict]').count()).toBe(0);
    expect(await page.locator('code.command').textContent()).toBe(`npm run sim -- compare ${NAME} --seed 1`);

    shown = Object.fromEntries(
      await Promise.all(
        ['before', 'after'].map(async (variant) => {
          const cells = await table.locator(`tbody td[data-variant="${variant}"]`).evaluateAll((tds) =>
            tds.map((td) => [td.closest('tr')!.getAttribute('data-metric'), Number(td.getAttribute('data-value'))]),
          );
          return [variant, Object.fromEntries(cells)];
        }),
      ),
    );
    await page.screenshot({ path: path.join(SHOTS, 'experiment.png') });
    expect(problems).toEqual([]);
  });

  it('shows the numbers `reclaim-sim compare --json` prints', () => {
    if (!existsSync(SIM)) throw new Error(`${SIM} is missing: \`npm test\` builds it before the browser tests`);
    expect(Object.keys(shown)).toEqual(['before', 'after']);
    const native = JSON.parse(execFileSync(SIM, ['compare', NAME, '--seed', '1', '--json'], { encoding: 'utf8' })) as {
      variants: Record<string, { metrics: Record<string, number> }>;
    };
    for (const variant of ['before', 'after']) expect(shown[variant]).toEqual(native.variants[variant]!.metrics);
  });

  it('steps the variant chosen, and flips between before and after', async () => {
    const { page, problems } = await open(`?v=1&scenario=${NAME}&seed=1&bursts=4`, { ready: 'experiment' });
    await page.getByRole('radio', { name: 'before' }).click({ force: true });
    await page.waitForFunction(() => new URL(location.href).searchParams.get('variant') === 'before');
    // The parameters stay; the form keeps them too.
    expect(query(page).get('bursts')).toBe('4');
    await page.getByRole('tab', { name: /^System/ }).click();
    const start = await counters(page);
    // The first burst starts at 200 ms (step 20); by step 130 kswapd has woken, balanced and slept.
    await playTo(page, '100', 130);
    const later = await counters(page);
    const changed = Object.keys(start).filter((name) => start[name] !== later[name]);
    expect(changed.length, 'counters that changed').toBeGreaterThan(0);
    // Before the patch, kswapd checks ZONE_DMA and goes to sleep while ZONE_NORMAL is still low.
    expect(Number(await page.getByTestId('kswapd-premature').textContent())).toBeGreaterThan(0);
    expect(await page.getByRole('radio', { name: 'before' }).isChecked()).toBe(true);
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(SHOTS, 'experiment-before.png') });

    // Flip the patch on: the after variant starts over, on the same tab.
    await page.getByRole('radio', { name: 'after' }).click({ force: true });
    await page.waitForFunction(() => new URL(location.href).searchParams.get('variant') === 'after');
    await waitForStep(page, 0);
    expect(await page.getByRole('tab', { name: /^System/ }).getAttribute('aria-selected')).toBe('true');
    await stepForward(page, 2);
    expect(problems).toEqual([]);
  });

  it('opens an experiment chosen in the picker', async () => {
    const { page, problems } = await open();
    await page.getByRole('combobox', { name: 'Scenario' }).selectOption('refault-distance-mglru');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('scenario') === 'refault-distance-mglru');
    await page.getByRole('button', { name: 'Run comparison', exact: true }).waitFor();
    expect(query(page).get('variant')).toBe('after');
    expect(await page.getByTestId('experiment-patch').textContent()).toContain('Refault distance');
    expect(await page.getByRole('tab', { name: 'Comparison' }).getAttribute('aria-selected')).toBe('true');
    expect(problems).toEqual([]);
  });

  it('reports a variant the experiment does not have and falls back to the default scenario', async () => {
    const { page, problems } = await open(`?v=1&scenario=${NAME}&seed=1&variant=bogus`);
    const alert = page.getByRole('alert');
    await alert.waitFor();
    const text = (await alert.textContent()) ?? '';
    expect(text).toContain('unknown variant "bogus"');
    expect(text).toMatch(/default scenario/);
    expect(query(page).get('scenario')).not.toBe(NAME);
    expect(query(page).get('variant')).toBeNull();
    const before = await counters(page);
    await stepForward(page, 2);
    expect(await counters(page)).not.toEqual(before);
    expect(problems).toEqual([]);
  });
});
