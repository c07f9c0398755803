// What the views remember across frames: the engine sends each frame's
// current state only, so the series drawn over time (free pages per zone,
// kswapd's modes, the pgsteal CV) and the event kinds seen so far are kept
// here, over the last HISTORY_FRAMES frames. A pure reducer: a new frame in,
// a new history out (the old one is not changed). DOM-free.
//
// Going back (step back, the timeline) rebuilds them: a HistoryLog keeps
// what the histories took from each frame, so the histories at an earlier
// step are those folded from the frames up to it, exactly what they were
// when the run was there.
import type { EventView, Frame, NodeView } from '../engine/pkg/reclaim_core';
import { addKinds } from './events/model';
import { appendKswapd, type KswapdTrack } from './kswapd/model';
import { appendCv } from './memcg/model';
import { appendZones, timeOfStep, trailSteps, type TimePoint, type ZoneSeries } from './zones/model';

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

/** What the histories take from a frame. */
export interface HistorySample {
  scenario: string;
  seed: number;
  step: number;
  timeNs: number;
  nodes: readonly NodeView[];
  /** The CV at this step, NaN where it is not defined (the line has a gap there, not a 0 %). */
  pgstealCv: number;
  /** The CV at the earlier steps of the frame's window (a jump brings them all): [step, CV or NaN]. */
  pgstealCvTrail: readonly (readonly [number, number])[];
  events: readonly Pick<EventView, 'kind'>[];
}

/**
 * The histories after `frame`. Without a history (a new run), or when the
 * frame is not later than the last one of the same run (a reset), it starts
 * afresh from the frame.
 */
export function advanceHistories(prev: FrameHistories | null, frame: HistorySample, limit = HISTORY_FRAMES): FrameHistories {
  const fresh = !prev || prev.scenario !== frame.scenario || prev.seed !== frame.seed || frame.step <= prev.step;
  const base: FrameHistories = fresh
    ? { scenario: frame.scenario, seed: frame.seed, step: -1, timeNs: 0, start: frame.timeNs, times: [], zones: {}, kswapd: [], cv: [], kinds: [] }
    : prev;
  const at = { step: frame.step, timeNs: frame.timeNs };
  // The times of the steps the frame brings: those of its window (a jump) and its own.
  const last = base.step;
  const brought = [...trailSteps(frame.nodes).filter((s) => s > last && s < frame.step).map((s) => timeOfStep(s, at)), frame.timeNs];
  const times = [...base.times, ...brought].slice(-limit);
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
    cv: appendCv(base.cv, frame.pgstealCvTrail, frame.pgstealCv, at, limit),
    kinds: addKinds(base.kinds, frame.events),
  };
}

/** Frames the log keeps for rebuilding the histories (the histories keep HISTORY_FRAMES). */
export const LOG_SAMPLES = 2 * HISTORY_FRAMES;

/** The histories and what they were folded from. */
export interface HistoryLog {
  /** What the histories took from each frame, oldest first (the last LOG_SAMPLES; steps ascending). */
  samples: readonly HistorySample[];
  /** Every event kind seen, with the step of the frame it was first seen in, in that order. */
  firstSeen: readonly (readonly [kind: string, step: number])[];
  histories: FrameHistories;
}

/** The part of a frame the histories use (without the memcg LRU's bins; one event per kind). */
export function historySample(frame: Frame | HistorySample): HistorySample {
  const kinds = [...new Set(frame.events.map((e) => e.kind))];
  return {
    scenario: frame.scenario,
    seed: frame.seed,
    step: frame.step,
    timeNs: frame.timeNs,
    nodes: frame.nodes.map((n) => (n.memcgLru === undefined ? n : { ...n, memcgLru: undefined })),
    pgstealCv: frame.pgstealCv,
    pgstealCvTrail: frame.pgstealCvTrail,
    events: kinds.map((kind) => ({ kind })),
  };
}

function addFirstSeen(seen: HistoryLog['firstSeen'], sample: HistorySample): HistoryLog['firstSeen'] {
  const fresh = sample.events.filter((e) => !seen.some(([k]) => k === e.kind));
  return fresh.length === 0 ? seen : [...seen, ...fresh.map((e) => [e.kind, sample.step] as const)];
}

function withKinds(histories: FrameHistories, firstSeen: HistoryLog['firstSeen']): FrameHistories {
  const kinds = firstSeen.map(([k]) => k);
  const same = kinds.length === histories.kinds.length && kinds.every((k, i) => k === histories.kinds[i]);
  return same ? histories : { ...histories, kinds };
}

/** The step of the last frame taken in at or before `step` (where a frame of `step` should start its kswapd transitions), or null. */
export function sampleBefore(log: HistoryLog | null, step: number): number | null {
  if (!log) return null;
  for (let i = log.samples.length - 1; i >= 0; i--) {
    const s = log.samples[i]!;
    if (s.step <= step) return s.step;
  }
  return null;
}

/**
 * Where the window of a frame of `step` should start, so that the histories
 * after it are what they were when the run was there: at the last frame
 * taken in at or before it (its transitions follow on), or, where the log has
 * none (it was opened at a later step, or has dropped the frames that far
 * back), HISTORY_FRAMES steps back, so that the frame brings the series'
 * whole span (the engine keeps as many steps of trail) and the histories are
 * built afresh from it rather than from the one frame.
 */
export function windowStart(log: HistoryLog | null, step: number): number {
  return sampleBefore(log, step) ?? Math.max(0, step - HISTORY_FRAMES);
}

/**
 * The log after `frame`. A later frame of the same run extends it; an
 * earlier one (a step back or a seek back) drops what came after it and
 * rebuilds the histories from the frames up to it (taking the frame in when
 * the log has no frame of its step: its transitions should start at
 * sampleBefore(log, frame.step)). Another run, or no log, starts afresh.
 */
export function takeFrame(log: HistoryLog | null, frame: Frame | HistorySample, limit = HISTORY_FRAMES): HistoryLog {
  const sample = historySample(frame);
  const last = log?.samples[log.samples.length - 1];
  if (!log || !last || last.scenario !== sample.scenario || last.seed !== sample.seed) {
    const firstSeen = addFirstSeen([], sample);
    return { samples: [sample], firstSeen, histories: withKinds(advanceHistories(null, sample, limit), firstSeen) };
  }
  if (sample.step > last.step) {
    const samples = [...log.samples.slice(Math.max(0, log.samples.length - LOG_SAMPLES + 1)), sample];
    const firstSeen = addFirstSeen(log.firstSeen, sample);
    return { samples, firstSeen, histories: withKinds(advanceHistories(log.histories, sample, limit), firstSeen) };
  }
  const kept = log.samples.filter((s) => s.step <= sample.step);
  if (kept.length === 0) return takeFrame(null, sample, limit);
  let firstSeen: HistoryLog['firstSeen'] = log.firstSeen.filter(([, step]) => step <= sample.step);
  if (kept[kept.length - 1]!.step !== sample.step) {
    kept.push(sample);
    firstSeen = addFirstSeen(firstSeen, sample);
  }
  let histories: FrameHistories | null = null;
  for (const s of kept) histories = advanceHistories(histories, s, limit);
  return { samples: kept, firstSeen, histories: withKinds(histories!, firstSeen) };
}
