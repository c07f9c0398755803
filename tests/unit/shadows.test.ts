// The shadow-LRU view's model: its placement rules on small hand-made
// inputs, and against the real engine (the wasm build) that it shows every
// shadow the engine reports, on the right side of each threshold, and that
// its decision counts are the workingset counters' deltas.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import init, { Engine, type Frame, type RefaultView, type ShadowFrame, type ShadowLruvecView } from '../../web/src/engine/pkg/reclaim_core';
import {
  DISTANCE_SPAN,
  MAX_GEN_COLUMNS,
  chooseLruvec,
  decisionCounts,
  decisionsOf,
  distanceExtent,
  generationColumns,
  refaultRows,
  shadowModel,
  stackLevels,
} from '../../web/src/views/shadows/model';

const WASM = new URL('../../web/src/engine/pkg/reclaim_core_bg.wasm', import.meta.url);

beforeAll(async () => {
  await init({ module_or_path: readFileSync(WASM) });
});

function lruvec(extra: Partial<ShadowLruvecView> = {}): ShadowLruvecView {
  return {
    memcg: '/job',
    node: 0,
    nonresidentAge: 1000,
    bucketOrder: 0,
    swap: true,
    lists: [10, 20, 30, 40],
    thresholds: [],
    shadows: [],
    shadowsTotal: 0,
    ...extra,
  } as ShadowLruvecView;
}

function refault(extra: Partial<RefaultView>): RefaultView {
  return {
    step: 1,
    timeNs: 5,
    page: 'file:r#1',
    tracked: true,
    kind: 'file',
    memcg: '/job',
    node: 0,
    function: 'workingset_refault',
    decision: 'activate',
    refaultCounted: true,
    activateCounted: true,
    restore: false,
    rule: 'rule',
    ...extra,
  } as RefaultView;
}

describe('the decisions each refault model can make', () => {
  it('the classic LRU activates or not; MGLRU v6.12 never activates; patch 004 all four', () => {
    expect(decisionsOf('workingset_test_recent')).toEqual(['activate', 'not recent']);
    expect(decisionsOf('lru_gen_test_recent')).toEqual(['recent', 'not recent', 'ignored']);
    expect(decisionsOf('lru_test_refault')).toEqual(['activate', 'recent', 'not recent', 'ignored']);
  });
});

describe('placement', () => {
  it('ends the distance axis past the largest threshold, at about DISTANCE_SPAN times it, on a whole round count', () => {
    expect(distanceExtent([10, 20], [100, 40])).toBe(140);
    expect(distanceExtent([300], [100])).toBe(350);
    expect(distanceExtent([100_000], [100])).toBe(100 * DISTANCE_SPAN);
    expect(distanceExtent([], [])).toBe(2);
    // Once "2,626.05" (1.25 × 2,100.84): now a whole page count.
    expect(distanceExtent([], [2100.84])).toBe(3000);
    for (const t of [1, 3, 7, 99, 1912, 2626, 12_345]) expect(Number.isInteger(distanceExtent([t * 2], [t]))).toBe(true);
  });

  it('stacks dots that share a pixel bin, in input order', () => {
    expect(stackLevels([0, 1, 20, 2, 40, 21], 10)).toEqual([0, 1, 0, 2, 0, 1]);
  });

  it('shows the generations from the oldest shadow to max_seq, cutting old ones into "older"', () => {
    const few = generationColumns(lruvec({ minSeq: [5, 6], maxSeq: 8, shadows: [{ tokenSeq: 4 } as never] }))!;
    expect(few.columns).toEqual(['seq:4', 'seq:5', 'seq:6', 'seq:7', 'seq:8']);
    expect(few.minSeq).toEqual({ anon: 5, file: 6 });
    const many = generationColumns(lruvec({ minSeq: [40, 40], maxSeq: 43, shadows: [{ tokenSeq: 3 } as never] }))!;
    expect(many.columns).toHaveLength(MAX_GEN_COLUMNS);
    expect(many.columns[0]).toBe('older');
    expect(many.columns[many.columns.length - 1]).toBe('seq:43');
    expect(generationColumns(lruvec())).toBeNull();
  });

  it('picks the chosen lruvec, else the selected page\'s, else the one with most shadows', () => {
    const a = lruvec({ memcg: '/a', shadowsTotal: 5, shadows: [{ page: 'file:x#0' } as never] });
    const b = lruvec({ memcg: '/b', shadowsTotal: 9 });
    const frame = { model: 'workingset_test_recent', lruvecs: [a, b], refaults: [], refaultsDropped: 0 } as ShadowFrame;
    expect(chooseLruvec(frame, '/a@0', null)).toBe(a);
    expect(chooseLruvec(frame, null, 'file:x#0')).toBe(a);
    expect(chooseLruvec(frame, '/gone@0', null)).toBe(b);
  });

  it('writes what each refault compared, with the sign that held', () => {
    const rows = refaultRows([
      refault({ distance: 812, threshold: 1024, comparison: '<=', decision: 'activate', restore: true }),
      refault({ distance: 1024, threshold: 1024, comparison: '<', decision: 'recent', tokenSeq: 7, minSeq: 7, tier: 1, tierBefore: 1 }),
      refault({ distance: 5000, threshold: 1024, comparison: '<=', decision: 'not recent' }),
      refault({ tokenSeq: 3, minSeq: 7, decision: 'not recent', tier: 2, tierBefore: 1 }),
    ]);
    expect(rows.map((r) => r.checks)).toEqual([['812 ≤ 1,024'], ['1,024 ≥ 1,024', 'gen 7 = min_seq 7'], ['5,000 > 1,024'], ['gen 3 < min_seq 7']]);
    expect(rows.map((r) => r.extras)).toEqual([['restore'], [], [], ['tier 1→2']]);
  });
});

