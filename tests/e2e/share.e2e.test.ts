// Browser tests of sharing, exporting and the themes: the built site (dist/)
// in headless Chromium. Run after `vite build`:
//   npx vite build && npx vitest run --config tests/e2e/vitest.e2e.config.ts tests/e2e/share.e2e.test.ts
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Download, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { MAX_SHARED_STEP, encodeSharedView, packPayload } from '../../web/src/scenario/share';
import { makeRequest } from '../../web/src/scenario/params';
import { SHOTS, counters, deltas, newContext, open, openIn, siteUrl, stepCount, stepForward, useBrowser, waitForStep } from './harness';

/** The label of the selected view tab. */
async function selectedTab(page: Page): Promise<string> {
  return (await page.getByRole('tablist', { name: 'Views' }).getByRole('tab', { selected: true }).textContent()) ?? '';
}

function query(page: Page): URLSearchParams {
  return new URL(page.url()).searchParams;
}

/** Clicks an export button and reads the file it downloads. */
async function exported(page: Page, name: string): Promise<{ download: Download; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name, exact: true }).click()]);
  const file = await download.path();
  return { download, bytes: readFileSync(file) };
}

useBrowser();

describe('Copy link', () => {
  it('opens the same run at the same step, on the same tab, with the same counters', async () => {
    const context = await newContext({ clipboard: true });
    const first = await openIn(context, '?v=1&scenario=global-pressure&seed=3');
    await stepForward(first.page, 4);
    await first.page.getByRole('tab', { name: /^System/ }).click();
    const shown = { step: await stepCount(first.page), counters: await counters(first.page), deltas: await deltas(first.page) };
    expect(shown.step).toBe(4);

    await first.page.getByRole('button', { name: 'Copy link', exact: true }).click();
    await first.page.getByRole('status').getByText('Link copied').waitFor();
    const link = await first.page.evaluate(() => navigator.clipboard.readText());
    expect(link).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/\?v=2&s=[A-Za-z0-9_-]+$/);

    const second = await openIn(context, new URL(link).search);
    await waitForStep(second.page, shown.step);
    expect(await selectedTab(second.page)).toMatch(/^System/);
    expect(await counters(second.page)).toEqual(shown.counters);
    // The frame before was stepped to as well: the Δ column is the same.
    expect(await deltas(second.page)).toEqual(shown.deltas);
    // The address bar names the run in the plain form.
    expect(query(second.page).get('v')).toBe('1');
    expect(query(second.page).get('scenario')).toBe('global-pressure');
    expect(query(second.page).get('seed')).toBe('3');
    // And it keeps running from there, as the first page does.
    await stepForward(first.page, 2);
    await stepForward(second.page, 2);
    expect(await counters(second.page)).toEqual(await counters(first.page));
    expect(await second.page.getByTestId('link-problem').count()).toBe(0);
    expect([...first.problems, ...second.problems]).toEqual([]);
  });

  it('brings back the lruvec the Shadows tab showed', async () => {
    const context = await newContext({ clipboard: true, reducedMotion: 'reduce' });
    const first = await openIn(context, '?v=1&scenario=proactive-root&seed=2&memcgs=4');
    await stepForward(first.page, 60);
    await first.page.getByRole('tab', { name: /^Shadows/ }).click();
    const view = first.page.getByRole('region', { name: 'Shadow LRU' });
    const picker = view.getByLabel('Lruvec', { exact: true });
    const keys = await picker.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(keys.length).toBeGreaterThan(1);
    const chosen = keys[keys.length - 1]!;
    await picker.selectOption(chosen);
    await first.page.getByRole('button', { name: 'Copy link', exact: true }).click();
    await first.page.getByRole('status').getByText('Link copied').waitFor();
    const link = await first.page.evaluate(() => navigator.clipboard.readText());

    const second = await openIn(context, new URL(link).search);
    await waitForStep(second.page, 60);
    expect(await selectedTab(second.page)).toMatch(/^Shadows/);
    expect(await second.page.getByRole('region', { name: 'Shadow LRU' }).getByLabel('Lruvec', { exact: true }).inputValue()).toBe(chosen);
    // The LRU tab shows the same lruvec: the choice is one, shared by the views.
    await second.page.getByRole('tab', { name: /^LRU/ }).click();
    expect(await second.page.locator(`figure.generations[data-lruvec="${chosen}"]`).count()).toBe(1);
    expect([...first.problems, ...second.problems]).toEqual([]);
  });

  it('brings back the selected folio and its history', async () => {
    const context = await newContext({ clipboard: true });
    const first = await openIn(context, '?v=1&scenario=mglru-basic&seed=2');
    await stepForward(first.page, 12);
    const dot = first.page.locator('[data-testid="folio-dot"][data-state="resident"]:not(.leaving)').first();
    const folio = (await dot.getAttribute('data-page'))!;
    await dot.click();
    const panel = first.page.getByRole('region', { name: 'Folio history' });
    await panel.getByRole('listitem').first().waitFor();
    const history = await panel.getByRole('listitem').allTextContents();

    await first.page.getByRole('button', { name: 'Copy link', exact: true }).click();
    await first.page.getByRole('status').getByText('Link copied').waitFor();
    const link = await first.page.evaluate(() => navigator.clipboard.readText());

    const second = await openIn(context, new URL(link).search);
    await waitForStep(second.page, 12);
    const again = second.page.getByRole('region', { name: 'Folio history' });
    await again.getByRole('listitem').first().waitFor();
    expect(await again.getByTestId('folio-page').textContent()).toBe(folio);
    expect(await again.getByRole('listitem').allTextContents()).toEqual(history);
    expect(await second.page.locator(`[data-testid="folio-dot"][data-page="${folio}"]`).getAttribute('aria-selected')).toBe('true');
    expect(await selectedTab(second.page)).toMatch(/^LRU/);
    expect([...first.problems, ...second.problems]).toEqual([]);
  });

  it('shows the link in a dialog when the clipboard cannot be used; an experiment comes back with its variant and comparison', async () => {
    const context = await newContext({ noClipboard: true });
    const first = await openIn(context, '?v=1&scenario=kswapd-classzone&seed=2&variant=before', 'experiment');
    await first.page.getByRole('button', { name: 'Run comparison', exact: true }).click();
    const table = first.page.getByRole('table', { name: 'Comparison' });
    await table.waitFor({ timeout: 30_000 });
    await first.page.getByText('Running…').waitFor({ state: 'detached' });
    const rows = await table.locator('tbody tr').allTextContents();
    expect(rows.length).toBeGreaterThan(0);

    await first.page.getByRole('button', { name: 'Copy link', exact: true }).click();
    const dialog = first.page.getByRole('dialog', { name: 'Link to this view' });
    await dialog.waitFor();
    const link = await dialog.getByRole('textbox', { name: 'Link to this view' }).inputValue();
    expect(link).toMatch(/\?v=2&s=[A-Za-z0-9_-]+$/);
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'hidden' });

    const second = await openIn(context, new URL(link).search, 'experiment');
    expect(await selectedTab(second.page)).toBe('Comparison');
    expect(await second.page.getByRole('radio', { name: /^before/ }).isChecked()).toBe(true);
    expect(query(second.page).get('variant')).toBe('before');
    const again = second.page.getByRole('table', { name: 'Comparison' });
    await again.waitFor({ timeout: 30_000 });
    await second.page.getByText('Running…').waitFor({ state: 'detached' });
    expect(await again.locator('tbody tr').allTextContents()).toEqual(rows);
    expect([...first.problems, ...second.problems]).toEqual([]);
  });

  it('a tampered or malformed link shows what is wrong and opens the default scenario, which keeps working', async () => {
    const valid = await encodeSharedView({ request: makeRequest('global-pressure', 5, {}), step: 7, tab: 'system' });
    const payload = new URLSearchParams(valid).get('s')!;
    const middle = Math.floor(payload.length / 2);
    const json = (fields: Record<string, unknown>) =>
      JSON.stringify({ scenario: 'global-pressure', seed: 5, params: {}, step: 7, tab: 'system', ...fields });
    const cases: [string, string, RegExp][] = [
      [
        'changed characters',
        `?v=2&s=${payload.slice(0, middle)}${payload[middle] === 'x' ? 'yz' : 'xy'}${payload.slice(middle + 2)}`,
        /damaged payload|checksum mismatch/,
      ],
      ['cut short', `?v=2&s=${payload.slice(0, -6)}`, /damaged payload|checksum mismatch/],
      ['bad base64', `?v=2&s=${payload.slice(0, 10)}!${payload.slice(11)}`, /bad base64/],
      ['bad JSON', `?v=2&s=${await packPayload('{"scenario": "global-pressure", ')}`, /bad JSON/],
      ['wrong version', valid.replace('v=2', 'v=7'), /wrong version: v="7"/],
      ['step too large', `?v=2&s=${await packPayload(json({ step: MAX_SHARED_STEP + 1 }))}`, new RegExp(`step: ${MAX_SHARED_STEP + 1} is too large`)],
      ['out-of-range seed', `?v=2&s=${await packPayload(json({ seed: -4 }))}`, /seed: -4 is not a whole number/],
    ];
    const context = await newContext();
    const fresh = await openIn(context, '');
    const defaults = await counters(fresh.page);
    const scenario = query(fresh.page).get('scenario');
    for (const [what, search, message] of cases) {
      const { page, problems } = await openIn(context, search);
      const notice = page.getByTestId('link-problem');
      await notice.waitFor();
      const text = (await notice.textContent()) ?? '';
      expect(text, what).toContain('This shared link cannot be opened');
      expect(text, what).toMatch(message);
      // One stop ends the sentence, not the browser's own inside it as well.
      expect(text, what).not.toMatch(/\.\)?\./);
      expect(text, what).toContain('default scenario');
      expect(query(page).get('scenario'), what).toBe(scenario);
      expect(await stepCount(page), what).toBe(0);
      expect(await counters(page), what).toEqual(defaults);
      await stepForward(page, 2);
      expect(await counters(page), what).not.toEqual(defaults);
      expect(problems, what).toEqual([]);
      await page.close();
    }

    // A well-formed link to a scenario the engine does not know: the engine names it.
    const unknown = await openIn(context, `?v=2&s=${await packPayload(json({ scenario: 'no-such-scenario' }))}`);
    const alert = unknown.page.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toContain('The engine rejected this scenario: unknown scenario "no-such-scenario" (known: ');
    expect(await alert.textContent()).toContain(`Running the default scenario, ${scenario}, instead.`);
    expect(query(unknown.page).get('scenario')).toBe(scenario);
    expect(await stepCount(unknown.page)).toBe(0);
    expect([...fresh.problems, ...unknown.problems]).toEqual([]);
  });
});

