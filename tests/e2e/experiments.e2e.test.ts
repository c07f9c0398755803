// Browser tests of the experiment pages: the before/after table, the same
// numbers as the native `reclaim-sim compare --json` (its release build,
// which `npm test` builds first; alone, run `npm run sim -- list` once),
// flipping variants, and a variant an experiment does not have.
// Alone: npx vite build && npx vitest run --config tests/e2e/vitest.e2e.config.ts tests/e2e/experiments.e2e.test.ts
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, SHOTS, counters, newContext, open, openIn, playTo, query, stepCount, stepForward, useBrowser, waitForStep } from './harness';

const SIM = path.join(ROOT, 'wasm-core', 'target', 'release', 'reclaim-sim');

useBrowser();

describe('Experiments', () => {
  it('fits each experiment\'s before/after table, author columns included, on a 1280-pixel screen', { timeout: 120_000 }, async () => {
    const names = ['memcg-lru-fairness', 'multi-memcg-kswapd', 'kswapd-classzone', 'proactive-reclaim-batching', 'refault-distance-mglru'];
    const problems: string[] = [];
    for (const name of names) {
      const opened = await open(`?v=1&scenario=${name}&seed=1`, { ready: 'experiment' });
      const { page } = opened;
      await page.getByRole('button', { name: 'Run comparison', exact: true }).click();
      const table = page.getByRole('table', { name: 'Comparison' });
      await table.waitFor({ timeout: 60_000 });
      await page.getByText('Running…').waitFor({ state: 'detached', timeout: 60_000 });
      const fit = await table.evaluate((t) => {
        const box = t.closest('.table-scroll')!;
        return { table: t.scrollWidth, box: box.clientWidth, authorShown: t.querySelector('td.author')!.getBoundingClientRect().right <= box.getBoundingClientRect().right };
      });
      expect(fit.table, `${name}: table ${fit.table} px in a ${fit.box} px box`).toBeLessThanOrEqual(fit.box);
      expect(fit.authorShown, name).toBe(true);
      if (name === 'proactive-reclaim-batching') await page.screenshot({ path: path.join(SHOTS, 'experiment-three-variants.png') });
      // Three variants and a rate: the rate's unit goes under its number rather than the table past its box.
      if (name === 'kswapd-classzone') await table.screenshot({ path: path.join(SHOTS, 'experiment-rate-units.png') });
      if (name === 'memcg-lru-fairness') {
        // A projector's 1,024 px: the table scrolls sideways; the hint names the columns still to the right,
        // and the metric's name stays in view at the table's far end.
        await page.setViewportSize({ width: 1024, height: 768 });
        const hint = page.getByTestId('comparison-more');
        await expect.poll(() => hint.textContent()).toMatch(/^More columns to the right \(.*author before, author after\): scroll the table sideways →$/);
        const hidden = await table.evaluate((t) => {
          const box = t.closest('.table-scroll')!.getBoundingClientRect();
          return [...t.querySelectorAll('thead th')].filter((th) => th.getBoundingClientRect().right > box.right + 1).map((th) => th.textContent!.replace(/\s+/g, ' ').trim());
        });
        expect(hidden.length).toBeGreaterThan(0);
        expect(await hint.textContent()).toBe(`More columns to the right (${hidden.join(', ')}): scroll the table sideways →`);
        await table.evaluate((t) => {
          const box = t.closest('.table-scroll')!;
          box.scrollLeft = box.scrollWidth;
        });
        await expect.poll(() => hint.count()).toBe(0);
        const nameInView = await table.evaluate((t) => {
          const box = t.closest('.table-scroll')!.getBoundingClientRect();
          const th = t.querySelector('tbody th[scope="row"]')!.getBoundingClientRect();
          return th.left >= box.left - 1 && th.right <= box.right;
        });
        expect(nameInView).toBe(true);
        await page.screenshot({ path: path.join(SHOTS, 'experiment-table-1024.png') });
        await page.setViewportSize({ width: 1280, height: 800 });
      }
      // The title takes one line, whole at 1280 px; the id is never broken inside (it shows beside the title where it fits).
      const heading = await page.getByTestId('scenario-title').evaluate((el) => {
        const title = el.querySelector('.scenario-title-text')!;
        const id = el.querySelector('.scenario-name')!;
        return { height: el.getBoundingClientRect().height, whole: title.scrollWidth <= title.clientWidth, idBoxes: id.getClientRects().length };
      });
      expect(heading.height, `${name}: title line height`).toBeLessThan(30);
      expect(heading.whole, `${name}: title cut`).toBe(true);
      expect(heading.idBoxes, name).toBe(1);
      problems.push(...opened.problems);
      await page.context().close();
    }
    expect(problems).toEqual([]);
  });

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
    // One line, cut, until More opens it with the description; Less cuts it again.
    const patchLine = page.getByTestId('experiment-patch');
    const cut = () => patchLine.evaluate((el) => el.scrollWidth > el.clientWidth + 1);
    const more = page.locator('.scenario-about').getByRole('button', { name: 'More' });
    expect(await more.getAttribute('aria-controls')).toBe('scenario-patch scenario-description');
    const viewport = page.viewportSize();
    await page.setViewportSize({ width: 1280, height: 720 });
    expect(await cut()).toBe(true);
    await more.click();
    expect(await cut()).toBe(false);
    await page.locator('.scenario-about').getByRole('button', { name: 'Less' }).click();
    expect(await cut()).toBe(true);
    // Where the header is narrow the title is cut as well, and More opens it too.
    await page.setViewportSize({ width: 900, height: 720 });
    const title = page.locator('.scenario-title-text');
    const titleCut = () => title.evaluate((el) => el.scrollWidth > el.clientWidth + 1);
    expect(await titleCut()).toBe(true);
    await more.click();
    expect(await titleCut()).toBe(false);
    await page.locator('.scenario-about').getByRole('button', { name: 'Less' }).click();
    if (viewport) await page.setViewportSize(viewport);
    // The URL names the whole run: the default variant and every parameter.
    expect(query(page).get('variant')).toBe('after');
    expect(query(page).get('bursts')).toBe('10');
    // The picker lists the five experiments beside the scenarios.
    expect(await page.locator('optgroup[label^="Experiments"] option').count()).toBe(5);
    expect(await page.getByRole('tab', { name: 'Comparison' }).getAttribute('aria-selected')).toBe('true');
    // before, after (the patch with its v5.3 fix) and merged-v4.12 (the patch as merged).
    expect(await page.getByRole('radiogroup', { name: 'Variant' }).getByRole('radio').count()).toBe(3);

    await page.getByRole('button', { name: 'Run comparison', exact: true }).click();
    await page.getByText('Running…').waitFor();
    const table = page.getByRole('table', { name: 'Comparison' });
    await table.waitFor({ timeout: 30_000 });
    await page.getByText('Running…').waitFor({ state: 'detached' });

    const headers = (await table.locator('thead th').allTextContents()).map((t) => t.trim());
    // At the default parameters the count over seeds 1-5 that `npm run experiments` recorded comes with it.
    expect(headers).toEqual(['metric', 'before', 'after', 'merged-v4.12', 'change', 'as the patch says', 'seeds 1–5 (recorded)', 'author before', 'author after']);
    if (!existsSync(SIM)) throw new Error(`${SIM} is missing: \`npm test\` builds it before the browser tests`);
    const headlineMetrics = ['kswapd_premature_sleeps', 'pgscan_direct', 'alloc_latency_p95', 'alloc_latency_p99'];
    const counts = Object.fromEntries(headlineMetrics.map((m) => [m, { held: 0, tied: 0 }]));
    for (const seed of [1, 2, 3, 4, 5]) {
      const native = JSON.parse(execFileSync(SIM, ['compare', NAME, '--seed', String(seed), '--json'], { encoding: 'utf8' })) as {
        variants: Record<string, { metrics: Record<string, number> }>;
      };
      for (const m of headlineMetrics) {
        const [before, after] = [native.variants.before!.metrics[m]!, native.variants.after!.metrics[m]!];
        if (after < before) counts[m]!.held++;
        else if (after === before) counts[m]!.tied++;
      }
    }
    for (const m of headlineMetrics) {
      const { held, tied } = counts[m]!;
      expect(await table.locator(`tr[data-metric="${m}"] td.tally`).textContent(), m).toBe(held < 5 && tied > 0 ? `${held}/5 (${tied} tied)` : `${held}/5`);
    }
    expect(await page.getByText(/as npm run experiments recorded it with the native engine/).count()).toBe(1);
    const sleeps = table.locator('tr[data-metric="kswapd_premature_sleeps"]');
    expect(await sleeps.locator('th').textContent()).toContain('headline');
    for (const variant of ['before', 'after']) {
      const cell = sleeps.locator(`td[data-variant="${variant}"]`);
      expect((await cell.textContent())?.trim()).toMatch(/^[\d,]+$/);
      expect(await cell.getAttribute('data-value')).not.toBe('');
    }
    expect(await sleeps.locator('td.change').textContent()).toMatch(/%|from 0/);
    expect(await sleeps.locator('[data-verdict]').textContent()).toMatch(/^(✓ lower|✗ not lower|✗ no change)$/);
    // Each headline's verdict agrees with the values shown: a tie says so.
    for (const metric of ['kswapd_premature_sleeps', 'pgscan_direct', 'alloc_latency_p95', 'alloc_latency_p99']) {
      const tr = table.locator(`tr[data-metric="${metric}"]`);
      const value = async (variant: string) => Number(await tr.locator(`td[data-variant="${variant}"]`).getAttribute('data-value'));
      const before = await value('before');
      const after = await value('after');
      const expected = after < before ? '✓ lower' : after === before ? '✗ no change' : '✗ not lower';
      expect(await tr.locator('[data-verdict]').textContent(), metric).toBe(expected);
      // A headline that did not hold offers the way to why; one that held does not.
      expect(await tr.getByRole('button', { name: 'why?' }).count(), metric).toBe(expected.startsWith('✗') ? 1 : 0);
    }
    const direct = (await table.locator('tr[data-metric="pgscan_direct"] td.author').allTextContents()).map((t) => t.trim());
    expect(direct).toEqual(['6,579,706', '6,256,811']);
    // A metric that is not a headline has no verdict and no author figures.
    expect(await table.locator('tr[data-metric="allocstall"] [data-verdict]').count()).toBe(0);
    expect(await page.locator('.comparison code.command').textContent()).toBe(`npm run sim -- compare ${NAME} --seed 1`);
    // Why the headlines that do not hold do not, in paragraphs (the limits' blank lines).
    const limits = page.getByRole('region', { name: 'Where it does not hold' });
    await table.locator('tr[data-metric="alloc_latency_p95"]').getByRole('button', { name: 'why?' }).click();
    // It leads to the paragraph that names the metric, focused and marked.
    await expect
      .poll(() => limits.evaluate((el) => (el.contains(document.activeElement) && document.activeElement?.tagName === 'P' ? document.activeElement.textContent : null)))
      .toContain('alloc_latency_p95');
    expect(await limits.locator('p.why-target').count()).toBe(1);
    expect(await limits.locator('p').count()).toBe(5);
    expect(await limits.locator('p').first().textContent()).toMatch(/^Only the premature sleeps \(kswapd_premature_sleeps\) reproduce/);
    await limits.screenshot({ path: path.join(SHOTS, 'experiment-limits.png') });
    // Below it, the range check names its own command.
    const ranges = page.getByRole('region', { name: 'Across the parameter ranges' });
    expect(await ranges.locator('code.command').textContent()).toBe(`npm run sim -- sweep ${NAME}`);

    shown = Object.fromEntries(
      await Promise.all(
        ['before', 'after', 'merged-v4.12'].map(async (variant) => {
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
    expect(Object.keys(shown)).toEqual(['before', 'after', 'merged-v4.12']);
    const native = JSON.parse(execFileSync(SIM, ['compare', NAME, '--seed', '1', '--json'], { encoding: 'utf8' })) as {
      variants: Record<string, { metrics: Record<string, number> }>;
    };
    for (const variant of ['before', 'after', 'merged-v4.12']) expect(shown[variant]).toEqual(native.variants[variant]!.metrics);
  });

  it('counts, over seeds 1-5, where each headline held, as the native compare does', async () => {
    if (!existsSync(SIM)) throw new Error(`${SIM} is missing: \`npm test\` builds it before the browser tests`);
    // Three bursts keep the five comparisons short.
    const { page, problems } = await open(`?v=1&scenario=${NAME}&seed=2&bursts=3`, { ready: 'experiment', clipboard: true });
    await page.getByRole('button', { name: 'Run comparison', exact: true }).click();
    const table = page.getByRole('table', { name: 'Comparison' });
    await table.waitFor({ timeout: 30_000 });
    await page.getByText('Running…').waitFor({ state: 'detached' });
    await page.getByRole('button', { name: 'Check seeds 1–5' }).click();
    const column = table.locator('thead th', { hasText: 'seeds 1–5' });
    await column.waitFor({ timeout: 60_000 });

    // The oracle: the native compare on each seed, counted here.
    const headlines = ['kswapd_premature_sleeps', 'pgscan_direct', 'alloc_latency_p95', 'alloc_latency_p99'];
    const expected = Object.fromEntries(headlines.map((m) => [m, { held: 0, tied: 0 }]));
    for (const seed of [1, 2, 3, 4, 5]) {
      const native = JSON.parse(execFileSync(SIM, ['compare', NAME, '--param', 'bursts=3', '--seed', String(seed), '--json'], { encoding: 'utf8' })) as {
        variants: Record<string, { metrics: Record<string, number> }>;
      };
      for (const m of headlines) {
        const before = native.variants.before!.metrics[m]!;
        const after = native.variants.after!.metrics[m]!;
        // Every headline of this experiment says "lower".
        if (after < before) expected[m]!.held++;
        else if (after === before) expected[m]!.tied++;
      }
    }
    for (const m of headlines) {
      const { held, tied } = expected[m]!;
      const text = held < 5 && tied > 0 ? `${held}/5 (${tied} tied)` : `${held}/5`;
      expect(await table.locator(`tr[data-metric="${m}"] td.tally`).textContent(), m).toBe(text);
    }
    // A metric that is not a headline has an empty cell.
    expect(await table.locator('tr[data-metric="allocstall"] td.tally').textContent()).toBe('');
    await page.screenshot({ path: path.join(SHOTS, 'experiment-seeds.png') });

    // Copy link carries the check: the link opens the table and its seeds column again.
    await page.getByRole('button', { name: 'Copy link', exact: true }).click();
    await page.getByRole('status').getByText('Link copied').waitFor();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    expect(link).toMatch(/\?v=2&s=[A-Za-z0-9_-]+$/);
    const second = await open(new URL(link).search, { ready: 'experiment' });
    const table2 = second.page.getByRole('table', { name: 'Comparison' });
    await table2.locator('thead th', { hasText: 'seeds 1–5' }).waitFor({ timeout: 60_000 });
    for (const m of headlines) {
      expect(await table2.locator(`tr[data-metric="${m}"] td.tally`).textContent(), m).toBe(await table.locator(`tr[data-metric="${m}"] td.tally`).textContent());
    }
    expect(second.problems).toEqual([]);

    // Other parameters: the column goes until it is checked again.
    await page.getByLabel('bursts').fill('4');
    await page.getByRole('button', { name: 'Apply' }).click();
    await page.getByRole('button', { name: 'Run comparison', exact: true }).click();
    await column.waitFor({ state: 'detached', timeout: 30_000 });
    expect(problems).toEqual([]);
  });

  it('checks the headlines across the parameter ranges, as `reclaim-sim sweep --json` does', async () => {
    // The experiment with the quickest sweep (about 9 s native on one thread).
    const SWEPT = 'proactive-reclaim-batching';
    if (!existsSync(SIM)) throw new Error(`${SIM} is missing: \`npm test\` builds it before the browser tests`);
    const { page, problems } = await open(`?v=1&scenario=${SWEPT}&seed=1&tab=comparison`, { ready: 'experiment', clipboard: true });
    const card = page.getByRole('region', { name: 'Across the parameter ranges' });
    const table = card.getByRole('table', { name: 'Across the parameter ranges' });
    const cellsOf = (t: typeof table) => t.locator('td.tally').evaluateAll((tds) => tds.map((td) => td.textContent));

    // The oracle: the native sweep over the same points and seeds.
    const native = JSON.parse(execFileSync(SIM, ['sweep', SWEPT, '--json', '--threads', '2'], { encoding: 'utf8' })) as {
      experiment: string;
      seeds: number[];
      headlines: string[];
      rows: { point: string; held: number[]; tied: number[] }[];
    };
    expect(native.seeds).toEqual([1, 2, 3, 4, 5]);
    const cells = native.rows.length * native.headlines.length;
    const held = native.rows.reduce((n, r) => n + r.held.filter((h) => h === 5).length, 0);

    // Before any check, the page shows the table `npm run experiments` recorded, marked as recorded.
    await card.locator('table[data-source="recorded"]').waitFor();
    expect(await card.locator('.badge').textContent()).toBe(`${held} of ${cells} cells held on seeds 1–5 (recorded)`);
    expect(await card.getByText(/^Recorded by npm run experiments/).count()).toBe(1);
    const recorded = await cellsOf(table);
    await card.screenshot({ path: path.join(SHOTS, 'experiment-ranges-recorded.png') });
    // Export JSON carries the recorded table, marked recorded.
    // As `sweep --json` prints it, less each row's count of work (the command line's own).
    const nativeRanges = { ...native, rows: native.rows.map((r) => ({ point: r.point, held: r.held, tied: r.tied })) };
    const [early] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSON', exact: true }).click()]);
    const earlyJson = JSON.parse(readFileSync((await early.path())!, 'utf8')) as { ranges: unknown };
    expect(earlyJson.ranges).toEqual({ ...nativeRanges, recorded: true });
    // So does the card's CSV: the native counts, each row marked recorded.
    const [earlyCsv] = await Promise.all([page.waitForEvent('download'), card.getByRole('button', { name: 'Save table as CSV' }).click()]);
    expect(readFileSync((await earlyCsv.path())!, 'utf8').trim().split('\n')).toEqual([
      'point,headline,held,tied,seeds,source',
      ...native.rows.flatMap((r) => native.headlines.map((m, i) => `${r.point},${m},${r.held[i]},${r.tied[i]},5,recorded`)),
    ]);

    // The check in the browser: the table fills in, then the badge comes with the finished table.
    await card.getByRole('button', { name: 'Check the ranges' }).click();
    await card.getByText(/runs done/).waitFor();
    await card.locator('table[data-source="checked"]').waitFor({ timeout: 240_000 });
    await card.locator('.badge').waitFor();
    expect(await cellsOf(table)).toEqual(recorded);
    const points = await table.locator('tbody tr').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-point')));
    expect(points).toEqual(native.rows.map((r) => r.point));
    for (const row of native.rows) {
      for (const [i, metric] of native.headlines.entries()) {
        const held = row.held[i]!;
        const tied = row.tied[i]!;
        const text = held < 5 && tied > 0 ? `${held}/5 (${tied} tied)` : `${held}/5`;
        const cell = table.locator(`tr[data-point="${row.point}"] td[data-metric="${metric}"]`);
        expect(await cell.textContent(), `${row.point} ${metric}`).toBe(text);
        expect(await cell.getAttribute('class'), `${row.point} ${metric}`).toContain(held === 5 ? 'held' : 'not-held');
      }
    }
    expect(await card.locator('.badge').textContent()).toBe(`${held} of ${cells} cells held on seeds 1–5`);
    await card.screenshot({ path: path.join(SHOTS, 'experiment-ranges.png') });

    // Export JSON carries the same counts.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export JSON', exact: true }).click()]);
    const exported = JSON.parse(readFileSync((await download.path())!, 'utf8')) as { ranges: unknown };
    expect(exported.ranges).toEqual(nativeRanges);

    // The card's CSV: a row per point and headline, the same counts.
    const [csv] = await Promise.all([page.waitForEvent('download'), card.getByRole('button', { name: 'Save table as CSV' }).click()]);
    expect(csv.suggestedFilename()).toBe(`${SWEPT}-ranges.csv`);
    expect(readFileSync((await csv.path())!, 'utf8').trim().split('\n')).toEqual([
      'point,headline,held,tied,seeds,source',
      ...native.rows.flatMap((r) => native.headlines.map((m, i) => `${r.point},${m},${r.held[i]},${r.tied[i]},5,checked`)),
    ]);

    // Copy link carries the check: the link opens the page and checks the ranges again.
    await page.getByRole('button', { name: 'Copy link', exact: true }).click();
    await page.getByRole('status').getByText('Link copied').waitFor();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    const second = await open(new URL(link).search, { ready: 'experiment' });
    const table2 = second.page.getByRole('table', { name: 'Across the parameter ranges' });
    await second.page.locator('table[data-source="checked"]').waitFor({ timeout: 240_000 });
    expect(await cellsOf(table2)).toEqual(await cellsOf(table));
    expect(second.problems).toEqual([]);

    // A point runs the comparison there: its parameter in the form and the URL, the others at their defaults,
    // and the table the native compare prints at that point. The range table stays.
    await table.getByRole('button', { name: 'anon_percent=0', exact: true }).click();
    await page.waitForFunction(() => new URL(location.href).searchParams.get('anon_percent') === '0');
    expect(await page.getByLabel('anon_percent', { exact: true }).inputValue()).toBe('0');
    expect(await page.getByLabel('children', { exact: true }).inputValue()).toBe('64');
    await page.getByText('Running…').waitFor({ state: 'detached', timeout: 60_000 });
    const atPoint = JSON.parse(execFileSync(SIM, ['compare', SWEPT, '--param', 'anon_percent=0', '--seed', '1', '--json'], { encoding: 'utf8' })) as {
      variants: Record<string, { metrics: Record<string, number> }>;
    };
    const comparisonTable = page.getByRole('table', { name: 'Comparison' });
    for (const variant of ['before', 'after', 'whole']) {
      const shown = await comparisonTable.locator(`tr[data-metric="overreclaim_pages"] td[data-variant="${variant}"]`).getAttribute('data-value');
      expect(Number(shown), variant).toBe(atPoint.variants[variant]!.metrics.overreclaim_pages);
    }
    expect(await cellsOf(table)).toEqual(await cellsOf(table2));
    await page.screenshot({ path: path.join(SHOTS, 'experiment-range-point.png') });
    expect(problems).toEqual([]);
  }, 420_000);

  it('stops a range check on Stop, or when the page leaves its experiment, not when the variant flips', async () => {
    const { page, problems } = await open(`?v=1&scenario=${NAME}&seed=1&tab=comparison`, { ready: 'experiment' });
    const card = page.getByRole('region', { name: 'Across the parameter ranges' });
    const check = card.getByRole('button', { name: 'Check the ranges' });
    const idle = card.getByText(/Each parameter at the low and the high end/);
    const recorded = card.locator('table[data-source="recorded"]');
    await recorded.waitFor();
    await check.click();
    await card.getByText(/runs done/).waitFor();
    expect(await check.isDisabled()).toBe(true);
    // The table fills in as points finish: every point has a row from the first run back, the unfinished ones pending.
    const table = card.getByRole('table', { name: 'Across the parameter ranges' });
    await table.locator('tr.pending').first().waitFor();
    const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [tr.getAttribute('data-point'), tr.classList.contains('pending')]));
    expect(rows[0]?.[0]).toBe('defaults');
    expect(rows.length).toBeGreaterThan(10);
    expect(rows.filter(([, pending]) => pending).length).toBeGreaterThan(0);
    expect(await table.getAttribute('aria-busy')).toBe('true');
    expect(await card.locator('.badge').count()).toBe(0);
    await card.screenshot({ path: path.join(SHOTS, 'experiment-ranges-running.png') });
    // Another variant of the same experiment: the check goes on.
    await page.getByRole('radiogroup', { name: 'Variant' }).getByRole('radio', { name: 'before' }).check();
    await page.waitForFunction(() => new URL(location.href).searchParams.get('variant') === 'before');
    expect(await card.getByText(/runs done/).count()).toBe(1);
    await card.getByRole('button', { name: 'Stop', exact: true }).click();
    await idle.waitFor();
    expect(await check.isEnabled()).toBe(true);
    // What was stopped leaves no table of its own: the recorded one is back.
    await recorded.waitFor();
    expect(await card.getByRole('table').count()).toBe(1);

    // Another experiment: the check stops; back on this one, nothing is running and no table is shown.
    await check.click();
    await card.getByText(/runs done/).waitFor();
    await page.getByRole('combobox', { name: 'Scenario' }).selectOption('proactive-reclaim-batching');
    await page.waitForFunction(() => new URL(location.href).searchParams.get('scenario') === 'proactive-reclaim-batching');
    await page.getByRole('combobox', { name: 'Scenario' }).selectOption(NAME);
    await page.waitForFunction((name) => new URL(location.href).searchParams.get('scenario') === name, NAME);
    await page.getByRole('tab', { name: 'Comparison' }).click();
    await idle.waitFor();
    expect(await check.isEnabled()).toBe(true);
    await recorded.waitFor();
    expect(await card.getByRole('table').count()).toBe(1);
    expect(problems).toEqual([]);
  });

  it('steps the variant chosen, and flips between before and after', async () => {
    const { page, problems } = await open(`?v=1&scenario=${NAME}&seed=1&bursts=4`, { ready: 'experiment' });
    await page.getByRole('radio', { name: 'before' }).click({ force: true });
    await page.waitForFunction(() => new URL(location.href).searchParams.get('variant') === 'before');
    // The parameters stay; the form keeps them too.
    expect(query(page).get('bursts')).toBe('4');
    // Stepping from the Comparison tab, which the run does not change, opens
    // the view the run is watched in (the tour's first: System); the step is taken.
    expect(await page.getByRole('tab', { name: 'Comparison' }).getAttribute('aria-selected')).toBe('true');
    await stepForward(page, 1);
    expect(await page.getByRole('tab', { name: /^System/ }).getAttribute('aria-selected')).toBe('true');
    await page.getByRole('button', { name: 'Reset', exact: true }).click();
    await waitForStep(page, 0);
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

    // Flip the patch on at this moment: the after variant's run at the same step, on the same tab,
    // where kswapd has not slept prematurely.
    const at = await stepCount(page);
    await page.getByRole('radio', { name: 'after', exact: true }).click({ force: true });
    await page.waitForFunction(() => new URL(location.href).searchParams.get('variant') === 'after');
    await waitForStep(page, at);
    expect(await page.getByRole('tab', { name: /^System/ }).getAttribute('aria-selected')).toBe('true');
    expect(await page.getByTestId('kswapd-premature').textContent()).toBe('0');
    // The counters' Δ is still the change over the last step (the new run opens at the step before), not since step 0.
    await expect.poll(() => page.locator('.counters .card-footnote').textContent()).toBe('Δ: change over the last step');
    // kswapd's timeline holds the new run's window up to the step, as a run stepped there from the start does.
    const runs = Number(await page.getByTestId('kswapd-runs').textContent());
    expect(runs, 'kswapd runs in the window').toBeGreaterThan(5);
    const fresh = await open(`?v=1&scenario=${NAME}&seed=1&bursts=4&variant=after`, { ready: 'experiment' });
    await fresh.page.getByLabel('Go to step', { exact: true }).fill(String(at));
    await fresh.page.getByRole('button', { name: 'Go', exact: true }).click();
    await waitForStep(fresh.page, at);
    await fresh.page.getByRole('tab', { name: /^System/ }).click();
    expect(Number(await fresh.page.getByTestId('kswapd-runs').textContent())).toBe(runs);
    await stepForward(page, 2);
    expect(problems).toEqual([]);
    expect(fresh.problems).toEqual([]);
  });

  it('the variant switch replays the other run to the step with its progress shown, and Stop keeps the new run where it got to', { timeout: 180_000 }, async () => {
    // Two simulated minutes: a replay to near the end takes seconds, long enough to stop.
    const { page, problems } = await open('?v=1&scenario=multi-memcg-kswapd&seed=1&seconds=120&variant=before', { ready: 'experiment' });
    const far = 11_000;
    await page.getByLabel('Go to step', { exact: true }).fill(String(far));
    await page.getByRole('button', { name: 'Go', exact: true }).click();
    await waitForStep(page, far, 120_000);
    const progress = page.getByRole('progressbar');
    await progress.waitFor({ state: 'detached' });

    await page.getByRole('radio', { name: 'after', exact: true }).click({ force: true });
    await progress.waitFor({ timeout: 30_000 });
    // The radio shows the choice at once, while the after run is replayed to the step.
    expect(await page.getByRole('radio', { name: 'after', exact: true }).isChecked()).toBe(true);
    // Some way in (a progress report or two), then stop.
    await page.waitForFunction(() => Number(document.querySelector('progress')?.getAttribute('value') ?? 0) > 0);
    await page.getByRole('button', { name: 'Stop', exact: true }).click();
    await progress.waitFor({ state: 'detached', timeout: 10_000 });
    const reached = await stepCount(page);
    console.log(`variant replay stopped at step ${reached} of ${far}`);
    expect(reached, 'stopped on the way').toBeLessThan(far);
    // The new run stays, at the step it reached: the address names it, and stepping goes on from there.
    await page.waitForFunction(() => new URL(location.href).searchParams.get('variant') === 'after');
    expect(await page.getByRole('radio', { name: 'after', exact: true }).isChecked()).toBe(true);
    await stepForward(page, 1);
    expect(await stepCount(page)).toBe(reached + 1);
    // A stop is no error.
    expect(await page.getByTestId('alerts').count()).toBe(0);
    // Stepping there in a run started afresh on the after variant gives the same counters.
    const at = await counters(page);
    expect(Object.keys(at).length, 'the counters are shown').toBeGreaterThan(10);
    const fresh = await open(`?v=1&scenario=multi-memcg-kswapd&seed=1&seconds=120&variant=after`, { ready: 'experiment' });
    await fresh.page.getByLabel('Go to step', { exact: true }).fill(String(reached + 1));
    await fresh.page.getByRole('button', { name: 'Go', exact: true }).click();
    await waitForStep(fresh.page, reached + 1, 120_000);
    expect(await counters(fresh.page)).toEqual(at);
    expect(problems).toEqual([]);
    expect(fresh.problems).toEqual([]);
  });

  it('a link to an experiment offers its comparison in the empty table: Compare now runs the link\'s seed', { timeout: 120_000 }, async () => {
    const { page, problems } = await open('?v=1&scenario=memcg-lru-fairness&seed=3&variant=after', { ready: 'experiment' });
    const run = page.getByTestId('comparison-run');
    expect(await run.textContent()).toBe('Compare now');
    await run.focus();
    await page.keyboard.press('Enter');
    const table = page.getByRole('table', { name: 'Comparison' });
    await table.waitFor({ timeout: 60_000 });
    await page.getByText('Running…').waitFor({ state: 'detached', timeout: 60_000 });
    // The table is of the link's run (seed 3), and the button goes with the empty state.
    expect(await page.locator('.comparison').first().textContent()).toMatch(/Seed 3 ·/);
    expect(await run.count()).toBe(0);
    // Compare now went with the empty state as the run began; its focus went to the card's heading, above the table.
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('comparison-heading');
    expect(query(page).get('seed')).toBe('3');
    expect(problems).toEqual([]);
  });

  it('a value out of range stops Run comparison with a message by the buttons, and the field comes into view above them', async () => {
    const context = await newContext({ viewport: { width: 1280, height: 720 } });
    const { page, problems } = await openIn(context, `?v=1&scenario=${NAME}&seed=1`, 'experiment');
    // The last field of the form, out of range, then Run comparison.
    const field = page.locator('input[data-param]').last();
    const name = (await field.getAttribute('data-param'))!;
    await field.fill('999999');
    await page.locator('.sidebar').evaluate((el) => el.scrollTo(0, 0));
    await page.getByRole('button', { name: 'Run comparison', exact: true }).click();
    expect(await page.locator('.form-problems').textContent()).toMatch(new RegExp(`^Not run: ${name}: from [\\d,]+ to [\\d,]+$`));
    expect(await field.evaluate((el) => el === document.activeElement)).toBe(true);
    // Whole in the sidebar, above the buttons that stick to its foot.
    const [box, buttons, sidebar] = await Promise.all([field.boundingBox(), page.locator('.form-actions').boundingBox(), page.locator('.sidebar').boundingBox()]);
    expect(box!.y).toBeGreaterThanOrEqual(sidebar!.y);
    expect(box!.y + box!.height).toBeLessThanOrEqual(buttons!.y);
    expect(await page.getByRole('table', { name: 'Comparison' }).count()).toBe(0);
    // Fixed, the message goes and the comparison runs.
    await field.fill(String(await field.getAttribute('min')));
    expect(await page.locator('.form-problems').count()).toBe(0);
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

  it('reports a variant the experiment does not have and runs the experiment\'s default variant', async () => {
    const { page, problems } = await open(`?v=1&scenario=${NAME}&seed=1&variant=bogus`, { ready: 'experiment' });
    // The counters are beside the LRU tab (an experiment's page opens on its comparison).
    await page.getByRole('tab', { name: /^LRU/ }).click();
    await page.getByRole('table', { name: 'Counters' }).waitFor();
    const alert = page.getByRole('alert');
    await alert.waitFor();
    const text = (await alert.textContent()) ?? '';
    expect(text).toContain(`variant: "bogus" is not a variant of ${NAME} (before, after, merged-v4.12); using after`);
    expect(query(page).get('scenario')).toBe(NAME);
    expect(query(page).get('variant')).toBe('after');
    const before = await counters(page);
    // The bursts start after a quiet 50 ms (5 steps).
    await stepForward(page, 8);
    expect(await counters(page)).not.toEqual(before);
    expect(problems).toEqual([]);
  });
});
