// The system and memcg views' models against the real engine (the wasm
// build): the frames of global-pressure and proactive-root carry what the
// views draw, and the UI's histories and statistics agree with the engine.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import init, { Engine } from '../../web/src/engine/pkg/reclaim_core';
import type { Frame } from '../../web/src/engine/pkg/reclaim_core';
import { advanceHistories, type FrameHistories } from '../../web/src/views/history';
import { kswapdModel } from '../../web/src/views/kswapd/model';
import { memcgsModel } from '../../web/src/views/memcg/model';
import { spreadModel } from '../../web/src/views/memcg/spread';
import { chipMoves, memcgLruLayout } from '../../web/src/views/memcg-lru/model';
import { reclaimRows, roundsModel } from '../../web/src/views/reclaim/model';
import { makeRequest } from '../../web/src/scenario/params';
import { zoneChartModel, zoneKey } from '../../web/src/views/zones/model';

const WASM = new URL('../../web/src/engine/pkg/reclaim_core_bg.wasm', import.meta.url);

beforeAll(async () => {
  await init({ module_or_path: readFileSync(WASM) });
});

/** Runs a scenario one step at a time, feeding every frame to the histories. */
function run(name: string, steps: number, onFrame?: (frame: Frame, previous: Frame) => void): { frame: Frame; histories: FrameHistories } {
  const engine = new Engine({ name, seed: 1 });
  try {
    let frame = engine.frame();
    let histories = advanceHistories(null, frame);
    for (let i = 0; i < steps; i++) {
      const next = engine.step(1);
      onFrame?.(next, frame);
      frame = next;
      histories = advanceHistories(histories, frame);
    }
    return { frame, histories };
  } finally {
    engine.free();
  }
}

describe('global-pressure', () => {
  it('draws free pages against the watermarks and kswapd running between naps', () => {
    const { frame, histories } = run('global-pressure', 120);
    const node = frame.nodes[0]!;
    expect(node.zones.map((z) => z.name)).toEqual(['DMA', 'DMA32', 'Normal']);
    for (const z of node.zones) {
      expect(z.min).toBeLessThan(z.low);
      expect(z.low).toBeLessThan(z.high);
      const points = histories.zones[zoneKey(0, z.name)]!;
      expect(points).toHaveLength(121);
      expect(points[points.length - 1]!.value).toBe(z.free);
      const model = zoneChartModel(0, z, points);
      expect(model.watermarks.map((w) => w.pages)).toEqual([z.min, z.low, z.high]);
    }
    // Normal ran down to its low watermark, then kswapd woke and kept it up.
    const normal = histories.zones[zoneKey(0, 'Normal')]!.map((p) => p.value);
    expect(Math.min(...normal)).toBeLessThan(node.zones[2]!.low + 1);
    const kswapd = kswapdModel(0, histories.kswapd[0]!, histories.start, histories.timeNs);
    const runs = kswapd.segments.filter((s) => s.mode === 'running');
    expect(runs.length).toBeGreaterThan(0);
    expect(kswapd.wakeups).toBe(runs.length);
    expect(kswapd.segments.every((s) => s.observed)).toBe(true);
    expect(kswapd.time.running + kswapd.time.napping + kswapd.time.asleep).toBe(histories.timeNs - histories.start);
    // Seen step by step, the segments tile the window.
    for (let i = 1; i < kswapd.segments.length; i++) expect(kswapd.segments[i]!.start).toBe(kswapd.segments[i - 1]!.end);
    expect(histories.kinds).toContain('kswapd');
  });
});

describe('mglru-basic (one leaf memcg)', () => {
  it('has no pgsteal CV to draw: neither the value nor the sparkline nor a jump brings a 0', () => {
    const { frame, histories } = run('mglru-basic', 300, () => {});
    expect(frame.memcgs.filter((m) => m.leaf)).toHaveLength(1);
    expect(frame.memcgs.some((m) => m.leaf && m.pgsteal > 0)).toBe(true);
    expect(histories.cv.every((p) => Number.isNaN(p.value))).toBe(true);
    // A jump brings the same: the engine's trail is not defined either.
    const engine = new Engine(makeRequest('mglru-basic', 1));
    const jump = engine.seek(300, 0);
    expect(jump.pgstealCvTrail.length).toBeGreaterThan(0);
    expect(jump.pgstealCvTrail.every(([, cv]) => Number.isNaN(cv))).toBe(true);
    engine.free();
  });
});

describe('proactive-root', () => {
  it('shows every memcg on the memcg LRU, pgsteal per memcg, its CV, and the writes', () => {
    let rotation: { step: number; moves: ReturnType<typeof chipMoves> } | null = null;
    const { frame, histories } = run('proactive-root', 30, (next, previous) => {
      const [a, b] = [previous.nodes[0]!.memcgLru, next.nodes[0]!.memcgLru];
      if (!rotation && a && b) {
        const moves = chipMoves(a, b);
        if (moves.length > 0) rotation = { step: next.step, moves };
      }
    });
    expect(frame.memcgs).toHaveLength(17);
    const lru = frame.nodes[0]!.memcgLru!;
    const layout = memcgLruLayout(0, lru, { width: 560 });
    expect(layout.chips.map((c) => c.path).sort()).toEqual(frame.memcgs.map((m) => m.path).sort());
    expect(lru.nrMemcgs).toHaveLength(3);
    expect(lru.nrMemcgs[lru.oldGen]! + lru.nrMemcgs[lru.youngGen]!).toBe(17);
    // The third slot (seq - 1) is always empty.
    expect(lru.nrMemcgs.reduce((a, b) => a + b, 0)).toBe(17);
    expect(lru.youngGen).toBe((lru.oldGen + 1) % 3);

    // The engine's CV is the population standard deviation of the leaves' pgsteal over their mean.
    const leaves = frame.memcgs.filter((m) => m.leaf).map((m) => m.pgsteal);
    const mean = leaves.reduce((a, b) => a + b, 0) / leaves.length;
    const sd = Math.sqrt(leaves.reduce((a, v) => a + (v - mean) ** 2, 0) / leaves.length);
    expect(frame.pgstealCv).toBeCloseTo(sd / mean, 9);
    expect(frame.pgstealCv).toBeGreaterThan(0);
    expect(histories.cv[histories.cv.length - 1]!.value).toBe(frame.pgstealCv);
    // The spread chart draws the same leaves and the same CV.
    const spread = spreadModel(frame.memcgs, frame.pgstealCv)!;
    expect(spread.bars.map((b) => b.pgsteal)).toEqual(leaves);
    // Its band is the leaves' own standard deviation.
    expect(spread.stddev).toBeCloseTo(sd, 6);
    const model = memcgsModel(frame.memcgs);
    expect(model.rows.some((r) => r.leaf && r.pgstealAt > 0)).toBe(true);

    // The first write (at 200 ms) and its rounds add up.
    const rows = reclaimRows(frame.reclaims);
    expect(rows.length).toBeGreaterThan(0);
    for (const r of frame.reclaims) {
      expect(r.rounds.reduce((n, x) => n + x.reclaimed, 0)).toBe(r.reclaimed);
      expect(r.overreclaim).toBe(r.reclaimed - r.requested);
      expect(roundsModel(r).bars).toHaveLength(r.rounds.length);
    }

    // The write rotated memcgs on the memcg LRU (the browser test animates this step).
    expect(rotation).not.toBeNull();
    expect(rotation!.step).toBe(21);
    expect(rotation!.moves.map((m) => m.path)).toContain('/memcg4');
  });
});
