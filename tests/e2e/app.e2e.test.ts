// Browser tests of the app: loading, stepping, the URL, bad input, the
// picker, the generations chart and its tracked folios. The built site
// (dist/) in headless Chromium; run by `node scripts/rl.mjs test` after
// `vite build`, or alone with
//   npx vite build && npx vitest run --config tests/e2e/vitest.e2e.config.ts tests/e2e/app.e2e.test.ts
// (views.e2e.test.ts has the System and Memcgs views, experiments.e2e.test.ts the experiment pages.)
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SHOTS, counters, missingFiles, open, query, stepCount, stepForward, useBrowser, waitForStep } from './harness';

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

  it('keeps the address bar on the step and view shown, so a reload opens them', async () => {
    const { page, problems } = await open();
    const run = query(page).toString();
    await stepForward(page, 4);
    await page.getByRole('tab', { name: /^System/ }).click();
    await page.waitForFunction(() => {
      const q = new URL(location.href).searchParams;
      return q.get('step') === '4' && q.get('tab') === 'system';
    });
    const at4 = await counters(page);
    await page.reload();
    await waitForStep(page, 4);
    await page.waitForFunction(() => document.querySelector('[role="tab"][aria-selected="true"]')?.textContent?.startsWith('System'));
    expect(await counters(page)).toEqual(at4);
    // Back on the first view at step 0, the address is the run alone.
    await page.getByRole('tab', { name: /^LRU/ }).click();
    await page.getByRole('button', { name: 'Reset', exact: true }).click();
    await waitForStep(page, 0);
    await page.waitForFunction((expected) => new URL(location.href).searchParams.toString() === expected, run);
    expect(problems).toEqual([]);
  });

  it('reports a malformed seed in the URL and keeps working', async () => {
    const { page, problems } = await open('?v=1&seed=abc');
    const alert = page.getByRole('alert');
    await alert.waitFor();
    const text = await alert.locator('li > span').textContent();
    // In the form of the other link notices: what was left out, then why.
    expect(text).toMatch(/^Part of this link was not used as written — seed: "abc" is not a seed \(.*\); using 1\.$/);
    expect(await alert.locator('strong').textContent()).toBe('Part of this link was not used as written');
    expect(query(page).get('seed')).toBe('1');
    const before = await counters(page);
    await stepForward(page, 3);
    expect(await counters(page)).not.toEqual(before);
    await page.screenshot({ path: path.join(SHOTS, 'app-bad-url.png') });
    expect(problems).toEqual([]);
  });

  it('puts an out-of-range parameter in a link back to its default, keeping the rest of the run', async () => {
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
    expect(text).toContain(`${name}: ${bad} is not`);
    expect(text).toContain(`using the default`);
    // The same scenario and seed, that parameter at its default.
    expect(query(page).get('scenario')).toBe(scenario);
    expect(Number(query(page).get(name))).toBe(defaultValue);
    expect(query(page).get('seed')).toBe('9');
    const before = await counters(page);
    await stepForward(page, 2);
    expect(await counters(page)).not.toEqual(before);

    // An experiment's link keeps its experiment, with a bad value and a bad variant.
    const link = await open('?v=1&scenario=kswapd-classzone&seed=2&normal_pages=99999999&bursts=4&variant=zzz', { ready: 'experiment' });
    const messages = (await link.page.getByRole('alert').textContent()) ?? '';
    expect(messages).toContain('normal_pages: 99999999 is not a whole number from 4,096 to 262,144; using the default, 32,768');
    expect(messages).toContain('variant: "zzz" is not a variant of kswapd-classzone (before, after, merged-v4.12); using after');
    expect([...query(link.page).entries()].filter(([k]) => ['scenario', 'seed', 'bursts', 'normal_pages', 'variant'].includes(k))).toEqual([
      ['scenario', 'kswapd-classzone'],
      ['seed', '2'],
      ['variant', 'after'],
      ['bursts', '4'],
      ['normal_pages', '32768'],
    ]);
    problems.push(...link.problems);

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
        if (variant) {
          // The LRU tab opens on an lruvec with pages of its own (a parent memcg's lists can be empty).
          const described = await run.getByTestId('generations-chart').evaluateAll((charts) =>
            charts.map((c) => document.getElementById(c.getAttribute('aria-describedby') ?? '')?.textContent ?? ''),
          );
          // MGLRU: "… 1200 anon and 300 file pages; …"; classic: "inactive_anon 10, active_anon 20, …".
          const pages = described.map((d) => [...d.matchAll(/(\d+) (?:anon|file)\b|_(?:anon|file) (\d+)/g)].reduce((n, m) => n + Number(m[1] ?? m[2]), 0));
          expect(pages.length, `${search}: no LRU chart`).toBeGreaterThan(0);
          expect(Math.max(...pages), `${search}: the LRU tab shows empty lists (${described.join(' | ')})`).toBeGreaterThan(0);
        }
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
    // Next to the buttons, what stopped them, with the range written as the hint writes it.
    const min = Number(await input.getAttribute('min'));
    const range = `from ${min.toLocaleString('en-US')} to ${max.toLocaleString('en-US')}`;
    expect(await page.locator('.form-problems').textContent()).toBe(`Not run: ${name}: ${range}`);
    expect(await page.locator(`[id="${await input.getAttribute('aria-describedby')}"] .problem`).textContent()).toBe(range);
    expect(await stepCount(page)).toBe(1);
    expect(Number(query(page).get(name))).not.toBe(max + 1);
    expect(problems).toEqual([]);
  });

  it('offers an option parameter as a list of what each value means, and applies the one picked', async () => {
    const { page, problems } = await open();
    const pattern = page.locator('select[data-param="reader_pattern"]');
    expect(await pattern.locator('option').allTextContents()).toEqual(['0 · zipf (zipf_s)', '1 · uniform', '2 · one sequential scan', '3 · loop over the file']);
    expect(await page.locator('input[data-param="reader_pattern"]').count()).toBe(0);
    await pattern.selectOption('2');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.waitForFunction(() => new URL(location.href).searchParams.get('reader_pattern') === '2');
    await waitForStep(page, 0);
    expect(await pattern.inputValue()).toBe('2');
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
      // The chart draws in an effect after the step's render: two animation frames later it has.
      await still.page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
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
    expect(await page.getByText('sort_folio protects the tiers above tier_idx').count()).toBe(1);
    // The bold tiers are the engine's: those above the tier_idx of the type's last scan, never tier 0.
    const marked = await tiers.locator('td[data-protected]').evaluateAll((tds) => tds.map((td) => td.closest('tr')!.getAttribute('data-tier')));
    expect(marked).not.toContain('0');
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
