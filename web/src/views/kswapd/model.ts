// The kswapd timeline's model: what each node's kswapd did over simulated
// time, as segments of one mode (asleep, napping, running). Built in the UI
// from every frame: the mode changes the engine saw since the previous frame
// (`transitions`, with their simulated times, covering every step of a
// multi-step frame, so a wake-up shorter than a step still shows) and the
// mode at the end of the frame. DOM-free.
import type { KswapdMode, KswapdView } from '../../engine/pkg/reclaim_core';
import { counted, formatDuration } from '../../util/format';
import { ZONE_NAMES } from '../zones/model';

export const KSWAPD_MODES: readonly KswapdMode[] = ['asleep', 'napping', 'running', 'throttled'];

/** What each mode is (the badge's and the legend's titles). */
export const MODE_HELP: Record<string, string> = {
  running: 'balance_pgdat: reclaiming until the zones are above their high watermark',
  napping: 'kswapd_try_to_sleep: a short nap (HZ/10) before deciding to sleep for good',
  asleep: 'asleep until an allocation finds a zone below its low watermark and wakes it',
  throttled: 'reclaim_throttle inside balance_pgdat: asleep until writeback makes progress (VMSCAN_THROTTLE_WRITEBACK)',
};

export interface KswapdSegment {
  start: number;
  end: number;
  mode: KswapdMode;
  /**
   * False for time the UI has no transitions for (a frame that does not
   * follow the previous one, e.g. after a seek): there the mode is assumed
   * unchanged. Frames from step(n) cover all n steps.
   */
  observed: boolean;
}

/** One node's kswapd over the kept window: closed segments and the one still open. */
export interface KswapdTrack {
  segments: readonly KswapdSegment[];
  /** The open segment: its start, mode and whether it is observed. */
  open: { start: number; mode: KswapdMode; observed: boolean };
  /** When kswapd went to sleep prematurely (simulated ns, oldest first), within the kept window. */
  premature: readonly number[];
  /** The frame the track was last brought up to. */
  step: number;
  timeNs: number;
  /** The latest counters and state. */
  view: KswapdView;
}

/** Adds a closed segment, merging it into the previous one when they read the same. */
function pushSegment(segments: KswapdSegment[], segment: KswapdSegment): void {
  const last = segments[segments.length - 1];
  // Wake-ups of no length still count (kswapd ran): keep them; drop empty stretches of the other modes.
  if (segment.end <= segment.start && segment.mode !== 'running') return;
  if (last && last.mode === segment.mode && last.observed === segment.observed && last.end >= segment.start) {
    segments[segments.length - 1] = { ...last, end: Math.max(last.end, segment.end) };
  } else {
    segments.push(segment);
  }
}

/**
 * The track after a frame. `windowStart`: segments that ended before it are
 * dropped. A first frame (no track) starts the track at its window's
 * start, in the mode kswapd was in then (windowMode), or without a window
 * (or that mode) at the frame's time.
 */
export function appendKswapd(
  track: KswapdTrack | null,
  view: KswapdView,
  at: { step: number; timeNs: number },
  windowStart: number,
): KswapdTrack {
  const mode = view.mode;
  if (!track || at.step <= track.step) {
    // A first frame: its window (a jump's, or a new run opened at a later
    // step) gives the track from the window's start, in the mode kswapd
    // was in then; without one, the track starts at the frame.
    const begin = view.windowStartNs;
    if (view.windowMode == null || begin >= at.timeNs) {
      return { segments: [], open: { start: at.timeNs, mode, observed: true }, premature: [], step: at.step, timeNs: at.timeNs, view };
    }
    track = { segments: [], open: { start: begin, mode: view.windowMode, observed: true }, premature: [], step: -1, timeNs: begin, view };
  }
  const segments: KswapdSegment[] = track.segments.filter((s) => s.end >= windowStart);
  const premature = [...track.premature.filter((t) => t >= windowStart), ...view.prematureAt.filter((t) => t > track.timeNs || track.step < 0)];
  let open = { ...track.open };
  const changes = [...view.transitions].sort((a, b) => a[0] - b[0]);
  for (const [time, m] of changes) {
    if (m === open.mode) continue;
    const t = Math.min(at.timeNs, Math.max(time, open.start));
    pushSegment(segments, { start: open.start, end: t, mode: open.mode, observed: open.observed });
    open = { start: t, mode: m, observed: true };
  }
  if (open.mode !== mode) {
    // The frame's mode wins over a change the transitions missed.
    pushSegment(segments, { start: open.start, end: at.timeNs, mode: open.mode, observed: open.observed });
    open = { start: at.timeNs, mode, observed: true };
  } else if (!open.observed) {
    open = { ...open, observed: true };
  }
  return { segments, open, premature, step: at.step, timeNs: at.timeNs, view };
}

