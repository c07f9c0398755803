// What the views remember across frames: the engine sends each frame's
// current state only, so the series drawn over time (free pages per zone,
// kswapd's modes, the pgsteal CV) and the event kinds seen so far are kept
// here, over the last HISTORY_FRAMES frames. A pure reducer: a new frame in,
// a new history out (the old one is not changed). DOM-free.
import type { Frame } from '../engine/pkg/reclaim_core';
import { addKinds } from './events/model';
import { appendKswapd, type KswapdTrack } from './kswapd/model';
import { appendCv } from './memcg/model';
import { appendZones, type TimePoint, type ZoneSeries } from './zones/model';

/** How many frames the series keep. */
export const HISTORY_FRAMES = 300;

export interface FrameHistories {
  scenario: string;
  seed: number;
  /** The last frame taken in. */
  step: number;
  timeNs: number;
  /** Simulated time of the oldest kept frame: where the time axes start. */
  start: number;
  /** The times of the kept frames, oldest first. */
  times: readonly number[];
  zones: ZoneSeries;
  /** kswapd per node. */
  kswapd: readonly KswapdTrack[];
  cv: readonly TimePoint[];
  /** Event kinds seen in this run, in order of first appearance. */
  kinds: readonly string[];
}

/**
 * The histories after `frame`. Without a history (a new run), or when the
 * frame is not later than the last one of the same run (a reset), it starts
 * afresh from the frame.
 */
export function advanceHistories(prev: FrameHistories | null, frame: Frame, limit = HISTORY_FRAMES): FrameHistories {
  const fresh = !prev || prev.scenario !== frame.scenario || prev.seed !== frame.seed || frame.step <= prev.step;
  const base: FrameHistories = fresh
    ? { scenario: frame.scenario, seed: frame.seed, step: -1, timeNs: 0, start: frame.timeNs, times: [], zones: {}, kswapd: [], cv: [], kinds: [] }
    : prev;
  const at = { step: frame.step, timeNs: frame.timeNs };
  const times = [...base.times.slice(Math.max(0, base.times.length - limit + 1)), frame.timeNs];
  const start = times[0]!;
  return {
    scenario: frame.scenario,
    seed: frame.seed,
    step: frame.step,
    timeNs: frame.timeNs,
    start,
    times,
    zones: appendZones(base.zones, frame.nodes, at, limit),
    kswapd: frame.nodes.map((n, i) => appendKswapd(fresh ? null : (base.kswapd[i] ?? null), n.kswapd, at, start)),
    cv: appendCv(base.cv, frame.pgstealCv, at, limit),
    kinds: addKinds(base.kinds, frame.events),
  };
}