describe('parts of a link the run cannot show', () => {
  it('are named and left out; the rest of the link opens', async () => {
    const context = await newContext();
    const pack = async (fields: Record<string, unknown>) => `?v=2&s=${await packPayload(JSON.stringify({ seed: 1, params: {}, step: 4, tab: 'lru', ...fields }))}`;
    const cases: [string, string, string][] = [
      [
        'a shared side by side with a variant the experiment lacks',
        await pack({ scenario: 'kswapd-classzone', variant: 'before', compare: { variants: ['before', 'zzz'], step: 4 } }),
        'compare: "zzz" is not a variant of kswapd-classzone (before, after, merged-v4.12); ignored',
      ],
      [
        'a shared comparison of a plain scenario',
        await pack({ scenario: 'global-pressure', comparison: { seed: 1 }, tab: 'comparison' }),
        'comparison: global-pressure is not an experiment, so it has no variants to compare; ignored',
      ],
      ['a folio the run does not track', await pack({ scenario: 'global-pressure', folio: '99:99' }), 'folio: this run does not track page "99:99"; nothing selected'],
      ['a readable link to the Comparison of a plain scenario', '?v=1&scenario=global-pressure&seed=1&step=4&tab=comparison', 'tab: global-pressure is not an experiment, so it has no comparison; showing its LRU'],
      ['a tour link with a step', '?v=1&scenario=kswapd-classzone&seed=1&variant=before&step=30&tour=kswapd-classzone', 'step: a tour link opens the tour step, which sets the step and the view itself; ignored'],
    ];
    // A step past the scenario's end (125 steps with two bursts) opens as written; the timeline says where the run ended.
    // The link names no tab, so the experiment's page opens on its Comparison, which has no counters table to wait for.
    const late = '?v=1&scenario=kswapd-classzone&seed=1&bursts=2&variant=after&step=400';
    {
      const { page, problems } = await openIn(context, late, 'experiment');
      await waitForStep(page, 400, 60_000);
      await expect.poll(() => page.getByRole('tab', { name: /^Comparison/, selected: true }).count()).toBe(1);
      await expect.poll(() => page.getByTestId('timeline-past').textContent()).toBe("past the run's end (step 125)");
      expect(await page.getByTestId('page-link-problem').count()).toBe(0);
      await page.getByRole('button', { name: 'Reset', exact: true }).click();
      await waitForStep(page, 0, 60_000);
      expect(await page.getByTestId('timeline-past').count()).toBe(0);
      expect(problems).toEqual([]);
      await page.close();
    }
    for (const [what, search, message] of cases) {
      const { page, problems } = await openIn(context, search);
      const notice = page.getByTestId('page-link-problem');
      await notice.getByText(message, { exact: false }).waitFor({ timeout: 60_000 });
      expect(await page.getByTestId('link-problem').count(), what).toBe(0);
      expect(await page.getByRole('region', { name: 'Side by side' }).count(), what).toBe(0);
      if (!search.includes('tour=')) await waitForStep(page, 4, 60_000);
      expect(problems, what).toEqual([]);
      await page.close();
    }
  });
});

