// Compare mode: an experiment's two variants side by side, same seed and
// parameters, stepped together by one set of controls, each side with the
// same views and its counters; which counters differ; and below, the
// experiment's table of metrics (what `reclaim-sim compare` prints).
import { useId, useMemo, useState } from 'react';
import type { ExperimentInfo, Frame, ScenarioRequest } from '../engine/pkg/reclaim_core';
import { PauseIcon, PlayIcon, ResetIcon, StepBackIcon, StepIcon } from '../controls/icons';
import { SpeedSelect } from '../controls/StepControls';
import { TimelineControls } from '../controls/TimelineControls';
import type { ComparisonState, SeedCheckRunner } from '../useComparison';
import { formatCount } from '../util/format';
import { ComparisonView } from '../views/comparison/ComparisonView';
import { defaultLruvec, lruvecKey, lruvecModel } from '../views/generations/model';
import { spreadModel } from '../views/memcg/spread';
import { chooseLruvec, shadowLruvecKey } from '../views/shadows/model';
import { CompareSide, shownLruvecs, type CompareViewKey } from './CompareSide';
import { differingCounters, pairStep } from './lockstep';
import type { CompareMode as Mode } from './useCompareMode';
import './compare.css';

/** With more lruvecs than this, each side shows the one picked from a list. */
const MAX_LRUVECS = 2;
const VIEWS: readonly { key: CompareViewKey; label: string }[] = [
  { key: 'lru', label: 'LRU' },
  { key: 'system', label: 'System' },
  { key: 'memcgs', label: 'Memcgs' },
  { key: 'shadows', label: 'Shadows' },
];
/** The id of compare mode's section: what "Export SVG/PNG" draws when compare mode is on. */
export const COMPARE_PANEL_ID = 'compare-mode-panel';
/** Differing counters named in the summary before it says "and N more". */
const NAMED_DIFFERENCES = 8;

/** The button that turns compare mode on and off (an experiment's page only). */
export function CompareToggle({ on, disabled, onToggle }: { on: boolean; disabled: boolean; onToggle(): void }) {
  return (
    <button
      type="button"
      className={`button compare-toggle${on ? ' on' : ''}`}
      aria-pressed={on}
      disabled={disabled}
      data-focus-name="side-by-side"
      title="Step two variants side by side, in lock step"
      onClick={onToggle}
    >
      Side by side
    </button>
  );
}

export interface CompareModeProps {
  experiment: ExperimentInfo;
  mode: Mode;
  request: ScenarioRequest;
  comparison: ComparisonState;
  /** The check of that comparison over seeds 1 to 5. */
  seedCheck?: SeedCheckRunner;
  transitionMs: number;
  /** The view compare mode opens on: the page's, so that turning it on keeps what was being watched. */
  initialView?: CompareViewKey;
  /** The view chosen here: the page keeps it as its tab, so a copied link (and leaving compare mode) keeps it too. */
  onViewChange?(view: CompareViewKey): void;
}

/** The nodes where either side's frame has a memcg LRU, in node order. */
export function memcgLruNodesOf(left: Frame, right: Frame): number[] {
  const nodes = new Set<number>();
  for (const f of [left, right]) for (const n of f.nodes) if (n.memcgLru) nodes.add(n.node);
  return [...nodes].sort((a, b) => a - b);
}

/** Whether a page tab is one of compare mode's views. */
export function isCompareView(tab: string): tab is CompareViewKey {
  return VIEWS.some((v) => v.key === tab);
}