/** A segment on a track `width` px wide: drawn at its true extent, however thin. */
export interface KswapdBar extends KswapdSegment {
  x: number;
  width: number;
}

/**
 * The runs shorter than a pixel whose middle falls in one pixel column: one
 * 1 px tick beside the track, so a short wake-up stays visible without
 * painting more of the track "running" than the time it took.
 */
export interface KswapdTick {
  /** The column's left edge (px). */
  x: number;
  runs: number;
  /** Simulated ns the runs took in total. */
  ns: number;
  /** The first run's start. */
  start: number;
}

/**
 * Consecutive segments shorter than a pixel, packed into stretches of about
 * a pixel: within a stretch each mode's time is painted as one piece, the
 * modes side by side, so the stretch covers the same pixels and each mode
 * the same width as its segments did, with a few pieces instead of one
 * rectangle per segment (kswapd can wake thousands of times in a window).
 */
export interface KswapdPiece {
  mode: KswapdMode;
  observed: boolean;
  x: number;
  width: number;
}

export interface KswapdLayout {
  /** Segments a pixel wide or more, each at its own place and width. */
  bars: KswapdBar[];
  /** The shorter ones, packed (drawn as one path per mode). */
  pieces: KswapdPiece[];
  ticks: KswapdTick[];
  /** Width (px) of the track painted "running": running time / span × width. */
  runningWidth: number;
}

/** Places `segments` on a track of `width` px spanning [start, end] (ns). */
export function kswapdLayout(segments: readonly KswapdSegment[], start: number, end: number, width: number): KswapdLayout {
  const span = Math.max(1, end - start);
  const px = (t: number) => (Math.min(end, Math.max(start, t)) - start) * (width / span);
  const bars: KswapdBar[] = [];
  const pieces: KswapdPiece[] = [];
  // The stretch being packed: where it starts, and each (mode, observed)'s width in it, in order of appearance.
  let pack: { x: number; width: number; parts: Map<string, KswapdPiece> } | null = null;
  const flush = () => {
    if (!pack) return;
    let x = pack.x;
    for (const part of pack.parts.values()) {
      pieces.push({ ...part, x });
      x += part.width;
    }
    pack = null;
  };
  const columns = new Map<number, KswapdTick>();
  let runningWidth = 0;
  for (const s of segments) {
    const x = px(s.start);
    const w = px(s.end) - x;
    if (w >= 1) {
      flush();
      bars.push({ ...s, x, width: w });
    } else if (w > 0 || s.mode === 'running') {
      if (pack && (pack.width + w > 1 || Math.abs(pack.x + pack.width - x) > 1e-6)) flush();
      pack ??= { x, width: 0, parts: new Map() };
      pack.width += w;
      const key = `${s.mode}/${s.observed}`;
      const part = pack.parts.get(key);
      if (part) part.width += w;
      else pack.parts.set(key, { mode: s.mode, observed: s.observed, x, width: w });
    }
    if (s.mode !== 'running') continue;
    runningWidth += w;
    if (w >= 1) continue;
    const column = Math.max(0, Math.min(Math.ceil(width) - 1, Math.floor(x + w / 2)));
    const tick = columns.get(column);
    if (tick) {
      tick.runs += 1;
      tick.ns += s.end - s.start;
    } else {
      columns.set(column, { x: column, runs: 1, ns: s.end - s.start, start: s.start });
    }
  }
  flush();
  const ticks = [...columns.values()].sort((a, b) => a.x - b.x);
  return { bars, pieces, ticks, runningWidth };
}