describe('the hash of a link', () => {
  it('repairs a link mangled on its way ("&amp;", encoded again, a ")" after it) and says what it undid', async () => {
    const link = 'v=1&scenario=global-pressure&seed=2&step=20&tab=system';
    for (const [mangled, said] of [
      [`?${link.replace(/&/g, '&amp;')}`, 'written "&amp;"'],
      [`?${encodeURIComponent(encodeURIComponent(link))}`, 'percent-encoded 2 times too often'],
      [`?${link})`, '")" after its end'],
    ] as const) {
      const { page, problems } = await open(mangled);
      await waitForStep(page, 20, 60_000);
      expect(new URL(page.url()).search, mangled).toContain('scenario=global-pressure&seed=2');
      expect(await page.getByRole('tab', { name: /^System/ }).getAttribute('aria-selected'), mangled).toBe('true');
      expect(await page.getByTestId('page-link-problem').textContent(), mangled).toContain(said);
      expect(problems).toEqual([]);
    }
  });

  it('reads a link whose "?" became "#" as the link it was, and says so; drops a hash the page does not know', async () => {
    const { page, problems } = await open('#v=1&scenario=global-pressure&seed=2&step=20');
    await waitForStep(page, 20, 60_000);
    expect(new URL(page.url()).search).toContain('scenario=global-pressure&seed=2');
    expect(new URL(page.url()).hash).toBe('');
    expect(await page.getByTestId('page-link-problem').textContent()).toContain('they were read as ?v=1&scenario=global-pressure&seed=2&step=20');
    const other = await open('#garbage');
    await other.page.getByTestId('page-link-problem').getByText('the page has no part called "#garbage"').waitFor();
    expect(new URL(other.page.url()).hash).toBe('');
    await stepForward(other.page, 2);
    expect(await stepCount(other.page)).toBe(2);
    expect([...problems, ...other.problems]).toEqual([]);
  });
});

