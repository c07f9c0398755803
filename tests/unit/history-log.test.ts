// The histories after going back (views/history.ts's takeFrame) against the
// real engine: rebuilt at an earlier step they are exactly what they were
// when the run was there, and a frame between two earlier ones continues
// them exactly as stepping there would have.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import init, { Engine } from '../../web/src/engine/pkg/reclaim_core';
import type { Frame } from '../../web/src/engine/pkg/reclaim_core';
import {
  advanceHistories,
  HISTORY_FRAMES,
  historySample,
  LOG_SAMPLES,
  sampleBefore,
  takeFrame,
  windowStart,
  type FrameHistories,
  type HistoryLog,
} from '../../web/src/views/history';

const WASM = new URL('../../web/src/engine/pkg/reclaim_core_bg.wasm', import.meta.url);

beforeAll(async () => {
  await init({ module_or_path: readFileSync(WASM) });
});

const WARM_UP = 100;

/** Steps of uneven sizes, as a page stepping and playing at several speeds sends them. */
const SIZES = [1, 1, 5, 1, 10, 3, 1, 1, 20, 2, 7, 1, 40, 1, 1, 9];

interface Walk {
  engine: Engine;
  frames: Frame[];
  /** The log and the plain fold of advanceHistories after each frame. */
  logs: HistoryLog[];
  folds: FrameHistories[];
}

function walk(name: string, seed: number, limit: number): Walk {
  const engine = new Engine({ name, seed });
  // From step 100, when the node fills and kswapd starts.
  const frames = [engine.step(WARM_UP)];
  const logs = [takeFrame(null, frames[0]!, limit)];
  const folds = [advanceHistories(null, frames[0]!, limit)];
  for (const n of SIZES) {
    const frame = engine.step(n);
    frames.push(frame);
    logs.push(takeFrame(logs.at(-1)!, frame, limit));
    folds.push(advanceHistories(folds.at(-1)!, frame, limit));
  }
  return { engine, frames, logs, folds };
}

