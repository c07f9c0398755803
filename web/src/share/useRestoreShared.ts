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
// scenario; the rest of the link is then dropped. What the run cannot show
// (a comparison of a plain scenario, an unknown variant side by side, a
// folio it does not track) is left out and returned, for the page to say.
import { useEffect, useRef, useState } from 'react';
import type { ScenarioRequest } from '../engine/pkg/reclaim_core';
import { checkRequest, completeRequest, findExperiment } from '../scenario/presets';
import { runNamed } from '../scenario/custom';
import type { CompareView, ShareTab, SharedView } from '../scenario/share';
import { sameRun } from '../scenario/url';
import type { Simulation } from '../useSimulation';

export interface RestoreTargets {
  /** Each returns what was wrong with the value (and ignored), or null. */
  setTab(tab: ShareTab): string | null;
  chooseLruvec(key: string): string | null;
  select(page: string): string | null;
  runComparison(request: ScenarioRequest): void;
  /** Checks that comparison on seeds 1 to 5 too. */
  runSeedCheck?(request: ScenarioRequest): void;
  /** Checks the experiment's headlines across its parameter ranges. */
  runRangeCheck?(name: string): void;
  /** Opens compare mode with the link's variants, at its step; returns what was wrong with them, or null. */
  openCompare?(variants: CompareView['variants'], step: number, previous?: number): string | null;
}

/** A shared link's parts that only an experiment has. */
const EXPERIMENT_ONLY = ['comparison', 'ranges', 'compare'] as const;

export function useRestoreShared(view: SharedView | null, sim: Simulation, targets: RestoreTargets): string[] {
  const [problems, setProblems] = useState<string[]>([]);
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
    const found: string[] = [];
    const note = (problem: string | null | undefined) => {
      if (problem) found.push(problem);
    };
    const flush = () => {
      const said = found.splice(0);
      if (said.length > 0) setProblems((list) => [...list, ...said]);
    };
    if (p.stage === 'start') {
      note(targets.setTab(view.tab));
      if (view.lruvec) note(targets.chooseLruvec(view.lruvec));
      if (findExperiment(scenarios, request.name)) {
        if (view.comparison) {
          targets.runComparison(view.comparison);
          if (view.seedCheck) targets.runSeedCheck?.(view.comparison);
        }
        if (view.rangeCheck) targets.runRangeCheck?.(request.name);
        if (view.compare) note(targets.openCompare?.(view.compare.variants, view.compare.step, view.compare.previous));
      } else {
        const given = { comparison: view.comparison, ranges: view.rangeCheck, compare: view.compare };
        for (const part of EXPERIMENT_ONLY) {
          if (given[part]) found.push(`${part}: ${runNamed(request)} is not an experiment, so it has no ${part === 'ranges' ? 'parameter ranges to check' : 'variants to compare'}; ignored`);
        }
      }
      flush();
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
      if (view.folio) note(targets.select(view.folio));
      flush();
    }
  }, [state, seek, targets]);
  return problems;
}
