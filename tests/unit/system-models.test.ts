// The DOM-free models of the system and memcg views: zone histories and
// watermark labels, the kswapd timeline, memcg rows and the pgsteal CV
// line, the memcg LRU layout, memory.reclaim rows and rounds, the event
// kind filter, and the frame histories that feed them.
import { describe, expect, it } from 'vitest';
import type {
  Frame,
  KswapdView,
  MemcgLruView,
  MemcgView,
  NodeView,
  ReclaimView,
  ZoneView,
} from '../../web/src/engine/pkg/reclaim_core';
import { addKinds, capGroups, groupEvents, visibleGroups } from '../../web/src/views/events/model';
import { advanceHistories } from '../../web/src/views/history';
import { appendKswapd, kswapdLayout, kswapdModel, pendingZoneText, type KswapdSegment, type KswapdTrack } from '../../web/src/views/kswapd/model';
import { appendCv, formatCv, memcgsModel, sparkline, type MemcgRow } from '../../web/src/views/memcg/model';
import { spreadModel } from '../../web/src/views/memcg/spread';
import { chipMoves, chipText, memcgLruLayout, type LruRow } from '../../web/src/views/memcg-lru/model';
import { formatOverreclaim, reclaimRows, roundsModel } from '../../web/src/views/reclaim/model';
import { roundTicks } from '../../web/src/views/reclaim/draw';
import {
  appendPoint,
  appendZones,
  spreadLabels,
  zoneChartModel,
  zoneIndex,
  zoneLevel,
  zoneReserves,
  type TimePoint,
} from '../../web/src/views/zones/model';

const zone = (extra: Partial<ZoneView> = {}): ZoneView => ({
  name: 'Normal',
  managed: 16384,
  free: 500,
  min: 223,
  low: 278,
  high: 333,
  lowmemReserve: [0, 0, 0, 0],
  freeTrail: [],
  ...extra,
});

const kswapd = (extra: Partial<KswapdView> = {}): KswapdView => ({
  mode: 'asleep',
  transitions: [],
  windowStartNs: 0,
  windowMode: undefined,
  failures: 0,
  pendingZoneidx: undefined,
  sleeps: 0,
  prematureSleeps: 0,
  prematureAt: [],
  throttles: 0,
  throttledNs: 0,
  ...extra,
});

const node = (extra: Partial<NodeView> = {}): NodeView => ({
  node: 0,
  zones: [zone()],
  kswapd: kswapd(),
  memcgLru: undefined,
  ...extra,
});

const STEP = 10_000_000;

function frame(step: number, extra: Partial<Frame> = {}): Frame {
  return {
    scenario: 'test',
    seed: 1,
    step,
    timeNs: step * STEP,
    counters: [],
    lruvecs: [],
    events: [],
    eventsDropped: 0,
    folios: [],
    folioEvents: [],
    tracked: { spaces: [], cells: new Uint8Array(0) },
    nodes: [node()],
    memcgs: [],
    pgstealCv: 0,
    pgstealCvTrail: [],
    reclaims: [],
    ...extra,
  };
}

const points = (values: number[]): TimePoint[] => values.map((value, i) => ({ step: i, timeNs: i * STEP, value }));

