// Browser tests of the Shadows tab (the shadow LRU): after a few steps of a
// scenario that refaults, the tab shows the tracked shadows against the
// workingset thresholds (classic LRU) or the generation window (MGLRU),
// each shadow filled exactly when a refault now would activate it, and the
// step's refault decisions, which agree with the counters' Δ column.
//   npx vite build && npx vitest run --config tests/e2e/vitest.e2e.config.ts tests/e2e/shadow.e2e.test.ts
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SHOTS, deltas, open, stepForward, useBrowser, waitForStep } from './harness';

useBrowser();

const SWAPPING = 'anon_pages=3000&file_pages=3000';

interface Dot {
  page: string;
  kind: string;
  activate: boolean;
  distance: number | null;
  seq: number | null;
}

async function shadowDots(page: Page): Promise<Dot[]> {
  return page.getByTestId('shadow-dot').evaluateAll((gs) =>
    gs.map((g) => {
      const num = (name: string) => (g.getAttribute(name) === null ? null : Number(g.getAttribute(name)));
      return {
        page: g.getAttribute('data-page')!,
        kind: g.getAttribute('data-kind')!,
        activate: g.getAttribute('data-activate') === 'true',
        distance: num('data-distance'),
        seq: num('data-seq'),
      };
    }),
  );
}

/** A screenshot tall enough for the whole tab (the columns scroll inside the window). */
async function shoot(page: Page, name: string): Promise<void> {
  await page.setViewportSize({ width: 1280, height: 1500 });
  await page.waitForTimeout(200);
  await page.screenshot({ path: path.join(SHOTS, name), fullPage: true });
}

/** The decisions table's rows: decision, whether it counted workingset_activate, and kind. */
async function decisionRows(page: Page): Promise<{ decision: string; counted: boolean; kind: string }[]> {
  return page.getByTestId('refault-row').evaluateAll((trs) =>
    trs.map((tr) => {
      const data = (tr as HTMLElement).dataset;
      return { decision: data.decision!, counted: data.activateCounted === 'true', kind: data.kind! };
    }),
  );
}

/** Steps until the step's refaults are all listed (none dropped) and some counted workingset_activate. */
async function stepToRefaults(page: Page, max = 40): Promise<void> {
  for (let i = 0; i < max; i++) {
    await stepForward(page, 1);
    const total = await page.getByTestId('refault-total').textContent();
    const rows = await decisionRows(page);
    if (rows.length > 0 && !total?.includes('not listed') && rows.some((r) => r.counted)) return;
  }
  throw new Error(`no step with listed, activated refaults in ${max} steps`);
}

/** The table's decisions agree with the counters' Δ column (one step since the previous frame). */
async function expectDecisionsMatchCounters(page: Page): Promise<void> {
  const rows = await decisionRows(page);
  const delta = await deltas(page);
  const d = (name: string) => Number(delta[name] || 0);
  for (const kind of ['anon', 'file']) {
    const mine = rows.filter((r) => r.kind === kind);
    expect(mine.filter((r) => r.counted).length, `activate ${kind}`).toBe(d(`workingset_activate_${kind}`));
    expect(mine.filter((r) => r.decision !== 'ignored').length, `refault ${kind}`).toBe(d(`workingset_refault_${kind}`));
  }
}