describe('the history log', () => {
  it('follows frames forwards exactly as the histories do', () => {
    const w = walk('global-pressure', 3, 8);
    for (let i = 0; i < w.frames.length; i++) expect(w.logs[i]!.histories).toEqual(w.folds[i]);
    const last = w.logs.at(-1)!;
    expect(last.samples.map((s) => s.step)).toEqual(w.frames.map((f) => f.step));
    expect(last.histories.kinds.length).toBeGreaterThan(1);
    expect(last.firstSeen.map(([k]) => k)).toEqual(last.histories.kinds);
    w.engine.free();
  });

  it('rebuilds the histories of an earlier frame exactly', () => {
    const w = walk('global-pressure', 3, 8);
    const log = w.logs.at(-1)!;
    for (const i of [12, 5, 0, 9]) {
      const step = w.frames[i]!.step;
      expect(sampleBefore(log, step)).toBe(step);
      const back = takeFrame(log, w.engine.seek(step, step), 8);
      expect(back.histories, `back to step ${step}`).toEqual(w.folds[i]);
      expect(back.samples).toEqual(w.logs[i]!.samples);
      // Kinds first seen later are forgotten.
      expect(back.firstSeen).toEqual(w.logs[i]!.firstSeen);
    }
    w.engine.free();
  });

  it('draws every step of a jump, as stepping there one at a time does', () => {
    // The zone charts after Go to step 150 (or a link with &step=150) are
    // those of stepping there: the frame brings each step's free pages.
    const stepped = new Engine({ name: 'global-pressure', seed: 3 });
    let fold = advanceHistories(null, stepped.frameSince(0));
    for (let i = 0; i < 150; i++) fold = advanceHistories(fold, stepped.step(1));
    const jumped = new Engine({ name: 'global-pressure', seed: 3 });
    const log = takeFrame(takeFrame(null, jumped.frameSince(0)), jumped.seek(150, 0));
    expect(log.histories.zones).toEqual(fold.zones);
    expect(log.histories.times).toEqual(fold.times);
    expect(log.histories.start).toBe(fold.start);
    // kswapd's track (its `view` is the last frame's own, transitions and all).
    expect(log.histories.kswapd.map((k) => [k.segments, k.open])).toEqual(fold.kswapd.map((k) => [k.segments, k.open]));
    const normal = log.histories.zones['0/Normal']!;
    expect(normal.map((p) => p.step)).toEqual(Array.from({ length: 151 }, (_, i) => i));
    // The node filled and kswapd reclaimed within the jump: not a straight line.
    expect(new Set(normal.map((p) => p.value)).size).toBeGreaterThan(20);
    stepped.free();
    jumped.free();
  });

  it('continues from the frame before when going back between two frames', () => {
    const w = walk('global-pressure', 3, 8);
    const log = w.logs.at(-1)!;
    // Back to a step between frames 12 and 13 (steps 153 and 193).
    const [before, after] = [w.frames[12]!.step, w.frames[13]!.step];
    const target = Math.floor((before + after) / 2);
    expect(sampleBefore(log, target)).toBe(before);
    const back = takeFrame(log, w.engine.seek(target, before), 8);
    // What stepping from frame 12 straight to the target gives.
    const other = new Engine({ name: 'global-pressure', seed: 3 });
    other.step(WARM_UP);
    for (const n of SIZES.slice(0, 12)) other.step(n);
    expect(other.stepCount()).toBe(before);
    const direct = other.step(target - before);
    expect(back.histories).toEqual(advanceHistories(w.folds[12]!, direct, 8));
    expect(back.samples.map((s) => s.step)).toEqual([...w.frames.slice(0, 13).map((f) => f.step), target]);
    // kswapd ran in between: the transitions bridged the gap.
    expect(direct.nodes[0]!.kswapd.transitions.length).toBeGreaterThan(0);
    other.free();
    w.engine.free();
  });

  it('starts afresh for another run, and when going back past what it kept', () => {
    const w = walk('global-pressure', 3, 8);
    const log = w.logs.at(-1)!;
    const otherRun = new Engine({ name: 'global-pressure', seed: 4 });
    const fresh = takeFrame(log, otherRun.step(3), 8);
    expect(fresh.samples.map((s) => s.step)).toEqual([3]);
    expect(fresh.histories).toEqual(advanceHistories(null, otherRun.frame(), 8));
    otherRun.free();

    const trimmed: HistoryLog = { ...log, samples: log.samples.slice(-3) };
    const early = takeFrame(trimmed, w.engine.seek(2, 1), 8);
    expect(early.samples.map((s) => s.step)).toEqual([2]);
    expect(early.histories.times).toHaveLength(1);
    expect(LOG_SAMPLES).toBeGreaterThanOrEqual(2 * 8);
    w.engine.free();
  });

  it('going back past what it kept, rebuilds the histories from a window of the engine, not from the one frame', () => {
    // A page opened at step 700 (a link), then Go to step 200 and to 500: the log has no frame that far back.
    const stepped = new Engine({ name: 'global-pressure', seed: 3 });
    const folds = [advanceHistories(null, stepped.frameSince(0))];
    for (let i = 0; i < 500; i++) folds.push(advanceHistories(folds.at(-1)!, stepped.step(1)));
    const engine = new Engine({ name: 'global-pressure', seed: 3 });
    const opened = takeFrame(null, engine.seek(700, 700 - HISTORY_FRAMES));
    for (const target of [200, 500]) {
      expect(sampleBefore(opened, target)).toBeNull();
      const since = windowStart(opened, target);
      expect(since).toBe(Math.max(0, target - HISTORY_FRAMES));
      const back = takeFrame(opened, engine.seek(target, since));
      const fold = folds[target]!;
      // The zone charts span what stepping there drew over the window (the steps after `since`: the
      // last HISTORY_FRAMES, all but step 0 at 200), not one point.
      const tenMs = 10_000_000;
      expect(back.histories.times, `back to ${target}`).toEqual(fold.times.filter((t) => t > since * tenMs));
      const zones = Object.fromEntries(Object.entries(fold.zones).map(([k, points]) => [k, points.filter((p) => p.step > since)]));
      expect(back.histories.zones, `back to ${target}`).toEqual(zones);
      expect(back.histories.times.length).toBe(HISTORY_FRAMES - (target === 200 ? 100 : 0));
    }
    stepped.free();
    engine.free();
  });

  it('keeps only what the histories use from a frame', () => {
    const engine = new Engine({ name: 'proactive-root', seed: 1 });
    const frame = engine.step(30);
    const sample = historySample(frame);
    expect(sample.nodes.every((n) => n.memcgLru === undefined)).toBe(true);
    expect(frame.nodes.some((n) => n.memcgLru !== undefined)).toBe(true);
    expect(sample.events.map((e) => e.kind)).toEqual([...new Set(frame.events.map((e) => e.kind))]);
    expect(advanceHistories(null, sample)).toEqual(advanceHistories(null, frame));
    engine.free();
  });
});
