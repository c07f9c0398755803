// Browser tests of the System and Memcgs views: zones against their
// watermarks, kswapd, memcgs and the memcg LRU, memory.reclaim writes.
// Alone: npx vite build && npx vitest run --config tests/e2e/vitest.e2e.config.ts tests/e2e/views.e2e.test.ts
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { SHOTS, open, playTo, stepCount, stepForward, useBrowser, waitForStep } from './harness';

useBrowser();

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

describe('the view tabs', () => {
  it('keep one line while a run plays at 1,024 px: a growing count drops the notes once, it does not wrap the tabs', async () => {
    const { page, problems } = await open('?v=1&scenario=memcg-lru-fairness&seed=1&tab=system', { viewport: { width: 1024, height: 768 } });
    const list = page.getByRole('tablist').first();
    const rows = () =>
      list.evaluate((el) => {
        const tops = [...el.children].map((t) => (t as HTMLElement).offsetTop);
        return new Set(tops).size;
      });
    expect(await rows()).toBe(1);
    const height = (await list.boundingBox())!.height;
    await page.getByLabel('Go to step', { exact: true }).fill('300');
    await page.getByRole('button', { name: 'Go', exact: true }).click();
    await waitForStep(page, 300, 60_000);
    // Shadows went from 0 to hundreds: with its note the list would wrap; it drops the notes instead.
    expect(await rows()).toBe(1);
    expect((await list.boundingBox())!.height).toBe(height);
    expect(await list.evaluate((el) => el.classList.contains('compact'))).toBe(true);
    // A wider window measures again, and there the notes fit.
    await page.setViewportSize({ width: 1600, height: 900 });
    await expect.poll(() => list.evaluate((el) => el.classList.contains('compact'))).toBe(false);
    expect(await rows()).toBe(1);
    expect(problems).toEqual([]);
  });
});

