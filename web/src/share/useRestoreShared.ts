// Opening a shared link: main.tsx has read it (scenario/share.ts) and put
// its run in the address bar as a plain v=1 URL, which the session starts as
// usual. Once that run is up, this hook brings back the rest: it seeks the
// engine to the link's step (first to the step shown before it, so the
// counters' Δ column matches too; the engine is deterministic, so this is
// the same state; a long way shows its progress), selects the tab and the
// lruvec, reruns the comparison the
// link showed (and its check over seeds 1-5, if it had one), reruns the
// check across the parameter ranges if it had one, opens compare mode as the link had it, and once the step is
// reached selects the folio. If the engine refused the run (unknown
// scenario, parameter out of range), it has said why and runs the default
// scenario; the rest of the link is then dropped.
import { useEffect, useRef } from 'react';
import type { ScenarioRequest } from '../engine/pkg/reclaim_core';
import { checkRequest, completeRequest, findExperiment } from '../scenario/presets';
import type { CompareView, ShareTab, SharedView } from '../scenario/share';
import { sameRun } from '../scenario/url';
import type { Simulation } from '../useSimulation';

export interface RestoreTargets {
  setTab(tab: ShareTab): void;
  chooseLruvec(key: string): void;
  select(page: string): void;
  runComparison(request: ScenarioRequest): void;
  /** Checks that comparison on seeds 1 to 5 too. */
  runSeedCheck?(request: ScenarioRequest): void;
  /** Checks the experiment's headlines across its parameter ranges. */
  runRangeCheck?(name: string): void;
  /** Opens compare mode with the link's variants, at its step. */
  setCompare?(view: CompareView): void;
}

export function useRestoreShared(view: SharedView | null, sim: Simulation, targets: RestoreTargets): void {
  /** The link still to restore, and how far: started (tab, lruvec, ...), then the step before its step, then its step. */
  const pending = useRef<{ view: SharedView; stage: 'start' | 'previous' | 'step' } | null>(view ? { view, stage: 'start' } : null);
  const { state, seek } = sim;
  useEffect(() => {
    const p = pending.current;
    if (!p) return;
    const { phase, frame, request, scenarios } = state;
    if (phase === 'failed') pending.current = null;
    if (phase !== 'running' || !frame || !request || !scenarios) return;
    // The run the page started for the link: its bad values back at their defaults.
    const wanted = completeRequest(scenarios, checkRequest(scenarios, p.view.request).request);
    if (!sameRun(wanted, request)) {
      // The engine refused the link's run, or the reader has since started another one.
      pending.current = null;
      return;
    }
    const { view } = p;
    // The step shown before the link's (so the Δ column matches), then the link's step.
    const first = view.previous ?? view.step;
    if (p.stage === 'start') {
      targets.setTab(view.tab);
      if (view.lruvec) targets.chooseLruvec(view.lruvec);
      if (view.comparison && findExperiment(scenarios, request.name)) {
        targets.runComparison(view.comparison);
        if (view.seedCheck) targets.runSeedCheck?.(view.comparison);
      }
      if (view.rangeCheck && findExperiment(scenarios, request.name)) targets.runRangeCheck?.(request.name);
      if (view.compare && findExperiment(scenarios, request.name)) targets.setCompare?.(view.compare);
      p.stage = 'previous';
      if (first !== frame.step) {
        seek(first);
        return;
      }
    }
    if (p.stage === 'previous' && frame.step === first) {
      p.stage = 'step';
      if (view.step !== frame.step) {
        seek(view.step);
        return;
      }
    }
    if (p.stage === 'step' && frame.step === view.step) {
      pending.current = null;
      if (view.folio) targets.select(view.folio);
    }
  }, [state, seek, targets]);
}