export interface KswapdModel {
  node: number;
  mode: KswapdMode;
  /** Segments clipped to [start, end], oldest first (the open one closed at `end`). */
  segments: KswapdSegment[];
  start: number;
  end: number;
  /** Simulated ns spent in each mode within the window. */
  time: Record<KswapdMode, number>;
  /** Times kswapd started running within the window. */
  wakeups: number;
  failures: number;
  sleeps: number;
  prematureSleeps: number;
  /** When kswapd went to sleep prematurely within [start, end] (simulated ns). */
  prematureAt: number[];
  /** Sleeps in reclaim_throttle (on writeback) since the run started, and their simulated ns in all (within balance_pgdat). */
  throttles: number;
  throttledNs: number;
  /** kswapd_highest_zoneidx: the zone index it is asked to balance for (null = unset). */
  pendingZoneidx: number | null;
  /** "2 (Normal)" or "unset". */
  pendingText: string;
  label: string;
  summary: string;
}

export function pendingZoneText(index: number | null): string {
  if (index === null) return 'unset';
  const name = ZONE_NAMES[index];
  return name ? `${index} (${name})` : String(index);
}

/** The timeline over [start, end] (the kept window of frames). */
export function kswapdModel(node: number, track: KswapdTrack, start: number, end: number): KswapdModel {
  const all = [...track.segments, { ...track.open, end: track.timeNs }];
  const segments: KswapdSegment[] = [];
  const time: Record<KswapdMode, number> = { asleep: 0, napping: 0, running: 0, throttled: 0 };
  let wakeups = 0;
  let previous: KswapdMode | null = null;
  for (const s of all) {
    const before = previous;
    previous = s.mode;
    if (s.end < start || s.start > end) continue;
    const clipped = { ...s, start: Math.max(s.start, start), end: Math.min(s.end, end) };
    segments.push(clipped);
    time[s.mode] += clipped.end - clipped.start;
    // Running again after a throttle is the same run of balance_pgdat.
    if (s.mode === 'running' && before !== 'throttled') wakeups += 1;
  }
  const view = track.view;
  const pending = view.pendingZoneidx ?? null;
  const mode = view.mode;
  const label = `kswapd timeline of node ${node}`;
  const span = Math.max(0, end - start);
  const percent = (ns: number) => (span > 0 ? `${((100 * ns) / span).toFixed(ns > 0 && ns < span / 1000 ? 2 : 1)}%` : '0%');
  const summary =
    `kswapd of node ${node} is ${mode}. Over the window: running ${percent(time.running)} of the time in ` +
    `${counted(wakeups, 'run')}${time.throttled > 0 ? `, throttled ${percent(time.throttled)}` : ''}, napping ${percent(time.napping)}, asleep ${percent(time.asleep)}. ` +
    `${counted(view.failures, 'failure')}, ${counted(view.sleeps, 'sleep')}, ${counted(view.prematureSleeps, 'premature sleep')}` +
    (view.throttles > 0 ? `, throttled ${counted(view.throttles, 'time')} on writeback (${formatDuration(view.throttledNs)} asleep while running)` : '') +
    '; ' +
    `pending zone index ${pendingZoneText(pending)}.`;
  return {
    node,
    mode,
    segments,
    start,
    end,
    time,
    wakeups,
    failures: view.failures,
    sleeps: view.sleeps,
    prematureSleeps: view.prematureSleeps,
    prematureAt: track.premature.filter((t) => t >= start && t <= end),
    throttles: view.throttles,
    throttledNs: view.throttledNs,
    pendingZoneidx: pending,
    pendingText: pendingZoneText(pending),
    label,
    summary,
  };
}