describe('zones model', () => {
  it('keeps the last points of a series', () => {
    let series: TimePoint[] = [];
    for (let i = 0; i < 10; i++) series = appendPoint(series, { step: i, timeNs: i, value: i * 2 }, 4);
    expect(series.map((p) => p.step)).toEqual([6, 7, 8, 9]);
    // The input is not changed.
    const before = [...series];
    appendPoint(series, { step: 10, timeNs: 10, value: 0 }, 4);
    expect(series).toEqual(before);
  });

  it('appends every zone of every node under its key', () => {
    const nodes = [
      node({ zones: [zone({ name: 'DMA', free: 1 }), zone({ name: 'Normal', free: 2 })] }),
      node({ node: 1, zones: [zone({ name: 'Normal', free: 3 })] }),
    ];
    const once = appendZones({}, nodes, { step: 1, timeNs: 10 }, 300);
    const twice = appendZones(once, nodes, { step: 2, timeNs: 20 }, 300);
    expect(Object.keys(twice)).toEqual(['0/DMA', '0/Normal', '1/Normal']);
    expect(twice['1/Normal']!.map((p) => [p.step, p.value])).toEqual([
      [1, 3],
      [2, 3],
    ]);
  });

  it('takes the steps a frame brings before its own, once each, keeping the last `limit`', () => {
    const at3 = [node({ zones: [zone({ free: 30, freeTrail: [[1, 10], [2, 20]] })] })];
    const once = appendZones({}, at3, { step: 3, timeNs: 30 }, 300);
    expect(once['0/Normal']!.map((p) => [p.step, p.timeNs, p.value])).toEqual([
      [1, 10, 10],
      [2, 20, 20],
      [3, 30, 30],
    ]);
    // A frame whose window overlaps what the series has adds only the new steps.
    const at5 = [node({ zones: [zone({ free: 50, freeTrail: [[2, 20], [3, 30], [4, 40]] })] })];
    const twice = appendZones(once, at5, { step: 5, timeNs: 50 }, 4);
    expect(twice['0/Normal']!.map((p) => p.step)).toEqual([2, 3, 4, 5]);
  });

  it('names the level against the watermarks and the reserves against higher zones', () => {
    expect(zoneLevel(zone({ free: 400 }))).toBe('above-high');
    expect(zoneLevel(zone({ free: 300 }))).toBe('above-low');
    expect(zoneLevel(zone({ free: 250 }))).toBe('below-low');
    expect(zoneLevel(zone({ free: 100 }))).toBe('below-min');
    expect(zoneIndex('DMA32')).toBe(1);
    expect(zoneIndex('HighMem')).toBe(-1);
    expect(zoneReserves({ name: 'DMA', lowmemReserve: [0, 16, 80, 80] })).toEqual([
      { zone: 'DMA32', pages: 16 },
      { zone: 'Normal', pages: 80 },
      { zone: 'Movable', pages: 80 },
    ]);
    expect(zoneReserves({ name: 'Normal', lowmemReserve: [0, 0, 0, 0] })).toEqual([{ zone: 'Movable', pages: 0 }]);
  });

  it('scales to fit, to the watermarks, or automatically', () => {
    const history = points([16384, 9000, 500]);
    const fit = zoneChartModel(0, zone(), history, 'fit');
    expect(fit.yMax).toBe(16384);
    expect(fit.clipped).toBe(false);
    expect(fit.label).toBe('Free pages of zone Normal on node 0');
    expect(fit.watermarks.map((w) => [w.name, w.pages])).toEqual([
      ['min', 223],
      ['low', 278],
      ['high', 333],
    ]);
    const zoomed = zoneChartModel(0, zone(), history, 'watermarks');
    expect(zoomed.yMax).toBe(666);
    expect(zoomed.clipped).toBe(true);
    expect(zoomed.clipNote).toBe('earlier values above the view');
    // Auto: zoomed once free pages are near the watermarks, keeping the current value in view.
    const auto = zoneChartModel(0, zone({ free: 900 }), history, 'auto');
    expect(auto.scale).toBe('watermarks');
    expect(auto.yMax).toBe(Math.ceil(900 * 1.15));
    expect(zoneChartModel(0, zone({ free: 5000 }), history, 'auto').scale).toBe('fit');
    // Explicitly zoomed with free pages far above: says so.
    expect(zoneChartModel(0, zone({ free: 5000 }), history, 'watermarks').clipNote).toBe('free now 5,000: above the view');
  });

  it('spreads labels that would overlap, centred on their values, inside the bounds', () => {
    // Far apart: unchanged.
    expect(spreadLabels([10, 50, 90], 11)).toEqual([10, 50, 90]);
    // Three close values (high, low, min in pixels: high is on top).
    const ys = [52, 50, 48];
    const placed = spreadLabels(ys, 11);
    const sorted = [...placed].sort((a, b) => a - b);
    for (let i = 1; i < sorted.length; i++) expect(sorted[i]! - sorted[i - 1]!).toBeGreaterThanOrEqual(11 - 1e-9);
    // Same order as the values, centred on their mean.
    expect(placed[2]).toBeLessThan(placed[1]!);
    expect(placed[1]).toBeLessThan(placed[0]!);
    expect((placed[0]! + placed[1]! + placed[2]!) / 3).toBeCloseTo(50, 9);
    // At the bottom edge the block moves up to stay inside.
    const low = spreadLabels([99, 100, 100], 10, 0, 100);
    expect(Math.max(...low)).toBeLessThanOrEqual(100);
    expect(new Set(low.map((y) => Math.round(y))).size).toBe(3);
    expect(spreadLabels([], 10)).toEqual([]);
  });
});