describe('an address with extra parts in its path', () => {
  it('says the page could not load its code and what to do, rather than showing a blank page', async () => {
    const page = await (await newContext()).newPage();
    await page.goto(siteUrl('/extra/parts?v=1&scenario=mglru-basic'));
    const note = page.getByTestId('load-failed');
    await note.waitFor();
    expect(await note.textContent()).toMatch(/^Reclaim Lab could not load its code \(.*\/extra\/assets\/.*\)\. If this address has extra parts after the app's own \(\/extra\/parts\), remove them/);
  });
});

describe('Export', () => {
  it('saves the view as SVG and PNG, and the counters as CSV and JSON', async () => {
    const { page, problems } = await open('?v=1&scenario=mglru-basic&seed=4');
    await stepForward(page, 6);
    await page.waitForTimeout(600); // let the transitions finish
    const shown = await counters(page);

    const svg = await exported(page, 'Export SVG');
    expect(svg.download.suggestedFilename()).toBe('mglru-basic-4-6-lru.svg');
    const parsed = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
      const bar = doc.querySelector('rect[data-testid="gen-bar"]');
      return {
        error: doc.querySelector('parsererror')?.textContent ?? null,
        root: doc.documentElement.localName,
        namespace: doc.documentElement.namespaceURI,
        bars: doc.querySelectorAll('rect[data-testid="gen-bar"]').length,
        barStyle: bar?.getAttribute('style') ?? '',
      };
    }, svg.bytes.toString('utf8'));
    expect(parsed.error).toBeNull();
    expect(parsed.root).toBe('svg');
    expect(parsed.namespace).toBe('http://www.w3.org/2000/svg');
    expect(parsed.bars).toBeGreaterThan(0);
    // The styles travel with the file: the bars' colours are written on them.
    expect(parsed.barStyle).toMatch(/fill:\s*rgb\(/);

    const png = await exported(page, 'Export PNG');
    expect(png.download.suggestedFilename()).toBe('mglru-basic-4-6-lru.png');
    expect([...png.bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    // Drawn, not blank: many colours in it.
    const colours = await page.evaluate(async (base64) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
      const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
      const context = canvas.getContext('2d')!;
      context.drawImage(bitmap, 0, 0);
      const data = context.getImageData(0, 0, bitmap.width, bitmap.height).data;
      const seen = new Set<number>();
      for (let i = 0; i < data.length; i += 4 * 7) seen.add((data[i]! << 16) | (data[i + 1]! << 8) | data[i + 2]!);
      return { distinct: seen.size, width: bitmap.width, height: bitmap.height };
    }, png.bytes.toString('base64'));
    expect(colours.width).toBeGreaterThan(400);
    expect(colours.height).toBeGreaterThan(200);
    expect(colours.distinct).toBeGreaterThan(8);

    const csv = await exported(page, 'Export CSV');
    expect(csv.download.suggestedFilename()).toBe('mglru-basic-4-6.csv');
    const lines = csv.bytes.toString('utf8').trimEnd().split('\n');
    expect(lines[0]).toBe('name,value,delta,since_step');
    expect(lines.length - 1).toBe(Object.keys(shown).length);
    const fromCsv = Object.fromEntries(lines.slice(1).map((l) => l.split(',')).map(([name, value]) => [name, Number(value)]));
    expect(fromCsv).toEqual(shown);

    const json = await exported(page, 'Export JSON');
    expect(json.download.suggestedFilename()).toBe('mglru-basic-4-6.json');
    const data = JSON.parse(json.bytes.toString('utf8')) as { scenario: string; seed: number; steps: number; vmstat: Record<string, number> };
    expect(data.scenario).toBe('mglru-basic');
    expect(data.seed).toBe(4);
    expect(data.steps).toBe(6);
    expect(data.vmstat).toEqual(shown);
    expect(Object.keys(data.vmstat)).toEqual(Object.keys(shown));
    expect(problems).toEqual([]);
  });

  it('draws the legends the page shows beside a chart into the exported figure (Shadows, memory.reclaim rounds)', async () => {
    const { page, problems } = await open('?v=1&scenario=refaults&seed=1&step=500&tab=shadows');
    await page.locator('.shadow-legend').waitFor();
    const shadows = (await exported(page, 'Export SVG')).bytes.toString('utf8');
    for (const label of ['anon', 'file', 'a refault now would not activate', 'would activate']) expect(shadows).toContain(`>${label}</text>`);
    const round = await open('?v=1&scenario=proactive-root&seed=1&step=300&tab=memcgs');
    await round.page.getByRole('img', { name: /^Rounds of the memory\.reclaim write/ }).waitFor();
    const memcgs = (await exported(round.page, 'Export SVG')).bytes.toString('utf8');
    for (const label of ['batch asked', 'reclaimed']) expect(memcgs).toContain(`>${label}</text>`);
    // Each legend once.
    expect(memcgs.split('>batch asked</text>').length).toBe(2);
    // The pgsteal chart goes in with its legend: a bar per leaf memcg.
    expect(memcgs).toContain('>pgsteal per leaf memcg, in pages</text>');
    const leaves = await round.page.locator('.memcg-table tbody tr.leaf').count();
    expect(memcgs.split('data-testid="spread-bar"').length - 1).toBe(leaves);
    // On the Memcgs tab, CSV is the memcgs table: a row per memcg, pgsteal as the table shows it.
    const csv = await exported(round.page, 'Export CSV');
    expect(csv.download.suggestedFilename()).toBe('proactive-root-1-300-memcgs.csv');
    const rows = csv.bytes.toString('utf8').trimEnd().split('\n').map((l) => l.split(','));
    expect(rows[0]!.slice(0, 3)).toEqual(['memcg', 'leaf', 'memory.current_pages']);
    const table = await round.page.locator('.memcg-table tbody tr').evaluateAll((trs) =>
      trs.map((tr) => [tr.getAttribute('data-memcg'), tr.querySelector('[data-testid="memcg-pgsteal"]')!.textContent!.replace(/,/g, '')]),
    );
    const pgsteal = rows[0]!.indexOf('pgsteal');
    expect(rows.slice(1).map((r) => [r[0], r[pgsteal]])).toEqual(table);
    expect([...problems, ...round.problems]).toEqual([]);
  });

  it('exports an experiment\'s comparison table as CSV and with the JSON', async () => {
    const { page, problems } = await open('?v=1&scenario=kswapd-classzone&seed=1', { ready: 'experiment' });
    // No chart on the Comparison tab: the buttons look unavailable, say why, and a click says it too.
    const svgButton = page.getByRole('button', { name: 'Export SVG', exact: true });
    expect(await svgButton.getAttribute('aria-disabled')).toBe('true');
    expect(await svgButton.getAttribute('title')).toBe('This view has no chart: export its numbers as CSV or JSON');
    // (Playwright counts aria-disabled as disabled and would not click it; a reader can.)
    await svgButton.click({ force: true });
    await page.getByRole('status').getByText('This view has no chart: export its numbers as CSV or JSON').waitFor();
    await page.getByRole('button', { name: 'Run comparison', exact: true }).click();
    const table = page.getByRole('table', { name: 'Comparison' });
    await table.waitFor({ timeout: 30_000 });
    await page.getByText('Running…').waitFor({ state: 'detached' });
    const metrics = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-metric')));

    const csv = await exported(page, 'Export CSV');
    expect(csv.download.suggestedFilename()).toBe('kswapd-classzone-1-comparison.csv');
    const lines = csv.bytes.toString('utf8').trimEnd().split('\n');
    expect(lines[0]!.split(',').slice(0, 5)).toEqual(['metric', 'before', 'after', 'merged-v4.12', 'baseline']);
    expect(lines.slice(1).map((l) => l.split(',')[0])).toEqual(metrics);
    // At the default parameters the seeds 1-5 column is the recorded one, and the CSV says so.
    expect(lines[0]!.split(',').slice(-4)).toEqual(['seeds_held', 'seeds_tied', 'seeds', 'seeds_source']);
    expect(lines.find((l) => l.startsWith('kswapd_premature_sleeps,'))!.split(',').slice(-4)).toEqual(['5', '0', '5', 'recorded']);

    const json = await exported(page, 'Export JSON');
    const data = JSON.parse(json.bytes.toString('utf8')) as {
      variant: string;
      comparison: { experiment: string; variants: Record<string, { metrics: Record<string, number> }> };
    };
    expect(data.variant).toBe('after');
    expect(data.comparison.experiment).toBe('kswapd-classzone');
    expect(Object.keys(data.comparison.variants.after!.metrics)).toEqual(metrics);

    // The System tab's charts export.
    await page.getByRole('tab', { name: /^System/ }).click();
    await stepForward(page, 3);
    const svg = await exported(page, 'Export SVG');
    expect(svg.download.suggestedFilename()).toBe('kswapd-classzone-after-1-3-system.svg');
    expect(svg.bytes.toString('utf8')).toContain('data-testid="zone-chart"');
    expect(problems).toEqual([]);
  });
  it('exports compare mode: both sides\' charts, each captioned with its side and variant, and both sides\' counters, at their common step', async () => {
    const { page, problems } = await open('?v=1&scenario=multi-memcg-kswapd&seed=1', { ready: 'experiment', reducedMotion: 'reduce' });
    await page.getByRole('button', { name: 'Side by side', exact: true }).click();
    const mode = page.getByRole('region', { name: 'Side by side' });
    const step = mode.getByRole('group', { name: 'Compare controls' }).getByRole('button', { name: 'Step forward', exact: true });
    for (let i = 0; i < 5; i++) await step.click();
    await page.waitForFunction(() => document.querySelector('[data-testid="compare-step"]')?.textContent === '5');
    await mode.getByTestId('gen-bar').first().waitFor({ state: 'attached' });
    expect(await page.getByRole('button', { name: 'Export SVG', exact: true }).isDisabled()).toBe(false);

    const svg = await exported(page, 'Export SVG');
    expect(svg.download.suggestedFilename()).toBe('multi-memcg-kswapd-before-vs-after-1-5-lru.svg');
    const parsed = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
      return {
        error: doc.querySelector('parsererror')?.textContent ?? null,
        texts: [...doc.documentElement.children].filter((e) => e.localName === 'text').map((t) => t.textContent ?? ''),
        bars: doc.querySelectorAll('rect[data-testid="gen-bar"]').length,
      };
    }, svg.bytes.toString('utf8'));
    expect(parsed.error).toBeNull();
    expect(parsed.texts[0]).toContain('before vs after');
    expect(parsed.texts[0]).toContain('step 5');
    // Both sides are in it, each chart captioned with its side.
    expect(parsed.texts.some((t) => t.startsWith('Left: before · '))).toBe(true);
    expect(parsed.texts.some((t) => t.startsWith('Right: after · '))).toBe(true);
    const onPage = await mode.getByTestId('gen-bar').count();
    expect(parsed.bars).toBe(onPage);
    // Each left caption ends before the right column starts (a long one is cut with an ellipsis).
    const overrun = async (text: string) =>
      page.evaluate((markup) => {
        const holder = document.createElement('div');
        holder.innerHTML = markup.replace(/^<\?xml[^>]*>/, '');
        document.body.append(holder);
        const texts = [...holder.querySelector('svg')!.children].filter((e) => e.localName === 'text').slice(1) as SVGTextElement[];
        const xs = [...new Set(texts.map((t) => Number(t.getAttribute('x'))))].sort((a, b) => a - b);
        const bad = texts.filter((t) => Number(t.getAttribute('x')) === xs[0] && xs[0]! + t.getComputedTextLength() > xs[1]!).map((t) => t.textContent);
        holder.remove();
        return { columns: xs.length, bad };
      }, text);
    expect(await overrun(svg.bytes.toString('utf8'))).toEqual({ columns: 2, bad: [] });

    const png = await exported(page, 'Export PNG');
    expect(png.download.suggestedFilename()).toBe('multi-memcg-kswapd-before-vs-after-1-5-lru.png');
    writeFileSync(path.join(SHOTS, 'export-compare.png'), png.bytes);

    // The numbers: each side's counters, as the page shows them.
    const leftCounters = await counters(mode.getByTestId('compare-side-0'));
    const rightCounters = await counters(mode.getByTestId('compare-side-1'));
    const csv = await exported(page, 'Export CSV');
    expect(csv.download.suggestedFilename()).toBe('multi-memcg-kswapd-before-vs-after-1-5.csv');
    const lines = csv.bytes.toString('utf8').trimEnd().split('\n');
    expect(lines[0]).toBe('name,before,after');
    const rows = lines.slice(1).map((l) => l.split(','));
    expect(Object.fromEntries(rows.map(([name, before]) => [name, Number(before)]))).toEqual(leftCounters);
    expect(Object.fromEntries(rows.map(([name, , after]) => [name, Number(after)]))).toEqual(rightCounters);
    const json = await exported(page, 'Export JSON');
    const data = JSON.parse(json.bytes.toString('utf8')) as { sides: { variant: string; steps: number; vmstat: Record<string, number> }[] };
    expect(data.sides.map((s) => [s.variant, s.steps])).toEqual([['before', 5], ['after', 5]]);
    expect(data.sides[0]!.vmstat).toEqual(leftCounters);
    expect(data.sides[1]!.vmstat).toEqual(rightCounters);
    expect([...png.bytes.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

    // The Memcgs view, once kswapd has reclaimed (it wakes at step 17): its pgsteal charts have
    // long captions, and the CV sparkline stays out of the figure.
    await mode.getByLabel('Go to step', { exact: true }).fill('40');
    await mode.getByRole('button', { name: 'Go', exact: true }).click();
    await page.waitForFunction(() => document.querySelector('[data-testid="compare-step"]')?.textContent === '40', undefined, { timeout: 60_000 });
    await mode.getByRole('group', { name: 'Compare view' }).getByRole('button', { name: 'Memcgs', exact: true }).click();
    await mode.getByTestId('pgsteal-spread').first().waitFor();
    const memcgsSvg = (await exported(page, 'Export SVG')).bytes.toString('utf8');
    expect(await overrun(memcgsSvg)).toEqual({ columns: 2, bad: [] });
    expect(memcgsSvg).toContain('data-testid="spread-bar"');
    expect(memcgsSvg).not.toContain('class="sparkline"');
    // CSV on the Memcgs view: both sides' memcgs tables.
    const memcgsCsv = await exported(page, 'Export CSV');
    expect(memcgsCsv.download.suggestedFilename()).toBe('multi-memcg-kswapd-before-vs-after-1-40-memcgs.csv');
    const csvRows = memcgsCsv.bytes.toString('utf8').trimEnd().split('\n').map((l) => l.split(','));
    expect(csvRows[0]!.slice(0, 2)).toEqual(['variant', 'memcg']);
    expect(csvRows.slice(1).map((r) => `${r[0]} ${r[1]}`)).toEqual(['before /', 'before /memcached', 'before /fio', 'after /', 'after /memcached', 'after /fio']);
    expect(problems).toEqual([]);
  });
});

describe('Themes', () => {
  /** The page's colours, as the browser computed them. */
  async function colours(page: Page) {
    return page.evaluate(() => {
      const root = getComputedStyle(document.documentElement);
      const bar = document.querySelector('rect[data-testid="gen-bar"][data-type="anon"]');
      const probe = document.createElement('div');
      document.body.append(probe);
      const resolve = (name: string) => {
        probe.style.color = root.getPropertyValue(name);
        return getComputedStyle(probe).color;
      };
      const result = {
        theme: document.documentElement.dataset.theme,
        background: getComputedStyle(document.body).backgroundColor,
        text: resolve('--text'),
        muted: resolve('--text-muted'),
        faint: resolve('--text-faint'),
        surface: resolve('--surface'),
        anon: resolve('--anon'),
        barFill: bar ? getComputedStyle(bar).fill : null,
      };
      probe.remove();
      return result;
    });
  }

  const channels = (rgb: string) => rgb.match(/\d+(\.\d+)?/g)!.slice(0, 3).map(Number);
  /** WCAG relative luminance and contrast ratio. */
  const luminance = (rgb: string) => {
    const [r, g, b] = channels(rgb).map((c) => {
      const s = c / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * b!;
  };
  const contrast = (a: string, b: string) => {
    const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
    return (hi! + 0.05) / (lo! + 0.05);
  };

  it('follows the system scheme, reads every colour from the theme, and is readable in both', async () => {
    const light = await open('?v=1&scenario=mglru-basic&seed=1', { colorScheme: 'light' });
    const dark = await open('?v=1&scenario=mglru-basic&seed=1', { colorScheme: 'dark' });
    for (const { page } of [light, dark]) {
      await stepForward(page, 8);
      await page.waitForTimeout(600);
    }
    const l = await colours(light.page);
    const d = await colours(dark.page);
    expect(l.theme).toBe('light');
    expect(d.theme).toBe('dark');
    expect(luminance(l.background)).toBeGreaterThan(0.8);
    expect(luminance(d.background)).toBeLessThan(0.05);
    for (const c of [l, d]) {
      // The D3 bars take their colour from the theme's variable.
      expect(c.barFill).toBe(c.anon);
      expect(contrast(c.text, c.surface), `${c.theme} text`).toBeGreaterThan(12);
      expect(contrast(c.muted, c.surface), `${c.theme} muted text`).toBeGreaterThan(4.5);
      expect(contrast(c.faint, c.surface), `${c.theme} faint text`).toBeGreaterThan(4.5);
    }
    expect(d.barFill).not.toBe(l.barFill);
    await light.page.screenshot({ path: path.join(SHOTS, 'theme-light.png') });
    await dark.page.screenshot({ path: path.join(SHOTS, 'theme-dark.png') });
    expect([...light.problems, ...dark.problems]).toEqual([]);
  });

  it('keeps the theme picked with the Theme switch across reloads, and goes back to the system scheme', async () => {
    const { page, problems } = await open('', { colorScheme: 'light' });
    const theme = page.getByRole('combobox', { name: 'Theme', exact: true });
    expect(await theme.inputValue()).toBe('system');
    await theme.selectOption('dark');
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    await page.reload();
    await page.getByRole('table', { name: 'Counters' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('dark');
    expect(await page.getByRole('combobox', { name: 'Theme', exact: true }).inputValue()).toBe('dark');
    await page.getByRole('combobox', { name: 'Theme', exact: true }).selectOption('system');
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe('light');
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    expect(problems).toEqual([]);
  });
});