describe('a window 1,024 px wide, where the page scrolls', () => {
  it('keeps the step controls in sight beside the charts scrolled to', async () => {
    const { page, problems } = await open('?v=1&scenario=kswapd-classzone&seed=1&tab=system', { viewport: { width: 1024, height: 768 } });
    const play = page.getByRole('button', { name: 'Play', exact: true });
    await page.locator('.counters-column').scrollIntoViewIfNeeded();
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(500);
    const box = (await play.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThan(768);
    expect(await page.getByTestId('step').first().isVisible()).toBe(true);
    expect(problems).toEqual([]);
  });
});

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
    // At step 0 the time axes still read as time: distinct ticks, not "0 µs" over and over.
    const firstAxis = page.getByRole('region', { name: 'Zones of node 0' }).locator('svg').first().locator('.x-axis .tick text');
    await expect.poll(() => firstAxis.count()).toBeGreaterThan(1);
    const ticks = await firstAxis.allTextContents();
    expect(new Set(ticks).size, ticks.join(' | ')).toBe(ticks.length);

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
      // A point per step (played ten a frame, then stepped), from step 0.
      expect(Number(await line.getAttribute('data-points')), `${name} points`).toBe(reached + 1 + 20);
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
    const running = kswapd.locator('[data-testid="kswapd-segment"][data-mode="running"], [data-testid="kswapd-packed"][data-mode="running"]');
    expect(await running.count(), 'running segments').toBeGreaterThan(0);
    // Runs are drawn at their true width (those shorter than a pixel packed into one path); they also get a 1 px tick above the band.
    const widths = await running.evaluateAll((rs) => rs.map((r) => r.getBoundingClientRect().width));
    const shortRuns = await kswapd.getByTestId('kswapd-short-run').count();
    expect(widths.some((w) => w >= 1) || shortRuns > 0, 'runs visible').toBe(true);
    expect(Number(await kswapd.getByTestId('kswapd-runs').textContent())).toBeGreaterThan(0);
    expect(await kswapd.getByTestId('kswapd-mode').textContent()).toMatch(/^(asleep|napping|running)$/);
    for (const id of ['kswapd-failures', 'kswapd-sleeps', 'kswapd-premature']) {
      expect(await kswapd.getByTestId(id).textContent(), id).toMatch(/^[\d,]+$/);
    }
    await page.screenshot({ path: path.join(SHOTS, 'system.png') });
    await zones.screenshot({ path: path.join(SHOTS, 'zones.png') });
    expect(problems).toEqual([]);
  });

  it("marks each premature sleep on the kswapd timeline where kswapd fell asleep; none with the patch (kswapd-classzone)", async () => {
    for (const [variant, expected] of [['before', 1], ['after', 0]] as const) {
      const { page, problems } = await open(`?v=1&scenario=kswapd-classzone&seed=1&variant=${variant}&step=130&tab=system`);
      const kswapd = page.getByRole('region', { name: 'kswapd timeline of node 0' });
      await expect.poll(() => kswapd.getByTestId('kswapd-premature').textContent()).toBe(String(expected));
      const marks = kswapd.getByTestId('kswapd-premature-mark');
      await expect.poll(() => marks.count(), { message: variant }).toBe(expected);
      // Each mark is where an asleep stretch begins.
      const times = await marks.evaluateAll((ms) => ms.map((m) => m.getAttribute('data-time')));
      const asleep = await kswapd.locator('[data-testid="kswapd-segment"][data-mode="asleep"]').evaluateAll((ss) => ss.map((s) => s.getAttribute('data-start')));
      for (const t of times) expect(asleep, `mark at ${t}`).toContain(t);
      if (expected > 0) await kswapd.screenshot({ path: path.join(SHOTS, 'kswapd-premature.png') });
      expect(problems).toEqual([]);
      await page.context().close();
    }
  });

  it('shows memcgs, their pgsteal CV, the memcg LRU rotating and the memory.reclaim writes (proactive-root)', async () => {
    const search = '?v=1&scenario=proactive-root&seed=1';
    // Without motion first: the first write to memory.reclaim (at 200 ms, step 21) rotates
    // every memcg it reclaims; /memcg4 goes from bin 0 to bin 7 of the old generation.
    const still = await open(search, { reducedMotion: 'reduce' });
    await still.page.getByRole('tab', { name: /^Memcgs/ }).click();
    await stepForward(still.page, 20);
    const lru = still.page.getByRole('region', { name: 'Memcg LRU of node 0' });
    await lru.waitFor();
    const before = (await chips(still.page)).find((c) => c.path === '/memcg4')!;
    expect([before.gen, before.bin]).toEqual([0, 0]);
    await stepForward(still.page, 1);
    await expect.poll(async () => (await chips(still.page)).find((c) => c.path === '/memcg4')?.bin).toBe(7);
    const after = (await chips(still.page)).find((c) => c.path === '/memcg4')!;
    expect([after.gen, after.bin]).toEqual([0, 7]);
    expect(after.moved).toBe(true);
    expect(inside(after, await binBox(still.page, 0, 7)), 'already in its new bin').toBe(true);

    // With motion: the chip travels from bin 0 to bin 7.
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
    expect([end.gen, end.bin]).toEqual([0, 7]);
    expect(inside(end, await binBox(page, 0, 7))).toBe(true);
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
    // The rest stay, in the same order (the list shows at most 100 decisions, the first of each kind
    // among them, so more may come in between from those not listed).
    const rest = all.filter((k) => k !== 'memcg-lru');
    let at = 0;
    for (const kind of filtered) if (at < rest.length && kind === rest[at]) at++;
    expect(at, `${JSON.stringify(rest)} in order within ${JSON.stringify(filtered)}`).toBe(rest.length);
    expect(filtered.length).toBeGreaterThanOrEqual(rest.length);
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
    const cvText = (await memcgs.getByTestId('pgsteal-cv').textContent())!;
    expect(cvText).toMatch(/^[\d,.]+ %$/);
    expect(Number(cvText.replace(/[ %,]/g, ''))).toBeGreaterThan(0);
    expect(Number(await memcgs.getByTestId('cv-line').getAttribute('data-points'))).toBe(31);
    // The spread chart: a bar per leaf memcg with the table's pgsteal, as tall as its value, and the CV in words.
    const leafSteal = await rows.evaluateAll((trs) =>
      trs.filter((tr) => tr.classList.contains('leaf')).map((tr) => Number(tr.querySelector('[data-testid="pgsteal-bar"]')!.getAttribute('data-value'))),
    );
    await page.waitForTimeout(400);
    const spread = memcgs.getByRole('img', { name: 'pgsteal per memcg' });
    const spreadBars = await spread.getByTestId('spread-bar').evaluateAll((rects) =>
      rects.map((r) => ({ value: Number(r.getAttribute('data-value')), height: r.getBoundingClientRect().height })),
    );
    expect(spreadBars.map((b) => b.value)).toEqual(leafSteal);
    const tallest = spreadBars.reduce((a, b) => (b.value > a.value ? b : a));
    for (const b of spreadBars) expect(b.height, `bar of ${b.value}`).toBeCloseTo((tallest.height * b.value) / tallest.value, 0);
    const described = await spread.getAttribute('aria-describedby');
    expect(await page.locator(`[id="${described}"]`).textContent()).toContain(`(CV ${cvText})`);

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