describe('kswapd timeline model', () => {
  const t = (step: number) => step * STEP;

  function run(frames: { step: number; view: KswapdView }[], windowStart = 0): KswapdTrack {
    let track: KswapdTrack | null = null;
    for (const f of frames) track = appendKswapd(track, f.view, { step: f.step, timeNs: t(f.step) }, windowStart);
    return track!;
  }

  it('builds segments from the sub-step transitions', () => {
    const track = run([
      { step: 0, view: kswapd() },
      { step: 1, view: kswapd({ transitions: [[0, 'asleep']] }) },
      // Woken in step 2, runs 60 µs, naps.
      {
        step: 2,
        view: kswapd({
          mode: 'napping',
          transitions: [
            [t(1) + 5_000_000, 'running'],
            [t(1) + 5_060_000, 'napping'],
          ],
        }),
      },
      { step: 3, view: kswapd({ mode: 'napping' }) },
    ]);
    const model = kswapdModel(0, track, 0, t(3));
    expect(model.segments.map((s) => [s.mode, s.start, s.end, s.observed])).toEqual([
      ['asleep', 0, t(1) + 5_000_000, true],
      ['running', t(1) + 5_000_000, t(1) + 5_060_000, true],
      ['napping', t(1) + 5_060_000, t(3), true],
    ]);
    expect(model.wakeups).toBe(1);
    expect(model.time.running).toBe(60_000);
    expect(model.time.asleep + model.time.napping + model.time.running).toBe(t(3));
    expect(model.mode).toBe('napping');
    expect(model.label).toBe('kswapd timeline of node 0');
  });

  it('paints a reclaim_throttle sleep as its own mode, within the same run', () => {
    const track = run([
      { step: 0, view: kswapd() },
      {
        step: 1,
        view: kswapd({
          mode: 'running',
          transitions: [
            [t(0) + 1_000_000, 'running'],
            [t(0) + 2_000_000, 'throttled'],
            [t(0) + 7_000_000, 'running'],
          ],
        }),
      },
    ]);
    const model = kswapdModel(0, track, 0, t(1));
    expect(model.segments.map((s) => s.mode)).toEqual(['asleep', 'running', 'throttled', 'running']);
    expect(model.wakeups).toBe(1);
    expect(model.time.throttled).toBe(5_000_000);
    expect(model.time.running).toBe(t(1) - 1_000_000 - 5_000_000);
    expect(model.summary).toContain('in 1 run, throttled 50.0%');
    const layout = kswapdLayout(model.segments, 0, t(1), 100);
    expect(layout.runningWidth).toBeCloseTo((100 * model.time.running) / t(1), 9);
  });

  it("says how often and how long kswapd slept in reclaim_throttle, only once it has", () => {
    const quiet = kswapdModel(0, run([{ step: 0, view: kswapd() }]), 0, t(1));
    expect(quiet.summary).not.toContain('throttled');
    const throttled = kswapdModel(0, run([{ step: 0, view: kswapd({ mode: 'running', throttles: 164, throttledNs: 16_400_000_000 }) }]), 0, t(1));
    expect([throttled.throttles, throttled.throttledNs]).toEqual([164, 16_400_000_000]);
    expect(throttled.summary).toContain('throttled 164 times on writeback (16.4 s asleep while running)');
  });

  it('keeps a run of no length, and trusts the frame mode over missing transitions', () => {
    const track = run([
      { step: 0, view: kswapd() },
      { step: 1, view: kswapd({ transitions: [[t(0) + 10, 'running'], [t(0) + 10, 'napping']], mode: 'napping' }) },
      // The engine says running with no transition: the change is put at the frame's time.
      { step: 2, view: kswapd({ mode: 'running' }) },
    ]);
    const model = kswapdModel(0, track, 0, t(2));
    expect(model.segments.map((s) => [s.mode, s.start, s.end])).toEqual([
      ['asleep', 0, 10],
      ['running', 10, 10],
      ['napping', 10, t(2)],
      ['running', t(2), t(2)],
    ]);
    expect(model.wakeups).toBe(2);
  });

  it('draws the whole window of a first frame (a run opened at a later step, as the variant switch opens one)', () => {
    // The first frame is of step 10, with the transitions since step 2 and kswapd's mode then.
    const opened = kswapd({ mode: 'napping', windowStartNs: t(2), windowMode: 'running', transitions: [[t(3) + 40, 'napping'], [t(6), 'running'], [t(8) + 5, 'napping']] });
    const model = kswapdModel(0, run([{ step: 10, view: opened }]), t(2), t(10));
    expect(model.segments.map((s) => [s.mode, s.start, s.end, s.observed])).toEqual([
      ['running', t(2), t(3) + 40, true],
      ['napping', t(3) + 40, t(6), true],
      ['running', t(6), t(8) + 5, true],
      ['napping', t(8) + 5, t(10), true],
    ]);
    // The run under way at the window's start counts, as a run clipped by the window does.
    expect(model.wakeups).toBe(2);
    // Without kswapd's mode at the window's start (the engine's timeline no longer reaches it), the track starts at the frame.
    const unknown = kswapdModel(0, run([{ step: 10, view: { ...opened, windowMode: undefined } }]), t(2), t(10));
    expect(unknown.segments.map((s) => [s.mode, s.start, s.end])).toEqual([['napping', t(10), t(10)]]);
  });

  it('places every transition of a multi-step frame', () => {
    const track = run([
      { step: 0, view: kswapd() },
      // Ten steps at once: the frame carries the transitions of all ten.
      { step: 10, view: kswapd({ mode: 'napping', transitions: [[t(2) + 50, 'running'], [t(2) + 90, 'napping'], [t(9) + 100, 'running'], [t(9) + 200, 'napping']] }) },
    ]);
    const model = kswapdModel(0, track, 0, t(10));
    expect(model.segments.map((s) => [s.mode, s.start, s.end, s.observed])).toEqual([
      ['asleep', 0, t(2) + 50, true],
      ['running', t(2) + 50, t(2) + 90, true],
      ['napping', t(2) + 90, t(9) + 100, true],
      ['running', t(9) + 100, t(9) + 200, true],
      ['napping', t(9) + 200, t(10), true],
    ]);
    expect(model.wakeups).toBe(2);
  });

  it('drops what ended before the window and clips the rest', () => {
    let track: KswapdTrack | null = null;
    for (let step = 0; step <= 20; step++) {
      const mode = step % 2 === 1 ? 'running' : 'napping';
      track = appendKswapd(track, kswapd({ mode, transitions: step > 0 ? [[t(step - 1) + 1, mode]] : [] }), { step, timeNs: t(step) }, t(Math.max(0, step - 5)));
    }
    expect(track!.segments.every((s) => s.end >= t(15))).toBe(true);
    const model = kswapdModel(0, track!, t(15), t(20));
    expect(model.segments[0]!.start).toBe(t(15));
    expect(model.segments[model.segments.length - 1]!.end).toBe(t(20));
    expect(model.time.asleep + model.time.napping + model.time.running).toBe(t(5));
  });

  it('keeps each premature sleep once, where it began, and drops those before the window', () => {
    let track: KswapdTrack | null = null;
    // A premature sleep in steps 3 and 12; a frame window that starts at the previous frame's time also
    // reports a sleep at that boundary again (step 3's at t(3) in step 4's frame): counted once.
    for (let step = 0; step <= 14; step++) {
      const prematureAt = step === 3 ? [t(2) + 7, t(3)] : step === 4 ? [t(3)] : step === 12 ? [t(11) + 9] : [];
      track = appendKswapd(track, kswapd({ prematureAt, windowStartNs: t(Math.max(0, step - 1)) }), { step, timeNs: t(step) }, t(Math.max(0, step - 10)));
    }
    expect(track!.premature).toEqual([t(11) + 9]);
    expect(kswapdModel(0, track!, t(4), t(14)).prematureAt).toEqual([t(11) + 9]);
    // Within the window both stay, each once.
    let kept: KswapdTrack | null = null;
    for (let step = 0; step <= 14; step++) {
      const prematureAt = step === 3 ? [t(2) + 7, t(3)] : step === 4 ? [t(3)] : step === 12 ? [t(11) + 9] : [];
      kept = appendKswapd(kept, kswapd({ prematureAt }), { step, timeNs: t(step) }, 0);
    }
    expect(kept!.premature).toEqual([t(2) + 7, t(3), t(11) + 9]);
    expect(kswapdModel(0, kept!, t(2) + 8, t(14)).prematureAt).toEqual([t(3), t(11) + 9]);
  });

  it('restarts on a frame that is not later (a reset)', () => {
    const track = run([
      { step: 0, view: kswapd() },
      { step: 5, view: kswapd({ mode: 'running' }) },
      { step: 0, view: kswapd() },
    ]);
    expect(track.segments).toEqual([]);
    expect(track.step).toBe(0);
  });

  it('paints the running share of the track, however many short runs, and ticks them', () => {
    // 146 runs of 120 µs in 3 s (0.58% running) on a 524 px track: no run is a pixel wide.
    const segments: KswapdSegment[] = [];
    let at = 0;
    for (let i = 0; i < 146; i++) {
      const wake = i * 20_000_000 + 7_000_000;
      segments.push({ start: at, end: wake, mode: 'napping', observed: true });
      segments.push({ start: wake, end: wake + 120_000, mode: 'running', observed: true });
      at = wake + 120_000;
    }
    segments.push({ start: at, end: 3e9, mode: 'asleep', observed: true });
    const layout = kswapdLayout(segments, 0, 3e9, 524);
    const drawn = [...layout.bars, ...layout.pieces];
    const running = drawn.filter((b) => b.mode === 'running');
    const share = (146 * 120_000) / 3e9;
    expect(running.reduce((sum, b) => sum + b.width, 0)).toBeCloseTo(layout.runningWidth);
    expect(Math.abs(layout.runningWidth - share * 524)).toBeLessThan(1);
    // Every bar and piece covers its time: the track is painted once over.
    expect(drawn.reduce((sum, b) => sum + b.width, 0)).toBeCloseTo(524);
    // The naps (3.5 px) keep their own bars; each run, shorter than a pixel, is a piece.
    expect(layout.pieces).toHaveLength(146);
    // One 1 px tick per pixel column holding short runs (runs 3.5 px apart: a column each).
    expect(layout.ticks).toHaveLength(146);
    expect(layout.ticks.reduce((sum, t) => sum + t.runs, 0)).toBe(146);
    expect(new Set(layout.ticks.map((t) => t.x)).size).toBe(146);
    expect(layout.ticks.every((t) => Number.isInteger(t.x) && t.x >= 0 && t.x < 524 && t.ns === 120_000)).toBe(true);

    // Crowded into a narrow track, runs share ticks; a run wider than a pixel gets none.
    const narrow = kswapdLayout([...segments, { start: 3e9, end: 4e9, mode: 'running', observed: true }], 0, 4e9, 100);
    expect(narrow.ticks.length).toBeLessThanOrEqual(75);
    expect(narrow.ticks.reduce((sum, t) => sum + t.runs, 0)).toBe(146);
    expect(Math.abs(narrow.runningWidth - ((146 * 120_000 + 1e9) / 4e9) * 100)).toBeLessThan(1);
    expect(narrow.bars[narrow.bars.length - 1]).toMatchObject({ mode: 'running', x: 75, width: 25 });
  });

  it('packs thousands of sub-pixel segments into a few pieces a pixel, keeping each mode\'s share and place', () => {
    // 20,000 wake-ups in 2 s (a run of 10 µs every 100 µs) on a 500 px track: 40 per pixel.
    const segments: KswapdSegment[] = [];
    for (let i = 0; i < 20_000; i++) {
      const at = i * 100_000;
      segments.push({ start: at, end: at + 90_000, mode: 'napping', observed: true });
      segments.push({ start: at + 90_000, end: at + 100_000, mode: 'running', observed: true });
    }
    const layout = kswapdLayout(segments, 0, 2e9, 500);
    expect(layout.bars).toEqual([]);
    // A napping and a running piece for each pixel-wide stretch: about a thousand, not 40,000 rectangles.
    expect(layout.pieces.length).toBeLessThanOrEqual(2 * 500 + 2);
    const width = (mode: string) => layout.pieces.filter((p) => p.mode === mode).reduce((sum, p) => sum + p.width, 0);
    expect(width('running')).toBeCloseTo(50, 6);
    expect(width('napping')).toBeCloseTo(450, 6);
    expect(layout.runningWidth).toBeCloseTo(50, 6);
    // The pieces tile the track in order, without gaps or overlaps.
    let x = 0;
    for (const p of layout.pieces) {
      expect(p.x).toBeCloseTo(x, 6);
      x += p.width;
    }
    expect(x).toBeCloseTo(500, 6);
    // And each pixel-wide stretch holds its own time: the running time in the first 250 px is half of it.
    const firstHalf = layout.pieces.filter((p) => p.mode === 'running' && p.x < 250).reduce((sum, p) => sum + p.width, 0);
    expect(Math.abs(firstHalf - 25)).toBeLessThan(1);
  });

  it('names the pending zone index', () => {
    expect(pendingZoneText(null)).toBe('unset');
    expect(pendingZoneText(2)).toBe('2 (Normal)');
    expect(pendingZoneText(7)).toBe('7');
  });
});

