// The page's guided tour: which tour and step is open, and taking the run
// to each step's moment with the page's own commands — the experiment at its
// defaults and seed 1 in the step's variant (Simulation.apply), then the
// step (seek) or the next event of a kind from a step (seek, runUntil), the
// step's view, and the comparison for a result step. Each move supersedes
// the one before (a token), so Next pressed twice lands on the later step.
// Once there, the step's check is read against what the page shows: the
// text holds, or the panel says why not (the reader stepped away, say).
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ScenarioList, ScenarioRequest } from '../engine/pkg/reclaim_core';
import { RUN_KINDS } from '../engine/protocol';
import { RUN_MAX_STEPS } from '../controls/TimelineControls';
import { encodePageUrl } from '../scenario/pageUrl';
import { makeRequest, withoutVariant } from '../scenario/params';
import { completeRequest } from '../scenario/presets';
import { TAB_LABELS, type ShareTab } from '../scenario/share';
import { DEFAULT_SEED, encodeScenarioUrl } from '../scenario/url';
import { replaceAddressQuery } from '../share/address';
import type { ComparisonRunner } from '../useComparison';
import type { Simulation } from '../useSimulation';
import { errorMessage } from '../engine/host';
import { findTour, loadTour, loadedTour } from './index';
import type { Tour, TourInfo, TourStep } from './types';

export interface TourTargets {
  sim: Simulation;
  scenarios: ScenarioList | null;
  comparison: ComparisonRunner;
  setTab(tab: ShareTab): void;
  /** The view tab on screen. */
  tab: ShareTab;
  /** Leaves compare mode if it is on (the tour steps the page's one engine). */
  leaveCompareMode(): void;
}

export interface OpenTour {
  tour: Tour;
  index: number;
  step: TourStep;
  /** True while the run is being taken to the step's moment. */
  moving: boolean;
  /** Why the step's text does not hold of what the page shows (null when it does, or while moving). */
  problem: string | null;
}

/** A tour whose steps are being fetched (the first time it opens), or could not be. */
export interface LoadingTour {
  tour: TourInfo;
  /** The step asked for, 0-based (what trying again opens). */
  index: number;
  /** Why its steps could not be loaded, the browser's words (null while they load). */
  error: string | null;
}

export interface TourController {
  open: OpenTour | null;
  /** A tour asked for whose steps are not there yet (open is null meanwhile). */
  loading: LoadingTour | null;
  /** Whether a tour is open (readable during the render that opens it). */
  isOpen(): boolean;
  /**
   * Opens a tour (by experiment name) at a step, 0-based; without one, at
   * the step it was left at (Exit, Escape) if it was, else the first; false
   * if there is no such tour.
   */
  start(name: string, index?: number): boolean;
  /** The step (0-based) a tour was left at before its end, if it was (what start resumes). */
  leftAt(name: string): number | null;
  next(): void;
  previous(): void;
  /** Takes the run to the open step's moment again. */
  again(): void;
  exit(): void;
}

const keyOf = (request: ScenarioRequest | null): string | null => {
  if (!request) return null;
  try {
    return encodeScenarioUrl(request);
  } catch {
    return null;
  }
};

/** The run a tour step shows: the experiment at its defaults, seed 1, in the step's variant. */
export function tourRequest(scenarios: ScenarioList, tour: Tour, step: TourStep): ScenarioRequest {
  return completeRequest(scenarios, makeRequest(tour.experiment, DEFAULT_SEED, {}, step.variant));
}

