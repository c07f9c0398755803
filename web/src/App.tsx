// Reclaim Lab's page: React lays out the panels and owns the containers; the
// views draw inside them from the engine's frames.
import { Suspense, useCallback, useEffect, useLayoutEffect, useMemo, useState } from 'react';
import { StepControls } from './controls/StepControls';
import { useStepKeys } from './controls/stepKeys';
import { stepAnnouncement } from './controls/announce';
import { TimelineControls } from './controls/TimelineControls';
import { ScenarioForm } from './controls/ScenarioForm';
import { Tabs, tabId, tabPanelId } from './controls/Tabs';
import { VariantSwitch } from './controls/VariantSwitch';
import { completeRequest, findExperiment, findScenario } from './scenario/presets';
import { withoutVariant } from './scenario/params';
import { encodeScenarioUrl } from './scenario/url';
import { pointRequest, rangeCheckRequest, useComparison, useRangeCheck, useSeedCheck } from './useComparison';
import { useSimulation, TICK_MS } from './useSimulation';
import { formatCount, formatMs } from './util/format';
import { LruPanel, MemcgsPanel, SCENARIO_FIRST_TAB, SystemPanel, tabsFor, type TabKey } from './panels';
import { ScenarioAbout } from './ScenarioText';
import { CountersTable } from './views/counters/CountersTable';
import type { FolioHistory as History, ScenarioRequest } from './engine/pkg/reclaim_core';
import { errorMessage } from './engine/host';
import { EXPERIMENT_RUN_KIND, SCENARIO_RUN_KIND } from './engine/protocol';
import { ComparisonView } from './views/comparison/ComparisonView';
import { RangeCheck } from './views/comparison/RangeCheck';
import { EventList } from './views/events/EventList';
import { FolioHistory } from './views/folio/FolioHistory';
import { useTrackedFolios } from './views/generations/useTrackedFolios';
import { ShadowsView } from './views/shadows/ShadowsView';
import type { ShareTab, SharedLink } from './scenario/share';
import { lruvecKey } from './views/generations/model';
import { ShareBar, type PageSnapshot } from './share/ShareBar';
import { LinkProblems } from './share/LinkProblems';
import { SharedLinkNotice } from './share/SharedLinkNotice';
import { useRestoreShared } from './share/useRestoreShared';
import { ThemeSwitch } from './theme/ThemeSwitch';
import { COMPARE_PANEL_ID, CompareMode, CompareToggle, isCompareView } from './compare/CompareMode';
import { useCompareMode } from './compare/useCompareMode';
import type { CompareViewKey } from './compare/CompareSide';
import { CustomScenario } from './editor/CustomScenario';
import { customTitle, isCustomRequest, runNamed } from './scenario/custom';
import { lazyPart } from './util/lazyPart';
import { StartHere } from './tours/StartHere';
import { useTour } from './tours/useTour';
import { TOURS, findTour } from './tours';
import { useAddressBar } from './share/useAddressBar';
import { usePageLink, type PageLink } from './share/usePageLink';
import { PageLinkNotice } from './share/PageLinkNotice';
import { TraceEntry } from './trace/TraceEntry';

/** Transition length when stepping by hand; while playing it follows the tick. */
const STEP_TRANSITION_MS = 450;
/** The tour's panel and its placement: loaded when a tour first opens (docs/performance.md). */
const TourPanel = lazyPart('The tour panel', () => import('./tours/TourPanel').then((m) => m.TourPanel));
const TABS_ID = 'views';

const NO_LINK: SharedLink = { kind: 'none' };

/**
 * The skip link: past the header, the controls and the form, to the views'
 * selected tab (about 25 Tab presses on an experiment's page). It moves the
 * focus itself: the address's hash belongs to shared links.
 */
function skipToViews(event: React.MouseEvent<HTMLAnchorElement>): void {
  event.preventDefault();
  document.querySelector<HTMLElement>('.workspace [role="tab"][aria-selected="true"]')?.focus();
}

/**
 * `shared`: the shared link the page was opened with (main.tsx has read it);
 * `page`: a readable link's page keys (step, tab, tour), when it has any.
 */
