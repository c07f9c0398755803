// Opening a readable link's page keys (scenario/pageUrl.ts: step, tab, tour,
// tourStep, compare) once its run is up: side by side opens with its
// variants at the step; a tour opens at its step (the tour then
// takes the run where the step says), otherwise the engine goes to the step
// and the tab is selected. The run itself was started from the same URL by
// useSimulation; if the engine refused it and runs the default scenario,
// the step and tab are not applied (they belong to the other run). Returns
// what could not be applied, for the page to say.
import { useEffect, useRef, useState } from 'react';
import type { PageViewResult } from '../scenario/pageUrl';
import type { ShareTab } from '../scenario/share';
import { TOURS, findTour, loadTour, type Tour } from '../tours';
import type { TourController } from '../tours/useTour';
import type { Simulation } from '../useSimulation';
import { DEFAULT_SEED } from '../scenario/url';

export interface PageLink extends PageViewResult {
  /** The scenario the URL names (null when it names none). */
  scenario: string | null;
  /** The URL's run keys and values as written (scenario, seed, variant, parameters): what a tour link overrules. */
  run?: readonly (readonly [string, string])[];
}

/** Opens side by side with these variants at this step; returns what was wrong with them, or null. */
export type OpenCompare = (variants: [string, string], step: number) => string | null;

/** Shows a view; returns what was wrong with it (and ignored), or null. */
export type ShowTab = (tab: ShareTab) => string | null;

export function usePageLink(link: PageLink | null, sim: Simulation, setTab: ShowTab, tour: TourController, openCompare: OpenCompare): string[] {
  const pending = useRef(link);
  const [problems, setProblems] = useState<string[]>(() => link?.errors ?? []);
  const { phase, frame, request } = sim.state;
  const { seek } = sim;
  useEffect(() => {
    const p = pending.current;
    if (!p) return;
    if (phase === 'failed') pending.current = null;
    if (phase !== 'running' || !frame || !request) return;
    pending.current = null;
    const { view } = p;
    /** What of a tour link the tour does not honour, once its steps are there (their count, each one's variant). */
    const tourLinkProblems = (found: Tour, asked: number, written: readonly (readonly [string, string])[]) => {
      if (asked >= found.steps.length) {
        setProblems((list) => [...list, `tourStep: the ${found.experiment} tour has ${found.steps.length} steps; opening its last`]);
      }
      // And the run: the tour's experiment at its defaults on seed 1, in each step's variant
      // (the tour's own links write those, which are not news).
      const experiment = sim.state.scenarios?.experiments.find((e) => e.name === found.experiment);
      const stepVariant = found.steps[Math.min(asked, found.steps.length - 1)]!.variant;
      const run = written
        .filter(([key, value]) => {
          if (key === 'scenario') return value !== found.experiment;
          if (key === 'seed') return Number(value) !== DEFAULT_SEED;
          if (key === 'variant') return value !== stepVariant;
          const param = experiment?.params.find((x) => x.name === key);
          return param === undefined || Number(value) !== param.default;
        })
        .map(([key]) => key);
      if (run.length > 0) {
        setProblems((list) => [
          ...list,
          `${run.join(', ')}: a tour link runs the tour's experiment (${found.experiment}) at its defaults on seed 1, in each step's variant; ignored`,
        ]);
      }
    };
    if (view.tour !== undefined) {
      const known = findTour(view.tour);
      if (!known) {
        setProblems((list) => [...list, `tour: there is no tour named ${JSON.stringify(view.tour)} (tours: ${TOURS.map((t) => t.experiment).join(', ')})`]);
        return;
      }
      // A tour step says where the run goes and what it shows.
      const overruled = (['compare', 'step', 'tab'] as const).filter((key) => view[key] !== undefined);
      if (overruled.length > 0) {
        setProblems((list) => [...list, `${overruled.join(', ')}: a tour link opens the tour step, which sets the step and the view itself; ignored`]);
      }
      // The tour opens at the step (its panel says so if its steps cannot be loaded); the rest of what
      // the link asks for is judged against the steps, the load the tour starts (one fetch).
      const run = p.run ?? [];
      const asked = (view.tourStep ?? 1) - 1;
      tour.start(known.experiment, asked);
      void loadTour(known.experiment).then(
        (found) => tourLinkProblems(found, asked, run),
        () => {},
      );
      return;
    }
    if (p.scenario !== null && p.scenario !== request.name) return;
    if (view.compare !== undefined) {
      // Side by side: its own engines go to the step; the page's run stays where it is. After the
      // engine's answer, as below, so that the experiment page's own first tab is set before the link's.
      const { compare, tab } = view;
      void seek(frame.step).then(() => {
        const refused = openCompare(compare, view.step ?? 0);
        const problems = [tab ? setTab(tab) : null, refused].filter((p): p is string => p !== null);
        if (problems.length > 0) setProblems((list) => [...list, ...problems]);
        // Side by side refused: the link's step is the page's own, as without compare.
        if (refused && view.step !== undefined) void seek(view.step);
      });
      return;
    }
    if (view.step === undefined && view.tab === undefined) return;
    const tab = view.tab;
    void seek(view.step ?? frame.step).then(() => {
      const problem = tab ? setTab(tab) : null;
      if (problem) setProblems((list) => [...list, problem]);
    });
  }, [phase, frame, request, seek, setTab, tour, openCompare]);
  return problems;
}
