// Compare mode for the page: whether it is on (an experiment's page only),
// which two variants it shows, the engines stepping them in lock step
// (useLockstep), its keyboard (→ steps both, ← steps both back, Space plays and pauses, Escape
// leaves), and
// the experiment's comparison table, run when compare mode opens on a run
// whose table is not shown yet. A shared link brings it back with its step.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ExperimentInfo, ScenarioRequest } from '../engine/pkg/reclaim_core';
import { withoutVariant } from '../scenario/params';
import type { CompareView } from '../scenario/share';
import { encodeScenarioUrl } from '../scenario/url';
import type { ComparisonState } from '../useComparison';
import { defaultVariants, pairStep, runKey, sideRequests, type VariantPair } from './lockstep';
import { useLockstep, type Lockstep } from './useLockstep';
import { useStepKeys } from '../controls/stepKeys';
import { COMPARE_PANEL_ID } from './CompareMode';

export interface CompareMode {
  /** On, for the experiment now open. */
  on: boolean;
  variants: VariantPair | null;
  lockstep: Lockstep;
  speed: number;
  setSpeed(speed: number): void;
  toggle(): void;
  chooseVariant(side: 0 | 1, variant: string): void;
  /** Opens compare mode as a shared link had it (once the link's run is up). */
  restore(view: CompareView): void;
  /** What a link keeps of it (undefined when off or not up yet). */
  view: CompareView | undefined;
}

interface Setting {
  experiment: string;
  variants: VariantPair;
}

function keyOf(request: ScenarioRequest | null): string | null {
  if (!request) return null;
  try {
    return encodeScenarioUrl(withoutVariant(request));
  } catch {
    return null;
  }
}

export function useCompareMode(
  experiment: ExperimentInfo | undefined,
  request: ScenarioRequest | null,
  comparison: ComparisonState,
  runComparison: (request: ScenarioRequest) => void,
  /** The page's step: compare mode opens with both sides there. */
  pageStep = 0,
): CompareMode {
  const [setting, setSetting] = useState<Setting | null>(null);
  const [speed, setSpeed] = useState(1);
  const lockstep = useLockstep(speed);
  /** The step the next start goes to (a link's, or the pair's when a variant changes). */
  const startStep = useRef(0);
  /** A link's step, once the start has reached its `previous` (so that the counters' Δ is the link's). */
  const thenStep = useRef<{ from: number; to: number } | null>(null);
  const on = setting !== null && experiment !== undefined && setting.experiment === experiment.name;
  const requestKey = keyOf(request);

  // Another page (a scenario, another experiment) closes compare mode.
  useEffect(() => {
    if (setting && setting.experiment !== experiment?.name) setSetting(null);
  }, [setting, experiment]);

  // The engines follow the page's run (experiment, seed, parameters) and the chosen variants.
  const { start, stop } = lockstep;
  const runningKey = lockstep.state.key;
  const requests = useMemo(
    () => (on && request && setting ? sideRequests(request, setting.variants) : null),
    // The request by its key: a new object for the same run does not restart the engines.
    [on, requestKey, setting],
  );
  useEffect(() => {
    if (!requests) {
      if (runningKey !== null) stop();
      return;
    }
    if (runKey(requests) === runningKey) return;
    const step = startStep.current;
    startStep.current = 0;
    start(requests, step);
  }, [requests, runningKey, start, stop]);

  // The comparison table below, for this run.
  const comparedKey = keyOf(comparison.request);
  const comparing = comparison.status === 'running' || comparison.status === 'done';
  useEffect(() => {
    if (on && request && !(comparing && comparedKey === requestKey)) runComparison(withoutVariant(request));
    // Only when compare mode opens or the run changes, not on every state of the comparison.
  }, [on, requestKey]);

  const toggle = useCallback(() => {
    if (on) setSetting(null);
    else if (experiment) {
      startStep.current = pageStep;
      setSetting({ experiment: experiment.name, variants: defaultVariants(experiment) });
    }
  }, [on, experiment, pageStep]);

  const current = pairStep(lockstep.state);
  const chooseVariant = useCallback(
    (side: 0 | 1, variant: string) => {
      if (!setting) return;
      const variants: VariantPair = [...setting.variants];
      variants[side] = variant;
      startStep.current = current ?? 0;
      setSetting({ ...setting, variants });
    },
    [setting, current],
  );

  const restore = useCallback(
    (view: CompareView) => {
      if (!experiment) return;
      startStep.current = view.previous ?? view.step;
      thenStep.current = view.previous !== undefined ? { from: view.previous, to: view.step } : null;
      setSetting({ experiment: experiment.name, variants: [...view.variants] });
    },
    [experiment],
  );
  // A link with a previous step: started there, then on to its step.
  const { seek } = lockstep;
  useEffect(() => {
    const then = thenStep.current;
    if (then === null || lockstep.state.status !== 'running' || current !== then.from) return;
    thenStep.current = null;
    seek(then.to);
  }, [lockstep.state.status, current, seek]);

  // Keyboard, while compare mode is on: → steps both sides, ← steps them back, Space plays or pauses them.
  const { step, stepBack, play, pause } = lockstep;
  const playing = lockstep.state.playing;
  const running = lockstep.state.status === 'running';
  useStepKeys({ enabled: on && running, playing, step: () => step(1), stepBack, play, pause });

  // Escape leaves side by side, as its Exit button does, unless something else used the key: an open
  // tour closes first, a long seek stops first (TimelineControls), a listbox clears its selection, a
  // field being typed in keeps it.
  const seeking = lockstep.state.busy !== null;
  useEffect(() => {
    if (!on || seeking) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape' || event.defaultPrevented || document.querySelector('.tour-panel')) return;
      // Not from a field being typed in or a list being chosen from: there Escape is the field's.
      const target = event.target;
      if (target instanceof HTMLInputElement || target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return;
      event.preventDefault();
      // The page's own controls come back; a keyboard user who was in side by side lands on the button
      // that reopens it, as after its Exit button (after the focus rescue, which would pick the page's
      // own copy of the control that had the focus).
      const active = document.activeElement;
      const inside = !active || active === document.body || !!document.getElementById(COMPARE_PANEL_ID)?.contains(active);
      setSetting(null);
      if (inside) requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-focus-name="side-by-side"]')?.focus());
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [on, seeking]);

  // A side's previous frame is always of an earlier step (CounterTrail.moveTo).
  const shownBefore = lockstep.state.sides?.[0].previous?.step;
  const view =
    on && setting && current !== null
      ? { variants: setting.variants, step: current, ...(shownBefore !== undefined ? { previous: shownBefore } : {}) }
      : undefined;
  return { on, variants: on && setting ? setting.variants : null, lockstep, speed, setSpeed, toggle, chooseVariant, restore, view };
}