describe('memcgs model', () => {
  const memcg = (path: string, extra: Partial<MemcgView> = {}): MemcgView => ({
    path,
    usage: 0,
    max: undefined,
    high: undefined,
    low: 0,
    min: 0,
    swapUsage: 0,
    pgscan: 0,
    pgsteal: 0,
    eventsLow: 0,
    eventsHigh: 0,
    eventsMax: 0,
    eventsOom: 0,
    eventsOomKill: 0,
    leaf: true,
    ...extra,
  });

  it('spreads pgsteal over the leaves only: mean, the engine\'s CV as a deviation, the bars\' top and the most and least in words', () => {
    const tree = [memcg('/', { leaf: false, pgsteal: 400 }), memcg('/a', { pgsteal: 100 }), memcg('/b', { pgsteal: 300 })];
    // 100 and 300: mean 200, population stddev 100, so the engine's pgsteal_cv is 0.5.
    const spread = spreadModel(tree, 0.5)!;
    expect(spread.bars).toEqual([
      { path: '/a', pgsteal: 100 },
      { path: '/b', pgsteal: 300 },
    ]);
    expect(spread.mean).toBe(200);
    expect(spread.stddev).toBe(100);
    expect(spread.cv).toBe(0.5);
    // mean + stddev (300) reaches the tallest bar: the top is the larger of the two.
    expect(spread.yMax).toBe(300);
    expect(spread.summary).toBe('pgsteal of the 2 leaf memcgs: mean 200, standard deviation 100 (CV 50.0 %); most 300 (/b), least 100 (/a).');
    expect(spreadModel([memcg('/a'), memcg('/b')], NaN)!.summary).toMatch(/none has been reclaimed from yet/);
    expect(spreadModel([memcg('/a'), memcg('/b')], NaN)!.yMax).toBe(1);
    // One leaf has no spread.
    expect(spreadModel([memcg('/', { leaf: false }), memcg('/a', { pgsteal: 5 })], NaN)).toBeNull();
  });

  it('says what the scales run up to, and when nothing is used or reclaimed yet', () => {
    const empty = memcgsModel([memcg('/', { leaf: false }), memcg('/a'), memcg('/b')]);
    expect(empty.usageMax).toBe(1);
    expect(empty.scaleNote).toBe(
      'Bars share one scale per column: usage (no memcg below the root uses a page now), pgscan/pgsteal (none yet). Rows past a scale are clamped (›).',
    );
    expect(memcgsModel([memcg('/a', { usage: 1, pgscan: 1 })]).scaleNote).toMatch(/usage up to 1 page \(.*pgscan\/pgsteal up to 1 \(/);
    expect(memcgsModel([memcg('/a', { usage: 14_379 })]).scaleNote).toMatch(/usage up to 14,379 pages /);
  });

  it('puts the rows on shared scales taken below the root and over the leaves', () => {
    const model = memcgsModel([
      memcg('/', { usage: 3000, pgscan: 400, pgsteal: 300, leaf: false }),
      memcg('/a', { usage: 1000, max: 2000, low: 500, pgscan: 200, pgsteal: 100 }),
      memcg('/b', { usage: 2000, high: 1800, pgscan: 200, pgsteal: 200 }),
    ]);
    expect(model.usageMax).toBe(2000);
    expect(model.reclaimMax).toBe(200);
    expect(model.leaves).toBe(2);
    const [root, a, b] = model.rows as [MemcgRow, MemcgRow, MemcgRow];
    expect(root.usageOffScale).toBe(true);
    expect(root.reclaimOffScale).toBe(true);
    expect(root.usageAt).toBe(1);
    expect(root.depth).toBe(0);
    expect(a.usageAt).toBe(0.5);
    expect(a.marks).toEqual([
      { name: 'max', pages: 2000, at: 1 },
      { name: 'low', pages: 500, at: 0.25 },
    ]);
    expect(a.fill).toBe(0.5);
    expect(a.level).toBe('ok');
    expect(a.pgscanAt).toBe(1);
    expect(a.pgstealAt).toBe(0.5);
    expect(a.efficiency).toBe(0.5);
    expect(a.depth).toBe(1);
    // Limited by memory.high only: filled against it.
    expect(b.fill).toBeCloseTo(2000 / 1800);
    expect(b.level).toBe('full');
    expect(b.usageOffScale).toBe(false);
    expect(b.reclaimOffScale).toBe(false);
  });

  it('formats the coefficient of variation', () => {
    expect(formatCv(Math.sqrt(3))).toBe('173 %');
    expect(formatCv(0.2382)).toBe('23.8 %');
  });

  it('takes the CV of every step a jump brings (the trail of the frame), each once, at its time', () => {
    let series = appendCv([], [], Number.NaN, { step: 1, timeNs: 10 }, 300);
    // A jump from step 1 to step 5: the trail has steps 1 to 4 (1 is already in).
    series = appendCv(series, [[1, Number.NaN], [2, 0.9], [3, 0.7], [4, 0.6]], 0.5, { step: 5, timeNs: 50 }, 300);
    expect(series.map((p) => [p.step, p.timeNs, p.value])).toEqual([[1, 10, Number.NaN], [2, 20, 0.9], [3, 30, 0.7], [4, 40, 0.6], [5, 50, 0.5]]);
    // The last `limit` points are kept.
    expect(appendCv(series, [], 0.4, { step: 6, timeNs: 60 }, 3).map((p) => p.step)).toEqual([4, 5, 6]);
  });

  it('draws the CV history as a small line', () => {
    let series: TimePoint[] = [];
    for (const [i, v] of [0, 0, 1.5, 1, 0.5].entries()) series = appendCv(series, [], v, { step: i, timeNs: i * 100 }, 4);
    expect(series.map((p) => p.value)).toEqual([0, 1.5, 1, 0.5]);
    const spark = sparkline(series, 104, 24, 2);
    expect(spark.points[0]).toEqual([2, 22]);
    expect(spark.points[1]).toEqual([2 + 100 / 3, 2]);
    expect(spark.points[3]![0]).toBe(102);
    expect(spark.last).toBe(0.5);
    expect(sparkline([], 100, 20).points).toEqual([]);
    // Frames where the CV is not defined (nothing reclaimed yet) keep their place on x and draw nothing.
    const gap = sparkline([{ step: 0, timeNs: 0, value: Number.NaN }, { step: 1, timeNs: 10, value: 0.5 }, { step: 2, timeNs: 20, value: 0.25 }], 104, 24, 2);
    expect(gap.points).toHaveLength(2);
    expect(gap.points[0]![0]).toBeCloseTo(52, 6);
    expect(gap.yMax).toBe(0.5);
    expect(gap.last).toBe(0.25);
    // One point: no division by zero.
    expect(sparkline([{ step: 0, timeNs: 5, value: 0 }], 100, 20).points[0]!.every(Number.isFinite)).toBe(true);
  });
});

describe('memcg LRU layout', () => {
  const lru: MemcgLruView = {
    seq: 6,
    oldGen: 0,
    youngGen: 1,
    nrMemcgs: [3, 2, 0],
    bins: [
      [['/memcg7'], [], ['/a/b', '/memcg10'], [], [], [], [], []],
      [[], [], [], [], [], [], [], ['/', '/memcg15']],
      [[], [], [], [], [], [], [], []],
    ],
  };

  it('places every memcg in its generation and bin, head first', () => {
    const layout = memcgLruLayout(0, lru, { width: 600 });
    expect(layout.label).toBe('Memcg LRU of node 0');
    expect(layout.style).toBe('chips');
    expect(layout.chips.map((c) => [c.path, c.gen, c.bin, c.index, c.old])).toEqual([
      ['/memcg7', 0, 0, 0, true],
      ['/a/b', 0, 2, 0, true],
      ['/memcg10', 0, 2, 1, true],
      ['/', 1, 7, 0, false],
      ['/memcg15', 1, 7, 1, false],
    ]);
    expect(layout.rows.map((r) => [r.gen, r.role, r.memcgs])).toEqual([
      [0, 'old', 3],
      [1, 'young', 2],
      [2, 'spare', 0],
    ]);
    expect(layout.bins).toHaveLength(24);
    // The empty spare slot is a thin strip below the others, inside the chart.
    const [oldRow, youngRow, spareRow] = layout.rows as [LruRow, LruRow, LruRow];
    expect(spareRow.height).toBeLessThan(youngRow.height / 2);
    expect(youngRow.y).toBeGreaterThanOrEqual(oldRow.y + oldRow.height);
    expect(spareRow.y).toBeGreaterThanOrEqual(youngRow.y + youngRow.height);
    expect(layout.height).toBeGreaterThanOrEqual(spareRow.y + spareRow.height);
    expect(layout.summary).toContain('gen 2 is the spare slot');
    // Inside their bins, the second below the first.
    const [b2first, b2second] = [layout.chips[1]!, layout.chips[2]!];
    const bin2 = layout.bins.find((b) => b.gen === 0 && b.bin === 2)!;
    for (const c of [b2first, b2second]) {
      expect(c.x).toBeGreaterThan(bin2.x);
      expect(c.x).toBeLessThan(bin2.x + bin2.width);
      expect(c.y).toBeGreaterThan(bin2.y);
      expect(c.y).toBeLessThan(bin2.y + bin2.height);
    }
    expect(b2second.y).toBeGreaterThan(b2first.y);
    expect(layout.chips[1]!.text).toBe('b');
    expect(layout.chips[3]!.text).toBe('/');
    expect(layout.chips[0]!.label).toBe('/memcg7: old generation (gen 0), bin 0, 1st from the head');
    expect(layout.chips[2]!.label).toContain('2nd from the head');
    // When seq advances the titles move on (young becomes old, the spare
    // slot young, the emptied old slot spare); the slots stay put, so a chip
    // in a slot keeps its place.
    const next = memcgLruLayout(0, { ...lru, seq: 7, oldGen: 1, youngGen: 2, nrMemcgs: [0, 2, 0], bins: [lru.bins[2]!, lru.bins[1]!, lru.bins[2]!] }, { width: 600 });
    expect(next.rows.map((r) => r.role)).toEqual(['spare', 'old', 'young']);
    const slash = (l: typeof layout) => l.chips.find((c) => c.path === '/')!;
    expect(slash(next).y).toBe(slash(layout).y - (layout.rows[0]!.height - next.rows[0]!.height));
    expect(next.rows[2]!.height).toBe(youngRow.height);
  });

  it('turns chips into dots when a bin is too crowded for text', () => {
    const crowded: MemcgLruView = {
      seq: 0,
      oldGen: 0,
      youngGen: 1,
      nrMemcgs: [40, 0, 0],
      bins: [[Array.from({ length: 40 }, (_, i) => `/m${i}`), [], [], [], [], [], [], []], [[], [], [], [], [], [], [], []], [[], [], [], [], [], [], [], []]],
    };
    const layout = memcgLruLayout(0, crowded, { width: 600 });
    expect(layout.style).toBe('dots');
    expect(layout.chips).toHaveLength(40);
    const bin = layout.bins[0]!;
    for (const c of layout.chips) {
      expect(c.x).toBeGreaterThan(bin.x);
      expect(c.x).toBeLessThan(bin.x + bin.width);
      expect(c.y).toBeLessThan(bin.y + bin.height);
    }
    expect(new Set(layout.chips.map((c) => `${c.x},${c.y}`)).size).toBe(40);
  });

  it('shortens chip text and finds the memcgs that moved', () => {
    expect(chipText('/memcg10', 20)).toBe('memcg10');
    expect(chipText('/memcg10', 5)).toBe('memc…');
    expect(chipText('/', 3)).toBe('/');
    const after: MemcgLruView = {
      ...lru,
      bins: [
        [[], [], ['/a/b', '/memcg10'], [], [], [], [], []],
        [[], [], [], ['/memcg7'], [], [], [], ['/', '/memcg15']],
      ],
    };
    expect(chipMoves(lru, after)).toEqual([{ path: '/memcg7', from: { gen: 0, bin: 0 }, to: { gen: 1, bin: 3 } }]);
  });
});

describe('memory.reclaim model', () => {
  const write = (startNs: number, extra: Partial<ReclaimView> = {}): ReclaimView => ({
    memcg: '/',
    requested: 256,
    reclaimed: 264,
    overreclaim: 8,
    ok: true,
    startNs,
    durationNs: 5_000_000,
    rounds: [
      { batch: 64, reclaimed: 104 },
      { batch: 38, reclaimed: 52 },
      { batch: 25, reclaimed: 52 },
      { batch: 14, reclaimed: 56 },
    ],
    ...extra,
  });

  it('lists the writes newest first with their overreclaim', () => {
    const rows = reclaimRows([write(200), write(400, { reclaimed: 200, overreclaim: -56, ok: false })]);
    expect(rows.map((r) => [r.key, r.overreclaim, r.ok, r.rounds])).toEqual([
      ['400:/', -56, false, 4],
      ['200:/', 8, true, 4],
    ]);
    expect(rows[1]!.overPercent).toBeCloseTo(3.125);
    expect(formatOverreclaim(rows[1]!)).toBe('+8 (+3.1%)');
    expect(formatOverreclaim(rows[0]!)).toBe('−56 (−22%)');
    // A few pages over a large request: the share in one significant digit, not +0.0%.
    expect(formatOverreclaim({ overreclaim: 3, overPercent: (100 * 3) / 16_381 })).toBe('+3 (+0.02%)');
    expect(formatOverreclaim({ overreclaim: -1, overPercent: -100 / 1_000_000 })).toBe('−1 (−0.0001%)');
    expect(formatOverreclaim({ overreclaim: 0, overPercent: 0 })).toBe('0 (0%)');
    expect(formatOverreclaim({ overreclaim: 3, overPercent: null })).toBe('+3');
  });

  it('charts the rounds: asked, reclaimed, what was left before each', () => {
    const model = roundsModel(write(200));
    expect(model.bars.map((b) => [b.round, b.batch, b.reclaimed, b.over])).toEqual([
      [1, 64, 104, 40],
      [2, 38, 52, 14],
      [3, 25, 52, 27],
      [4, 14, 56, 42],
    ]);
    expect(model.remaining).toEqual([256, 152, 100, 48]);
    expect(model.yMax).toBe(104);
    expect(model.summary).toContain('256 pages requested, 264 reclaimed in 4 rounds');
    expect(roundsModel(write(0, { rounds: [] })).yMax).toBe(1);
  });

  it('names a long write\'s rounds in a few ticks and a short summary', () => {
    expect(roundTicks(4)).toEqual([1, 2, 3, 4]);
    expect(roundTicks(16)).toHaveLength(16);
    // 1,803 rounds of 32 pages (0388536ac291): about eight ticks at a round stride.
    expect(roundTicks(1803)).toEqual([1, 250, 500, 750, 1000, 1250, 1500, 1750]);
    expect(roundTicks(40)).toEqual([1, 5, 10, 15, 20, 25, 30, 35, 40]);
    const rounds = Array.from({ length: 1803 }, () => ({ batch: 32, reclaimed: 32 }));
    const long = roundsModel(write(0, { rounds, requested: 57_696, reclaimed: 57_696 }));
    expect(long.bars).toHaveLength(1803);
    expect(long.summary).toContain('in 1,803 rounds');
    expect(long.summary).toContain('round 24: asked for 32, reclaimed 32; and 1,779 more rounds.');
    expect(long.summary).not.toContain('round 25:');
  });
});

describe('event kinds', () => {
  const ev = (kind: string, reason = 'r') => ({ step: 1, timeNs: 0, kind, function: 'f', reason });

  it('remembers the kinds seen in order of first appearance', () => {
    const seen = addKinds([], [ev('eviction'), ev('aging'), ev('eviction')]);
    expect(seen).toEqual(['eviction', 'aging']);
    // Nothing new: the same array.
    expect(addKinds(seen, [ev('aging')])).toBe(seen);
    expect(addKinds(seen, [ev('kswapd')])).toEqual(['eviction', 'aging', 'kswapd']);
  });

  it('past the cap, lists the first group of every kind (a reclaim round after many evictions), in order', () => {
    const groups = groupEvents([
      ev('eviction', 'a'),
      ev('eviction', 'a'),
      ev('eviction', 'b'),
      ev('aging'),
      ev('eviction', 'c'),
      ev('eviction', 'd'),
      ev('reclaim'),
      ev('reclaim', 'other'),
    ]);
    const { shown, unlisted } = capGroups(groups, 4);
    expect(shown.map((g) => `${g.kind}:${g.reason}`)).toEqual(['eviction:a', 'eviction:b', 'aging:r', 'reclaim:r']);
    expect(unlisted).toBe(3);
    expect(capGroups(groups, 20)).toEqual({ shown: groups, unlisted: 0 });
    // And each kernel function of a kind: an inc_max_seq after many try_to_inc_min_seq.
    const aging = groupEvents([
      ...Array.from({ length: 6 }, (_, i) => ({ ...ev('aging', `/memcg${i}`), function: 'try_to_inc_min_seq' })),
      { ...ev('aging'), function: 'inc_max_seq' },
    ]);
    expect(capGroups(aging, 3).shown.map((g) => g.function)).toEqual(['try_to_inc_min_seq', 'try_to_inc_min_seq', 'inc_max_seq']);
  });

  it('hides the groups of hidden kinds', () => {
    const groups = groupEvents([ev('eviction'), ev('aging'), ev('eviction', 'other')]);
    expect(visibleGroups(groups, new Set()).length).toBe(3);
    expect(visibleGroups(groups, new Set(['eviction'])).map((g) => g.kind)).toEqual(['aging']);
  });
});

describe('frame histories', () => {
  it('keeps the last frames of every series and starts afresh on a reset', () => {
    let h = advanceHistories(null, frame(0));
    for (let step = 1; step <= 12; step++) {
      h = advanceHistories(
        h,
        frame(step, {
          nodes: [node({ zones: [zone({ free: 1000 - step })] })],
          // The engine's CV: NaN until it is defined (a leaf gave back a page and there is another leaf), from step 2 here.
          pgstealCv: step >= 2 ? step / 10 : Number.NaN,
          events: step === 3 ? [{ step, timeNs: 0, kind: 'kswapd', function: 'balance_pgdat', reason: '' }] : [],
        }),
        5,
      );
    }
    expect(h.step).toBe(12);
    expect(h.times).toEqual([8, 9, 10, 11, 12].map((s) => s * STEP));
    expect(h.start).toBe(8 * STEP);
    expect(h.zones['0/Normal']!.map((p) => p.value)).toEqual([992, 991, 990, 989, 988]);
    expect(h.cv.map((p) => p.value)).toEqual([0.8, 0.9, 1, 1.1, 1.2]);
    // Where the engine's CV is not defined (NaN) the series keeps NaN: a gap in its line, not a 0 %.
    const early = advanceHistories(advanceHistories(null, frame(0, { pgstealCv: Number.NaN })), frame(1, { pgstealCv: Number.NaN }));
    expect(early.cv.map((p) => p.value)).toEqual([Number.NaN, Number.NaN]);
    expect(h.kinds).toEqual(['kswapd']);
    expect(h.kswapd).toHaveLength(1);

    const reset = advanceHistories(h, frame(0));
    expect(reset.times).toEqual([0]);
    expect(reset.kinds).toEqual([]);
    expect(reset.zones['0/Normal']).toHaveLength(1);
    // Another run (a new seed) at a later step also starts afresh.
    expect(advanceHistories(h, frame(13, { seed: 2 })).times).toEqual([13 * STEP]);
  });
});