export function CompareMode({ experiment, mode, request, comparison, seedCheck, transitionMs, initialView = 'lru', onViewChange }: CompareModeProps) {
  const id = useId();
  const [view, setView] = useState<CompareViewKey>(initialView);
  const [lruvec, setLruvec] = useState<string | null>(null);
  const [shadowLruvec, setShadowLruvec] = useState<string | null>(null);
  const { lockstep, variants } = mode;
  const { state } = lockstep;
  const running = state.status === 'running';
  const step = pairStep(state);
  const sides = state.sides;
  const differing = sides ? differingCounters(sides[0].frame, sides[1].frame) : [];
  const lruvecs = sides?.[0].frame.lruvecs ?? [];
  const memcgLruNodes = sides ? memcgLruNodesOf(sides[0].frame, sides[1].frame) : [];
  // Both sides' Shadows view on one lruvec: the one chosen, else the left side's own pick.
  const leftShadow = sides?.[0].frame.shadow;
  const leftPick = leftShadow ? chooseLruvec(leftShadow, null, null) : undefined;
  const shownShadowLruvec = shadowLruvec ?? (leftPick ? shadowLruvecKey(leftPick) : null);
  // One y scale for both sides' pgsteal charts, so that bars of one height mean one number.
  // Only while the memcgs view is shown: the other views have no pgsteal chart.
  const showsSpread = view === 'memcgs';
  const spreadTop = useMemo(
    () => (sides && showsSpread ? Math.max(0, ...sides.map((s) => spreadModel(s.frame.memcgs, s.frame.pgstealCv)?.yMax ?? 0)) : undefined),
    [sides, showsSpread],
  );
  // Both sides show the same lruvec: the one chosen, else the left side's default.
  const fallback = defaultLruvec(lruvecs);
  const shownLruvec = lruvec ?? (fallback ? lruvecKey(fallback) : null);
  // The generation charts of an lruvec share their y scale across the sides, so that bars compare by height
  // (worked out for the lruvecs the sides show, not every lruvec of the frame).
  const showsLru = view === 'lru';
  const pagesTop = useMemo(() => {
    const top = new Map<string, number>();
    if (!sides || !showsLru) return top;
    for (const s of sides) {
      for (const l of shownLruvecs(s.frame.lruvecs, shownLruvec, MAX_LRUVECS)) {
        top.set(lruvecKey(l), Math.max(top.get(lruvecKey(l)) ?? 0, lruvecModel(l).maxPages));
      }
    }
    return top;
  }, [sides, showsLru, shownLruvec]);
  if (!variants) return null;
  return (
    <section className="compare-mode" id={COMPARE_PANEL_ID} aria-label="Side by side" aria-busy={state.inFlight > 0 || state.status === 'starting'} data-testid="compare-mode">
      <div className="card compare-bar">
        <div className="transport" role="group" aria-label="Compare controls">
          <button type="button" className="button" disabled={!running || !step} onClick={lockstep.stepBack} aria-keyshortcuts="ArrowLeft" title="Take both sides back one step (←)">
            <StepBackIcon />
            Step back
          </button>
          <button type="button" className="button" disabled={!running} onClick={() => lockstep.step(1)} aria-keyshortcuts="ArrowRight" title="Advance both sides one step (→)">
            <StepIcon />
            Step forward
          </button>
          <button type="button" className="button primary" disabled={!running || state.playing} onClick={lockstep.play} data-focus-name="compare-play" data-focus-partner="compare-pause" aria-keyshortcuts="Space" title="Run both sides (Space)">
            <PlayIcon />
            Play
          </button>
          <button type="button" className="button" disabled={!running || !state.playing} onClick={lockstep.pause} data-focus-name="compare-pause" data-focus-partner="compare-play" aria-keyshortcuts="Space" title="Stop running (Space)">
            <PauseIcon />
            Pause
          </button>
          <button type="button" className="button" disabled={!running} onClick={lockstep.reset} title="Both sides back to step 0">
            <ResetIcon />
            Reset
          </button>
          <SpeedSelect speed={mode.speed} disabled={!running} onSpeed={mode.setSpeed} />
        </div>
        <dl className="clock">
          <div>
            <dt>Step (both)</dt>
            <dd data-testid="compare-step">{step === null ? '–' : formatCount(step)}</dd>
          </div>
          <div>
            <dt>Seed</dt>
            <dd className="mono">{request.seed}</dd>
          </div>
        </dl>
        <div className="segmented" role="group" aria-label="Compare view">
          {VIEWS.map((v) => (
            <button key={v.key} type="button" aria-pressed={view === v.key} onClick={() => {
              setView(v.key);
              onViewChange?.(v.key);
            }}>
              {v.label}
            </button>
          ))}
        </div>
        {view === 'lru' && lruvecs.length > MAX_LRUVECS && (
          <label className="compare-lruvec">
            <span>Lruvec</span>
            <select value={shownLruvec ?? ''} onChange={(e) => setLruvec(e.target.value)}>
              {lruvecs.map((l) => (
                <option key={lruvecKey(l)} value={lruvecKey(l)}>
                  {l.memcg} on node {l.node}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      <TimelineControls
        label="Compare timeline"
        enabled={running}
        step={step ?? 0}
        furthest={state.furthest}
        runEnd={state.sides?.[0].frame.durationSteps}
        busy={state.busy}
        onSeek={lockstep.seek}
        onStop={lockstep.halt}
      />
      {state.status === 'starting' && (
        <p className="compare-status" role="status">
          Starting {variants[0]} and {variants[1]}…
        </p>
      )}
      {state.status === 'failed' && (
        <p className="compare-status error" role="alert">
          Side by side stopped: {state.error}
        </p>
      )}
      <p className="compare-diff" id={`${id}-diff`} data-testid="compare-diff" aria-live={state.playing ? 'off' : 'polite'}>
        {sides &&
          (differing.length === 0
            ? `At step ${formatCount(sides[0].frame.step)} the two sides' counters are the same.`
            : `At step ${formatCount(sides[0].frame.step)}, ${differing.length} counter${differing.length === 1 ? ' differs' : 's differ'}: ` +
              `${differing.slice(0, NAMED_DIFFERENCES).join(', ')}${differing.length > NAMED_DIFFERENCES ? `, and ${differing.length - NAMED_DIFFERENCES} more` : ''}.`)}
      </p>
      <div className="compare-sides">
        {([0, 1] as const).map((i) => (
          <CompareSide
            key={i}
            index={i}
            side={sides?.[i] ?? null}
            variant={variants[i]}
            variants={experiment.variants}
            onVariant={(v) => mode.chooseVariant(i, v)}
            view={view}
            lruvec={shownLruvec}
            maxLruvecs={MAX_LRUVECS}
            transitionMs={state.playing ? 0 : transitionMs}
            disabled={state.status === 'starting'}
            memcgLruNodes={memcgLruNodes}
            spreadTop={spreadTop}
            pagesTop={pagesTop}
            shadowLruvec={shownShadowLruvec}
            onShadowLruvec={setShadowLruvec}
          />
        ))}
      </div>
      <ComparisonView experiment={experiment} state={comparison} current={request} seedCheck={seedCheck} />
    </section>
  );
}