describe('Shadows tab', () => {
  it('classic LRU: shadows on the refault-distance axis against the workingset thresholds, and the decisions', async () => {
    const { page, problems } = await open(`?v=1&scenario=classic-basic&seed=2&${SWAPPING}`);
    // At step 0, with no shadow yet, the tab already describes the classic rule, not MGLRU's.
    await page.getByRole('tab', { name: /Shadows/ }).click();
    const view = page.getByRole('region', { name: 'Shadow LRU' });
    await expect(view.locator('.shadow-intro').textContent()).resolves.toMatch(/^workingset_test_recent Classic LRU: a refault is activated when its refault distance/);
    await stepForward(page, 20);
    await expect(view.getByRole('group', { name: /Shadow LRU of \/job/ }).isVisible()).resolves.toBe(true);
    await stepToRefaults(page);

    // Thresholds: one line per kind, the number the rule below the chart names.
    const lines = await page.getByTestId('shadow-threshold').evaluateAll((gs) =>
      gs.map((g) => ({ kind: g.getAttribute('data-kind')!, pages: Number(g.getAttribute('data-pages')) })),
    );
    expect(lines.map((l) => l.kind).sort()).toEqual(['anon', 'file']);
    const rules = await page.getByTestId('threshold-rule').evaluateAll((lis) =>
      lis.map((li) => ({ kind: li.getAttribute('data-kind')!, pages: Number(li.getAttribute('data-pages')), text: li.textContent! })),
    );
    for (const l of lines) {
      const rule = rules.find((r) => r.kind === l.kind)!;
      expect(rule.pages).toBe(l.pages);
      expect(rule.text).toMatch(/^workingset_test_recent: an? (anon|file) refault is activated when its refault distance <= NR_ACTIVE_FILE/);
    }

    // Every shadow is drawn, filled exactly when its distance is within its kind's workingset.
    const dots = await shadowDots(page);
    const count = Number((await page.getByTestId('shadow-count').textContent())!.replace(/,/g, '').split(' ')[0]);
    expect(dots.length).toBe(count);
    expect(dots.length).toBeGreaterThan(10);
    for (const d of dots) {
      const t = lines.find((l) => l.kind === d.kind)!.pages;
      expect(d.activate, `${d.page} at ${d.distance} vs ${t}`).toBe(d.distance! <= t);
    }
    expect(dots.some((d) => d.activate)).toBe(true);
    expect(dots.some((d) => !d.activate)).toBe(true);

    await expectDecisionsMatchCounters(page);
    const firstRule = await page.getByTestId('refault-row').first().locator('td.rule').textContent();
    expect(firstRule).toMatch(/^workingset_test_recent: refault distance [\d,]+ (<=|>) workingset [\d,]+ \(NR_ACTIVE_FILE/);
    await shoot(page, 'shadows-classic.png');

    // A shadow selects its folio: the history panel opens on that page.
    const first = page.getByTestId('shadow-dot').first();
    const picked = (await first.getAttribute('data-page'))!;
    await first.click();
    await expect(page.locator(`section.folio-history[data-page="${picked}"]`).waitFor()).resolves.toBeUndefined();
    expect(await first.getAttribute('aria-selected')).toBe('true');
    expect(problems).toEqual([]);
  });

  it('MGLRU: shadows at the generation of their token against min_seq, keyboard reachable, in the dark theme', async () => {
    const { page, problems } = await open(`?v=1&scenario=mglru-basic&seed=2&${SWAPPING}`, { colorScheme: 'dark', reducedMotion: 'reduce' });
    await stepForward(page, 20);
    await page.getByRole('tab', { name: /Shadows/ }).click();
    await stepToRefaults(page);
    expect(await page.getByTestId('shadow-threshold').count()).toBe(0);
    const minSeq = Object.fromEntries(
      await page.getByTestId('shadow-min-seq').evaluateAll((gs) => gs.map((g) => [g.getAttribute('data-kind')!, Number(g.getAttribute('data-seq'))])),
    ) as Record<string, number>;
    expect(Object.keys(minSeq).sort()).toEqual(['anon', 'file']);
    const dots = await shadowDots(page);
    expect(dots.length).toBeGreaterThan(10);
    for (const d of dots) {
      expect(d.seq!).toBeLessThanOrEqual(minSeq[d.kind]!);
      expect(d.activate, `${d.page}: generation ${d.seq}, min_seq ${minSeq[d.kind]}`).toBe(d.seq === minSeq[d.kind]);
    }
    await expectDecisionsMatchCounters(page);
    const rule = await page.getByTestId('refault-row').first().locator('td.rule').textContent();
    expect(rule).toMatch(/^lru_gen_test_recent: evicted from generation \d+ (==|<) min_seq\[(anon|file)\] \d+/);

    // Keyboard: Tab reaches the listbox of shadows; arrows move; Enter selects.
    const options = page.getByRole('listbox', { name: /Shadows of \/job/ }).getByRole('option');
    await options.first().focus();
    await page.keyboard.press('ArrowRight');
    const second = (await options.nth(1).getAttribute('data-page'))!;
    expect(await page.evaluate(() => document.activeElement?.getAttribute('data-page'))).toBe(second);
    await page.keyboard.press('Enter');
    await page.locator(`section.folio-history[data-page="${second}"]`).waitFor();
    // The decisions can be filtered. MGLRU v6.12 activates no refault: a recent one
    // feeds the PID controller and counts as workingset_activate.
    await page.getByLabel('Show', { exact: true }).selectOption('recent');
    const shown = await decisionRows(page);
    expect(shown.length).toBeGreaterThan(0);
    expect(shown.every((r) => r.decision === 'recent' && r.counted)).toBe(true);
    await page.getByLabel('Show', { exact: true }).selectOption('all');
    expect((await decisionRows(page)).some((r) => r.decision === 'activate')).toBe(false);
    await shoot(page, 'shadows-mglru-dark.png');
    expect(problems).toEqual([]);
  });

  it('MGLRU with patch 004: the distance strip and the generation strip together', async () => {
    const { page, problems } = await open('?v=1&scenario=refault-distance-mglru&seed=1&variant=after', { ready: 'experiment', reducedMotion: 'reduce' });
    await page.getByRole('tab', { name: /Shadows/ }).click();
    // Go to step 150 (the engine replays there), then one step more, so the counters' Δ is of one step.
    await page.getByLabel('Go to step', { exact: true }).fill('150');
    await page.getByRole('button', { name: 'Go', exact: true }).click();
    await waitForStep(page, 150, 60_000);
    await stepForward(page, 1);
    const view = page.getByRole('region', { name: 'Shadow LRU' });
    await view.waitFor();
    expect(await view.getAttribute('data-model')).toBe('lru_test_refault');
    const lines = await page.getByTestId('shadow-threshold').count();
    expect(lines).toBe(2);
    expect(await page.getByTestId('shadow-min-seq').count()).toBe(2);
    const rules = await page.getByTestId('threshold-rule').allTextContents();
    for (const r of rules) expect(r).toMatch(/^lru_test_refault: an? (anon|file) refault is activated when its refault distance < /);
    const rows = await page.getByTestId('refault-row').locator('td.rule').allTextContents();
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows.slice(0, 20)) expect(r).toMatch(/^lru_test_refault: refault distance [\d,]+ (<|>=) [\d,]+ .*; lru_gen_test_recent: evicted from generation \d+/);
    // More refaults than the table lists: the total is the counters' Δ (one memcg on one node: no
    // refault is ignored), and the listed activations are at most theirs.
    const total = Number((await page.getByTestId('refault-total').textContent())!.replace(/,/g, '').split(' ')[0]);
    const delta = await deltas(page);
    expect(total).toBe(Number(delta.workingset_refault_file || 0) + Number(delta.workingset_refault_anon || 0));
    const activated = (await decisionRows(page)).filter((r) => r.decision === 'activate').length;
    expect(activated).toBeLessThanOrEqual(Number(delta.workingset_activate_file || 0) + Number(delta.workingset_activate_anon || 0));
    await shoot(page, 'shadows-patch004.png');
    expect(problems).toEqual([]);
  });
});