export function App({ shared = NO_LINK, page = null, linkNotes = [] }: { shared?: SharedLink; page?: PageLink | null; linkNotes?: readonly string[] }) {
  const [speed, setSpeed] = useState(1);
  const sim = useSimulation(speed);
  const { state } = sim;
  const { frame, previous, request, scenarios } = state;
  const running = state.phase === 'running' && frame !== null;
  const info = scenarios && request ? findScenario(scenarios, request.name) : undefined;
  const experiment = scenarios && request ? findExperiment(scenarios, request.name) : undefined;
  const comparison = useComparison();
  const seedCheck = useSeedCheck();
  const rangeCheck = useRangeCheck(experiment);
  // A range check can take minutes: leaving its experiment stops it.
  const { cancel: cancelRangeCheck } = rangeCheck;
  const rangeCheckOf = rangeCheck.state.status === 'running' ? rangeCheck.state.request?.name : undefined;
  useEffect(() => {
    if (rangeCheckOf !== undefined && rangeCheckOf !== request?.name) cancelRangeCheck();
  }, [rangeCheckOf, request?.name, cancelRangeCheck]);
  // Compare mode (an experiment's two variants side by side, in engines of their own).
  const compareMode = useCompareMode(experiment, request, comparison.state, comparison.run, frame?.step ?? 0);
  const custom = request && isCustomRequest(request) ? customTitle(request) : null;

  // The selected tracked folio and its history, read again after every frame.
  const [selected, setSelected] = useState<string | null>(null);
  const [history, setHistory] = useState<{
    page: string;
    /** The step of the frame the history was read after. */
    step: number;
    history: History | null;
    error: string | null;
  } | null>(null);
  const tracked = useTrackedFolios(frame);
  const selectedFolio = tracked.record(selected);
  const loadHistory = sim.history;
  useEffect(() => {
    if (!selected || !frame) return;
    let current = true;
    const step = frame.step;
    loadHistory(selected).then(
      (h) => current && setHistory({ page: selected, step, history: h, error: null }),
      (error: unknown) => current && setHistory({ page: selected, step, history: null, error: errorMessage(error) }),
    );
    return () => {
      current = false;
    };
  }, [selected, frame, loadHistory]);
  // A new scenario may not track the selected page.
  useEffect(() => {
    if (selected && frame && !tracked.record(selected)) setSelected(null);
  }, [selected, frame, tracked]);
  const select = useCallback((page: string | null) => setSelected(page), []);
  const selectedLruvec = selectedFolio && frame?.lruvecs.find((l) => l.memcg === selectedFolio.memcg);

  // The views' tabs: the LRU first; the others when the frame has something for them.
  const [tab, setTab] = useState<TabKey>('lru');
  const tabs = useMemo(() => (frame ? tabsFor(frame, experiment) : []), [frame, experiment]);
  const shownTab = tabs.some((t) => t.key === tab) ? tab : 'lru';
  // The guided tour of an experiment (web/src/tours): it moves the run and picks the tab itself.
  const leaveCompareMode = compareMode.on ? compareMode.toggle : () => {};
  const tour = useTour({ sim, scenarios, comparison, setTab, tab: shownTab, leaveCompareMode });
  /** Where this experiment's tour was left before its end (what its Tour button resumes), if it was. */
  const tourLeftAt = experiment ? tour.leftAt(experiment.name) : null;
  // A readable link's side by side (compare=LEFT,RIGHT): its variants must be the experiment's.
  const { restore: restoreCompare } = compareMode;
  const openCompare = useCallback(
    (variants: [string, string], step: number, previous?: number): string | null => {
      if (!experiment) return `compare: ${request ? runNamed(request) : 'this scenario'} is not an experiment, so it has no variants to put side by side; ignored`;
      const names = experiment.variants.map((v) => v.name);
      const unknown = variants.find((v) => !names.includes(v));
      if (unknown !== undefined) return `compare: ${JSON.stringify(unknown)} is not a variant of ${experiment.name} (${names.join(', ')}); ignored`;
      // The shared link's codec keeps `previous` before `step` (compareOf).
      restoreCompare({ variants, step, ...(previous !== undefined ? { previous } : {}) });
      return null;
    },
    [experiment, request?.name, restoreCompare],
  );
  // A link's tab: the Comparison only where there is one.
  const showTab = useCallback(
    (to: ShareTab): string | null => {
      if (to === 'comparison' && !experiment) return `tab: ${request ? runNamed(request) : 'this scenario'} is not an experiment, so it has no comparison; showing its LRU`;
      setTab(to);
      return null;
    },
    [experiment, request?.name],
  );
  const linkProblems = usePageLink(page, sim, showTab, tour, openCompare);
  // An experiment's page opens on its comparison; switching its variant keeps the tab.
  // A layout effect, so the first paint is already the Comparison, not the LRU for a frame.
  const experimentName = experiment?.name;
  const tourOpen = tour.isOpen;
  // A built-in scenario told in another view than the LRU opens on it (SCENARIO_FIRST_TAB).
  const scenarioTab = !experimentName && request ? SCENARIO_FIRST_TAB[request.name] : undefined;
  useLayoutEffect(() => {
    if (experimentName && !tourOpen()) setTab('comparison');
    else if (scenarioTab) setTab(scenarioTab);
  }, [experimentName, scenarioTab, tourOpen]);
  // The Start here strip stays while the first Play goes on (its going would move every view up by its
  // height just as they start to animate); it goes once the run stops past step 0, and comes back at step 0.
  const [startPassed, setStartPassed] = useState(false);
  const leftStart = state.furthest > 0 && !state.playing;
  useEffect(() => {
    if (state.furthest === 0) setStartPassed(false);
    else if (leftStart) setStartPassed(true);
  }, [state.furthest, leftStart]);
  const startShown = state.furthest === 0 || (state.playing && !startPassed);
  const { apply } = sim;
  const runComparison = comparison.run;
  const compare = useCallback(
    (asked: ScenarioRequest) => {
      if (!scenarios || !request) return;
      const full = completeRequest(scenarios, asked);
      // The stepped variant follows the form, so the views and the table are of the same run.
      if (encodeScenarioUrl(full) !== encodeScenarioUrl(request)) apply(full);
      runComparison(full);
      setTab('comparison');
    },
    [scenarios, request, apply, runComparison],
  );
  // The address bar follows the step and the view (a reload or a copied address opens them).
  useAddressBar({
    request,
    step: frame?.step ?? null,
    tab: shownTab,
    firstTab: experiment ? 'comparison' : (scenarioTab ?? 'lru'),
    compare: compareMode.view,
    still: compareMode.on
      ? !compareMode.lockstep.state.playing && compareMode.lockstep.state.inFlight === 0
      : running && !state.playing && state.busy === null,
    // Also while a tour's steps load, or could not be: a reload then opens the tour again.
    elsewhere: tour.open !== null || tour.loading !== null,
  });
  const wide = shownTab === 'comparison' || compareMode.on;
  const [chosenLruvec, setChosenLruvec] = useState<string | null>(null);
  // A shared link: once its run is up, its step, tab, selection and comparison.
  const lruvecs = frame?.lruvecs;
  const restoreTargets = useMemo(
    () => ({
      setTab: showTab,
      chooseLruvec: (key: string) => {
        if (lruvecs && !lruvecs.some((l) => lruvecKey(l) === key)) return `lruvec: this run has no lruvec ${JSON.stringify(key)}; ignored`;
        setChosenLruvec(key);
        return null;
      },
      select: (folio: string) => {
        if (!tracked.record(folio)) return `folio: this run does not track page ${JSON.stringify(folio)}; nothing selected`;
        setSelected(folio);
        return null;
      },
      runComparison,
      runSeedCheck: seedCheck.run,
      runRangeCheck: (name: string) => rangeCheck.run(rangeCheckRequest(name)),
      openCompare,
    }),
    [showTab, lruvecs, tracked, runComparison, seedCheck.run, rangeCheck.run, openCompare],
  );
  const restoreProblems = useRestoreShared(shared.kind === 'ok' ? shared.view : null, sim, restoreTargets);
  // The patch flipped at this moment: the other variant's run, at the same step.
  const switchVariant = async (variant: string) => {
    if (!request || !frame) return;
    await sim.apply({ ...request, variant }, frame.step);
  };
  // Stepping or playing from an experiment's Comparison tab (which the run
  // does not change) opens the view the run is watched in: its tour's first.
  const watchTab = useMemo<TabKey>(
    () => (experiment ? findTour(experiment.name)?.firstTab : undefined) ?? 'lru',
    [experiment],
  );
  // The view side by side opens on: the page's tab when it is one of its views, else the watched one.
  const compareView: CompareViewKey = isCompareView(shownTab) ? shownTab : isCompareView(watchTab) ? watchTab : 'lru';
  const snapshot: PageSnapshot | null =
    frame && request
      ? {
          request,
          frame,
          previous,
          // Side by side, the view its sides show (what a link reopens and an export is named by).
          tab: compareMode.on ? compareView : shownTab,
          tabLabel: compareMode.on ? 'side by side' : (tabs.find((t) => t.key === shownTab)?.label ?? shownTab),
          panelId: compareMode.on ? COMPARE_PANEL_ID : tabPanelId(TABS_ID, shownTab),
          experiment,
          comparison: comparison.state,
          seedCheck: seedCheck.state,
          rangeCheck: rangeCheck.state,
          selected,
          lruvec: chosenLruvec,
          compare: compareMode.view,
          compareSides: compareMode.on
            ? compareMode.lockstep.state.sides?.map((side) => ({ variant: side.request.variant ?? '', step: side.frame.step, counters: side.frame.counters, memcgs: side.frame.memcgs }))
            : undefined,
          // A tour step's link while the page shows that step; once the page has left it, the link is of what it shows.
          tour:
            tour.open && !tour.open.moving && tour.open.problem === null
              ? { experiment: tour.open.tour.experiment, step: tour.open.index + 1 }
              : undefined,
        }
      : null;
  const transitionMs = state.playing ? Math.min(TICK_MS, 200) : STEP_TRANSITION_MS;

  const toWatch = useCallback(() => {
    if (shownTab === 'comparison') setTab(watchTab);
  }, [shownTab, watchTab]);
  const watched = useMemo(
    () => ({
      step: () => {
        toWatch();
        sim.step(1);
      },
      play: () => {
        toWatch();
        sim.play();
      },
      seek: (step: number) => {
        toWatch();
        return sim.seek(step);
      },
      runUntil: (...args: Parameters<typeof sim.runUntil>) => {
        toWatch();
        return sim.runUntil(...args);
      },
    }),
    [sim, toWatch],
  );

  // Keyboard: → steps, ← steps back, Space plays/pauses (not while typing in the form). Compare mode
  // has keys of its own (useCompareMode); while a long jump or run goes, Escape stops it and these wait.
  const busy = state.busy !== null;
  useStepKeys({
    enabled: running && !compareMode.on && !busy,
    playing: state.playing,
    step: watched.step,
    stepBack: sim.stepBack,
    play: watched.play,
    pause: sim.pause,
  });

  useEffect(() => {
    document.title = info ? `${info.title} · Reclaim Lab` : custom ? `${custom} · Reclaim Lab` : 'Reclaim Lab';
  }, [info, custom]);

  return (
    <div className="app">
      <a className="skip-link" href="#views" onClick={skipToViews}>
        Skip to the views
      </a>
      <header className="app-header">
        <div className="brand">
          <svg className="logo" viewBox="0 0 24 24" width="26" height="26" aria-hidden="true">
            <rect x="2" y="13" width="4" height="9" rx="1" />
            <rect x="8" y="8" width="4" height="14" rx="1" />
            <rect x="14" y="4" width="4" height="18" rx="1" />
            <rect x="20" y="10" width="2" height="12" rx="1" />
          </svg>
          <h1>Reclaim Lab</h1>
        </div>
        <div className="scenario-heading">
          {info ? (
            <>
              <p className="scenario-title" data-testid="scenario-title" title={`${info.title} (${info.name})`}>
                <span className="scenario-title-text">{info.title}</span> <span className="scenario-name mono">{info.name}</span>
              </p>
              <ScenarioAbout patch={experiment?.patch} text={info.description} />
            </>
          ) : custom ? (
            <p className="scenario-title" data-testid="scenario-title" title={custom}>
              <span className="scenario-title-text">{custom}</span> <span className="scenario-name mono">custom scenario</span>
            </p>
          ) : (
            <p className="scenario-title muted">{state.phase === 'failed' ? 'Engine unavailable' : 'Loading the engine…'}</p>
          )}
        </div>
        <ShareBar page={snapshot}>
          <TraceEntry />
          <ThemeSwitch />
        </ShareBar>
      </header>

      {compareMode.on ? (
        // Compare mode has its own controls and timeline, beside its two sides.
        <div className="toolbar compare-mode-note">
          <p>
            <strong>Side by side</strong>: both variants step together with the controls below. The page&apos;s own run waits at step{' '}
            <span data-testid="step">{frame ? formatCount(frame.step) : '–'}</span>.
          </p>
          <button type="button" className="button small" onClick={compareMode.toggle} data-focus-partner="side-by-side"
            aria-keyshortcuts="Escape" title="Back to the page's own run (Escape)">
            Exit side by side
          </button>
        </div>
      ) : (
        <>
          <div className="toolbar">
            <StepControls
              enabled={running}
              playing={state.playing}
              speed={speed}
              canStepBack={(frame?.step ?? 0) > 0}
              busy={busy}
              onStepBack={sim.stepBack}
              onStep={watched.step}
              onPlay={watched.play}
              onPause={sim.pause}
              onReset={sim.reset}
              onSpeed={setSpeed}
            />
            <dl className="clock" aria-live="off">
              <div>
                <dt>Step</dt>
                <dd data-testid="step">{frame ? formatCount(frame.step) : '–'}</dd>
              </div>
              <div>
                <dt>Simulated time</dt>
                <dd data-testid="sim-time">{frame ? formatMs(frame.timeNs) : '–'}</dd>
              </div>
              <div>
                <dt>Seed</dt>
                <dd className="mono">{request ? request.seed : '–'}</dd>
              </div>
            </dl>
            {/* For a screen reader: where a step, a step back or a jump landed (not each frame of play, which would drown it). */}
            <p className="visually-hidden" aria-live="polite" data-testid="step-announcement">
              {frame && !state.playing && !busy ? stepAnnouncement(frame) : ''}
            </p>
          </div>
          <TimelineControls
            enabled={running}
            step={frame?.step ?? 0}
            furthest={state.furthest}
            runEnd={frame?.durationSteps}
            busy={state.busy}
            onSeek={watched.seek}
            onRunUntil={watched.runUntil}
            onStop={sim.stop}
            mglru={frame ? frame.lruvecs.some((l) => l.lruGen) : true}
            defaultKind={request ? (EXPERIMENT_RUN_KIND[request.name] ?? SCENARIO_RUN_KIND[request.name]) : undefined}
          />
        </>
      )}

      {state.fatal && (
        <div className="banner banner-fatal" role="alert">
          <strong>Reclaim Lab cannot run:</strong> {state.fatal}
        </div>
      )}
      {state.alerts.length > 0 && (
        <div className="banner banner-warning" role="alert" data-testid="alerts">
          <ul>
            {state.alerts.map((a) => (
              <li key={a.id}>
                {a.problems ? <LinkProblems heading={a.message} problems={a.problems} /> : <span>{a.message}</span>}
                <button type="button" className="link-button" onClick={() => sim.dismiss(a.id)} aria-label="Dismiss">
                  ✕
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}

      <SharedLinkNotice link={shared} />
      <PageLinkNotice problems={[...linkNotes, ...linkProblems, ...restoreProblems]} />

      <main className={`workspace${wide ? ' wide' : ''}${tour.open !== null || compareMode.on ? ' focused' : ''}`}>
        <aside className="sidebar" aria-label="Scenario">
          {scenarios && request && (
            <ScenarioForm
              key={encodeScenarioUrl(withoutVariant(request))}
              scenarios={scenarios}
              request={request}
              disabled={!running}
              onApply={sim.apply}
              onCompare={compare}
              tours={TOURS}
              onTour={tour.start}
            />
          )}
          {request && <CustomScenario request={request} rejected={state.rejected} onRejectedOpened={sim.takeRejected} disabled={!running} onRun={sim.apply} />}
        </aside>

        <section className="main-column" aria-label="Reclaim state" data-touring={tour.open !== null ? '' : undefined}>
          {frame ? (
            <>
              {!experiment && !custom && startShown && (
                <StartHere disabled={!running} onTour={(name) => tour.start(name)} />
              )}
              {experiment && request && (
                <div className="mode-bar">
                  {!compareMode.on && (
                    <VariantSwitch
                      variants={experiment.variants}
                      selected={request.variant ?? ''}
                      disabled={!running}
                      onSelect={(variant) => void switchVariant(variant)}
                    />
                  )}
                  <div className="mode-actions">
                    <CompareToggle on={compareMode.on} disabled={!running} onToggle={compareMode.toggle} />
                    {TOURS.some((t) => t.experiment === experiment.name) && (
                      <button
                        type="button"
                        id="tour-button"
                        className="button tour-button"
                        aria-haspopup="dialog"
                        disabled={!running}
                        title={
                          (tourLeftAt === null
                            ? 'A guided tour of this experiment: each step goes to the moment that shows the patch and explains it'
                            : 'Back to the step of this tour you left; Previous goes back from there') +
                          (compareMode.on ? '. It closes side by side: the tour steps one run, a variant at a time' : '')
                        }
                        onClick={() => tour.start(experiment.name)}
                      >
                        {tourLeftAt === null ? 'Tour' : `Resume tour (step ${tourLeftAt + 1})`}
                      </button>
                    )}
                  </div>
                </div>
              )}
              {compareMode.on && experiment && request ? (
                <CompareMode
                  experiment={experiment}
                  mode={compareMode}
                  request={request}
                  comparison={comparison.state}
                  seedCheck={seedCheck}
                  transitionMs={STEP_TRANSITION_MS}
                  initialView={compareView}
                  onViewChange={setTab}
                />
              ) : (
              <>
              <Tabs label="Views" idPrefix={TABS_ID} tabs={tabs} selected={shownTab} onSelect={(key) => setTab(key)} />
              <div
                className="tab-panel"
                role="tabpanel"
                id={tabPanelId(TABS_ID, shownTab)}
                aria-labelledby={tabId(TABS_ID, shownTab)}
              >
                {shownTab === 'comparison' && experiment && request && (
                  <>
                    <ComparisonView
                      experiment={experiment}
                      state={comparison.state}
                      current={request}
                      seedCheck={seedCheck}
                      onRun={() => compare(request)}
                    />
                    <RangeCheck
                      experiment={experiment}
                      check={rangeCheck}
                      onOpenPoint={(params) => compare(pointRequest(experiment.name, params, request.seed, request.variant))}
                    />
                  </>
                )}
                {shownTab === 'lru' && (
                  <LruPanel
                    frame={frame}
                    folios={tracked}
                    selected={selected}
                    onSelect={select}
                    transitionMs={transitionMs}
                    chosenLruvec={chosenLruvec}
                    onChooseLruvec={setChosenLruvec}
                  />
                )}
                {shownTab === 'shadows' && frame.shadow && (
                  <ShadowsView
                    shadow={frame.shadow}
                    step={frame.step}
                    selected={selected}
                    onSelect={select}
                    transitionMs={transitionMs}
                    chosenLruvec={chosenLruvec}
                    onChooseLruvec={setChosenLruvec}
                  />
                )}
                {shownTab === 'system' && state.histories && <SystemPanel frame={frame} histories={state.histories} />}
                {shownTab === 'memcgs' && state.histories && (
                  <MemcgsPanel frame={frame} histories={state.histories} transitionMs={transitionMs} />
                )}
              </div>
              {!wide && (
                <EventList
                  step={frame.step}
                  events={frame.events}
                  dropped={frame.eventsDropped}
                  kinds={state.histories?.kinds ?? []}
                  runKind={state.found?.step === frame.step ? state.found.kind : undefined}
                />
              )}
              </>
              )}
            </>
          ) : (
            <div className="card placeholder">{state.phase === 'failed' ? 'No engine.' : 'Starting the engine…'}</div>
          )}
        </section>

        <aside className="counters-column" aria-label="Counters" hidden={wide}>
          {frame && selected && (
            <FolioHistory
              page={selected}
              folio={selectedFolio}
              lruGen={selectedLruvec ? selectedLruvec.lruGen : true}
              history={history?.page === selected ? history.history : null}
              historyStep={history?.page === selected ? history.step : null}
              error={history?.page === selected ? history.error : null}
              onClose={() => setSelected(null)}
            />
          )}
          {frame && (
            <CountersTable
              counters={frame.counters}
              previous={previous?.counters ?? null}
              stepsSincePrevious={previous ? frame.step - previous.step : null}
            />
          )}
        </aside>
      </main>
      {(tour.open !== null || tour.loading !== null) && (
        <Suspense fallback={null}>
          <TourPanel tour={tour} />
        </Suspense>
      )}
    </div>
  );
}