export function useTour({ sim, scenarios, comparison, setTab, tab, leaveCompareMode }: TourTargets): TourController {
  // `landed`: the step the move reached (a run to the next event ends where
  // it finds one), taken from the first frame after the move.
  const [at, setAt] = useState<{ tour: Tour; index: number; moving: boolean; landed?: number } | null>(null);
  const [loading, setLoading] = useState<LoadingTour | null>(null);
  const openRef = useRef(false);
  const token = useRef(0);
  /** Where each tour was left before its end (experiment -> step, 0-based). */
  const left = useRef(new Map<string, number>());
  // The latest of what the moves read (they run across renders).
  const live = useRef({ sim, scenarios, comparison, setTab, leaveCompareMode });
  live.current = { sim, scenarios, comparison, setTab, leaveCompareMode };

  const go = useCallback((tour: Tour, index: number) => {
    const my = ++token.current;
    openRef.current = true;
    setLoading(null);
    setAt({ tour, index, moving: true });
    const step = tour.steps[index]!;
    const stale = () => my !== token.current;
    void (async () => {
      const { sim: s, scenarios: list } = live.current;
      if (!list) return;
      live.current.leaveCompareMode();
      const wanted = tourRequest(list, tour, step);
      const position = step.at;
      if (keyOf(s.state.request) !== keyOf(wanted)) {
        // A step with no moment of its own (a comparison) keeps the run's step, as the Variant switch does.
        const keep = position === undefined && s.state.request?.name === wanted.name ? (s.state.frame?.step ?? 0) : 0;
        await s.apply(wanted);
        if (stale()) return;
        if (keep > 0) await live.current.sim.seek(keep);
      }
      if (stale()) return;
      if (position && 'step' in position) {
        await live.current.sim.seek(position.step);
      } else if (position) {
        await live.current.sim.seek(position.from);
        if (stale()) return;
        const label = RUN_KINDS.find((k) => k.kind === position.until)?.label ?? position.until;
        await live.current.sim.runUntil(position.until, label, position.maxSteps ?? RUN_MAX_STEPS);
      }
      if (stale()) return;
      if (step.compare) {
        const { comparison: c } = live.current;
        const asked = withoutVariant(wanted);
        const shown = c.state.status !== 'failed' && keyOf(c.state.request) === keyOf(asked);
        if (!shown) c.run(asked);
      }
      live.current.setTab(step.tab);
      setAt({ tour, index, moving: false });
    })();
  }, []);

  const start = useCallback(
    (name: string, index?: number) => {
      const info = findTour(name);
      if (!info) return false;
      const from = index ?? left.current.get(name) ?? 0;
      left.current.delete(name);
      const open = (tour: Tour) => go(tour, Math.max(0, Math.min(from, tour.steps.length - 1)));
      const ready = loadedTour(name);
      if (ready) {
        open(ready);
        return true;
      }
      // The first time: the steps' chunk comes first; another start or Exit meanwhile wins.
      const my = ++token.current;
      openRef.current = true;
      setAt(null);
      setLoading({ tour: info, index: from, error: null });
      loadTour(name).then(
        (tour) => {
          if (my === token.current) open(tour);
        },
        (error: unknown) => {
          if (my === token.current) {
            setLoading({ tour: info, index: from, error: errorMessage(error) });
          }
        },
      );
      return true;
    },
    [go],
  );
  const leftAt = useCallback((name: string) => left.current.get(name) ?? null, []);
  const next = useCallback(() => {
    if (at && at.index + 1 < at.tour.steps.length) go(at.tour, at.index + 1);
  }, [at, go]);
  const previous = useCallback(() => {
    if (at && at.index > 0) go(at.tour, at.index - 1);
  }, [at, go]);
  const again = useCallback(() => {
    if (at) go(at.tour, at.index);
  }, [at, go]);
  const exit = useCallback(() => {
    token.current++;
    openRef.current = false;
    setLoading(null);
    setAt((was) => {
      // Left before its last step: the Tour button resumes there; finished: it starts again.
      if (was && was.index > 0 && was.index + 1 < was.tour.steps.length) left.current.set(was.tour.experiment, was.index);
      else if (was) left.current.delete(was.tour.experiment);
      return null;
    });
  }, []);
  const isOpen = useCallback(() => openRef.current, []);

  const { frame, request, busy } = sim.state;
  const result = comparison.state;

  // Where the step's move landed: the page is there once the move is over.
  useEffect(() => {
    if (at && !at.moving && at.landed === undefined && busy === null && frame) setAt({ ...at, landed: frame.step });
  }, [at, busy, frame]);

  // The address bar names the open tour and step (tour=...&tourStep=...), so a reader can link to it.
  const linked = useRef(false);
  useEffect(() => {
    if (at && !at.moving && request?.name === at.tour.experiment) {
      linked.current = true;
      replaceQuery(() => encodePageUrl(request, { tour: at.tour.experiment, tourStep: at.index + 1 }));
    } else if (!at && linked.current && request) {
      linked.current = false;
      replaceQuery(() => encodeScenarioUrl(request));
    }
  }, [at, request]);
  const open = useMemo((): OpenTour | null => {
    if (!at) return null;
    const step = at.tour.steps[at.index]!;
    const base = { tour: at.tour, index: at.index, step };
    if (at.moving) return { ...base, moving: true, problem: null };
    if (step.compare && result.status === 'running') return { ...base, moving: true, problem: null };
    if (busy !== null) return { ...base, moving: true, problem: null };
    const problem =
      stepProblem(at.tour, step, scenarios, request, frame, result) ??
      (at.landed !== undefined && frame && frame.step !== at.landed
        ? `the run is at step ${frame.step}, not ${at.landed}`
        : tab !== step.tab
          ? `the ${TAB_LABELS[tab]} tab is shown, not ${TAB_LABELS[step.tab]}`
          : null);
    return { ...base, moving: false, problem };
  }, [at, busy, frame, request, result, scenarios, tab]);

  return useMemo(
    () => ({ open, loading, isOpen, start, leftAt, next, previous, again, exit }),
    [open, loading, isOpen, start, leftAt, next, previous, again, exit],
  );
}

/** Puts a query string in the address bar (without a history entry); a request no URL can carry leaves it. */
function replaceQuery(query: () => string): void {
  try {
    replaceAddressQuery(query());
  } catch {
    // A request the URL codecs refuse: the address bar keeps what it had.
  }
}

/** Why a step's text does not hold of the page's run and frame (null when it does). */
function stepProblem(
  tour: Tour,
  step: TourStep,
  scenarios: ScenarioList | null,
  request: ScenarioRequest | null,
  frame: Parameters<NonNullable<TourStep['check']>>[0] | null,
  comparison: ComparisonRunner['state'],
): string | null {
  if (!scenarios || !request || !frame) return 'the engine is not running';
  if (request.name !== tour.experiment) return `another scenario (${request.name}) is running`;
  if (keyOf(request) !== keyOf(tourRequest(scenarios, tour, step))) {
    return request.variant !== step.variant
      ? `the "${request.variant ?? ''}" variant is running, not "${step.variant}"`
      : 'the run has other parameters or another seed than the tour (its defaults, seed 1)';
  }
  const position = step.at;
  if (position && 'step' in position && frame.step !== position.step) return `the run is at step ${frame.step}, not ${position.step}`;
  if (position && 'from' in position && frame.step <= position.from) return `the run is at step ${frame.step}, before this step's moment`;
  if (step.compare) {
    if (comparison.status === 'failed') return `the comparison failed: ${comparison.error ?? ''}`;
    const result = comparison.result;
    if (!result || keyOf(comparison.request) !== keyOf(withoutVariant(request))) return 'the comparison for the tour is not shown';
    return step.checkComparison?.(result) ?? null;
  }
  return step.check?.(frame) ?? null;
}