/** Runs a scenario in the wasm engine one step at a time. */
function run(name: string, params: Record<string, number>, steps: number, onStep: (frame: Frame, previous: Frame) => void): void {
  const engine = new Engine({ name, seed: 2, params: new Map(Object.entries(params)) });
  try {
    let frame = engine.frame();
    for (let i = 0; i < steps; i++) {
      const next = engine.step(1);
      onStep(next, frame);
      frame = next;
    }
  } finally {
    engine.free();
  }
}

const counter = (frame: Frame, name: string) => frame.counters.find((c) => c.name === name)?.value ?? 0;

describe.each([
  ['classic-basic', 'workingset_test_recent'],
  ['mglru-basic', 'lru_gen_test_recent'],
])('%s against the engine', (name, model) => {
  it('places every reported shadow and counts decisions as the kernel counts them', () => {
    let exact = 0;
    let activations = 0;
    run(name, { anon_pages: 3000, file_pages: 3000 }, 120, (frame, previous) => {
      const shadow = frame.shadow!;
      expect(shadow.model).toBe(model);
      for (const l of shadow.lruvecs) {
        const m = shadowModel(shadow, l);
        expect(m.dots.map((d) => d.page)).toEqual(l.shadows.map((s) => s.page));
        if (m.distance) {
          for (const d of m.dots) {
            const t = m.distance.thresholds.find((x) => x.kind === d.kind)!;
            // Filled (would activate) exactly when the distance is within the threshold.
            expect(d.activate).toBe(t.comparison === '≤' ? d.distance! <= t.pages : d.distance! < t.pages);
            expect(d.overflow).toBe(d.distance! > m.distance.xMax);
          }
        }
        if (m.generation) {
          for (const d of m.dots) {
            expect(d.column === 'older' || d.column === `seq:${d.tokenSeq}`).toBe(true);
            expect(d.activate).toBe(d.tokenSeq === m.generation.minSeq[d.kind]);
          }
        }
      }
      if (shadow.refaultsDropped > 0 || shadow.refaults.length === 0) return;
      const counts = decisionCounts(shadow.refaults);
      for (const kind of ['anon', 'file'] as const) {
        const delta = (c: string) => counter(frame, `${c}_${kind}`) - counter(previous, `${c}_${kind}`);
        expect(counts.activateCounted[kind]).toBe(delta('workingset_activate'));
        // MGLRU v6.12 activates no refault: it counts a recent one as workingset_activate.
        if (model === 'lru_gen_test_recent') {
          expect(counts.byDecision.activate[kind]).toBe(0);
          expect(counts.activateCounted[kind]).toBe(counts.byDecision.recent[kind]);
        } else {
          expect(counts.activateCounted[kind]).toBe(counts.byDecision.activate[kind]);
        }
        expect(counts.restore[kind]).toBe(delta('workingset_restore'));
        const refaults = counts.byDecision.activate[kind] + counts.byDecision.recent[kind] + counts.byDecision['not recent'][kind];
        expect(refaults).toBe(delta('workingset_refault'));
        activations += counts.activateCounted[kind];
      }
      exact += 1;
    });
    expect(exact).toBeGreaterThan(50);
    expect(activations).toBeGreaterThan(0);
  });
});
