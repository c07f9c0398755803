// Share and export: "Copy link" (a v=2 link to exactly this view, see
// scenario/share.ts; shown in a dialog when the clipboard cannot be used),
// and the view's charts as SVG or PNG, the counters (or on an experiment's
// Comparison tab its table) as CSV, everything as JSON.
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { ExperimentInfo, Frame, ScenarioRequest } from '../engine/pkg/reclaim_core';
import { errorMessage } from '../engine/host';
import { composeFigure, download, figurePng } from '../export/figure';
import { compareCountersCsv, compareJson, compareMemcgsCsv, comparisonCsv, countersCsv, exportFileName, exportJson, memcgsCsv, type ExportedRanges, type ExportedRun, type ExportedSide } from '../export/tables';
import { runLabel } from '../scenario/custom';
import type { CountersAt } from '../simulationState';
import { encodePageUrl } from '../scenario/pageUrl';
import { encodeSharedView, type CompareView, type ShareTab, type SharedView } from '../scenario/share';
import type { ComparisonState, RangeCheckState, SeedCheckState } from '../useComparison';
import { comparisonTable, isCheckOf, withSeedCheck } from '../views/comparison/model';
import { withRecordedSeeds, type RangeCheckResult } from '../views/comparison/ranges';
import { useRecordedRange } from '../views/comparison/useRecordedRanges';

/**
 * Why SVG and PNG give nothing here: a view with no chart (the Comparison
 * tab, a view whose chart is not drawn at this step). Said the same way on
 * every view, on a click and, where it is known beforehand, in the tooltip
 * of the buttons, which stay focusable and look unavailable.
 */
const NO_CHART = 'This view has no chart: export its numbers as CSV or JSON';

/** What the page shows now: what a link reproduces and what an export writes. */
export interface PageSnapshot {
  request: ScenarioRequest;
  frame: Frame;
  previous: CountersAt | null;
  tab: ShareTab;
  /** The shown tab's label ("LRU"), for the heading of an exported figure. */
  tabLabel: string;
  /** The id of the element the shown tab is drawn in. */
  panelId: string;
  experiment: ExperimentInfo | undefined;
  comparison: ComparisonState;
  /** The check over seeds 1 to 5, when the page has one. */
  seedCheck?: SeedCheckState;
  /** The check across the parameter ranges, when the page has one. */
  rangeCheck?: RangeCheckState;
  selected: string | null;
  lruvec: string | null;
  /** Compare mode, when it is on (its variants and step). */
  compare?: CompareView;
  /** Compare mode's two sides (what its CSV and JSON exports hold). */
  compareSides?: readonly ExportedSide[];
  /** The open tour and its step (from 1), when a tour is shown: a link then reopens the tour there. */
  tour?: { experiment: string; step: number };
}

/** Whether a job's answer is on the page or on its way (what a link asks to be done again). */
function shownOrComing(job: { status: string } | undefined): boolean {
  return job?.status === 'done' || job?.status === 'running';
}

/**
 * The link Copy link gives: during a tour, the tour at its step (the step
 * itself sets the run, variant and tab: ?v=1&...&tour=...&tourStep=N);
 * otherwise a v=2 link to exactly this view.
 */
export async function linkOf(page: PageSnapshot): Promise<string> {
  if (page.tour) return encodePageUrl(page.request, { tour: page.tour.experiment, tourStep: page.tour.step });
  return encodeSharedView(sharedViewOf(page));
}

/** The shared view of a snapshot. */
export function sharedViewOf(page: PageSnapshot): SharedView {
  const { request, frame, previous, comparison } = page;
  const view: SharedView = { request, step: frame.step, tab: page.tab };
  if (previous && previous.step < frame.step) view.previous = previous.step;
  if (page.experiment && shownOrComing(comparison) && comparison.request?.name === request.name) {
    view.comparison = comparison.request;
    // The seeds column is shown for the table's parameters (any seed).
    if (shownOrComing(page.seedCheck) && isCheckOf(page.seedCheck, comparison.request)) view.seedCheck = true;
  }
  if (page.experiment && shownOrComing(page.rangeCheck) && page.rangeCheck?.request?.name === request.name) view.rangeCheck = true;
  if (page.selected) view.folio = page.selected;
  if (page.lruvec) view.lruvec = page.lruvec;
  if (page.compare) view.compare = page.compare;
  return view;
}

/** The comparison table as the page shows it (with the seeds column checked here, or recorded). */
function tableOf(page: PageSnapshot, recorded: RangeCheckResult | null) {
  const result = page.comparison.result;
  return page.experiment && result?.experiment === page.experiment.name
    ? withRecordedSeeds(page.experiment, withSeedCheck(page.experiment, comparisonTable(page.experiment, result), page.seedCheck), recorded)
    : null;
}

/** The finished range check of the page's experiment, else the recorded one it shows, for the JSON export. */
function rangesOf(page: PageSnapshot, recorded: RangeCheckResult | null): ExportedRanges | null {
  if (!page.experiment) return null;
  const headlines = page.experiment.headlines.map((h) => h.metric);
  const result = page.rangeCheck?.result;
  if (result?.experiment === page.experiment.name) return { headlines, result };
  return recorded ? { headlines, result: recorded, recorded: true } : null;
}

function runOf(page: PageSnapshot): ExportedRun {
  const { frame, previous } = page;
  return {
    request: page.request,
    step: frame.step,
    timeNs: frame.timeNs,
    counters: frame.counters,
    previous: previous && previous.step < frame.step ? { step: previous.step, counters: previous.counters } : null,
    memcgs: frame.memcgs,
    reclaims: frame.reclaims,
  };
}

/** How long a status message ("Link copied") stays up. */
const STATUS_MS = 4000;

/** `children` go beside Copy link (the page puts its theme switch there). */
export function ShareBar({ page, children }: { page: PageSnapshot | null; children?: ReactNode }) {
  const [status, setStatus] = useState('');
  const [fallback, setFallback] = useState<string | null>(null);
  const recorded = useRecordedRange(page?.experiment);
  const dialogRef = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    if (!status) return;
    const timer = setTimeout(() => setStatus(''), STATUS_MS);
    return () => clearTimeout(timer);
  }, [status]);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (fallback && dialog && !dialog.open) dialog.showModal();
  }, [fallback]);

  const copyLink = async () => {
    if (!page) return;
    let link: string;
    try {
      link = `${window.location.origin}${window.location.pathname}${await linkOf(page)}`;
    } catch (error) {
      setStatus(`No link: ${errorMessage(error)}`);
      return;
    }
    try {
      if (!navigator.clipboard?.writeText) throw new Error('no clipboard');
      await navigator.clipboard.writeText(link);
      setFallback(null);
      setStatus('Link copied');
    } catch {
      setStatus('');
      setFallback(link);
    }
  };

  // The Comparison tab draws no chart (side by side shows the views' charts).
  const noChart = page?.tab === 'comparison' && !page.compare;
  const exportFigure = async (kind: 'svg' | 'png') => {
    if (!page) return;
    if (noChart) {
      setStatus(NO_CHART);
      return;
    }
    const container = document.getElementById(page.panelId);
    // In compare mode the figure shows both sides at their common step.
    const compare = page.compare;
    const request = compare ? { ...page.request, variant: compare.variants.join('-vs-') } : page.request;
    const step = compare ? compare.step : page.frame.step;
    const variant = compare ? ` (${compare.variants.join(' vs ')})` : request.variant ? ` (${request.variant})` : '';
    const heading = `${runLabel(request)}${variant} · seed ${request.seed} · step ${step} · ${page.tabLabel}`;
    const figure = container && composeFigure(container, heading);
    if (!figure) {
      setStatus(NO_CHART);
      return;
    }
    // The view in the name too: figures of two tabs at one step do not overwrite each other.
    const name = exportFileName(request, `${step}-${page.tab}`, kind);
    try {
      const blob = kind === 'svg' ? new Blob([figure.svg], { type: 'image/svg+xml' }) : await figurePng(figure);
      download(blob, name);
      setStatus(`Saved ${name}`);
    } catch (error) {
      setStatus(`Export failed: ${errorMessage(error)}`);
    }
  };

  const exportData = (kind: 'csv' | 'json') => {
    if (!page) return;
    const table = tableOf(page, recorded);
    if (page.compare && page.compareSides) {
      const pair = { ...page.request, variant: page.compare.variants.join('-vs-') };
      // On the Memcgs view, CSV is both sides' memcgs tables (as on the single view's Memcgs tab).
      const memcgs = kind === 'csv' && page.tab === 'memcgs' && page.compareSides.some((side) => (side.memcgs?.length ?? 0) > 0);
      const name = exportFileName(pair, memcgs ? `${page.compare.step}-memcgs` : page.compare.step, kind);
      const blob =
        kind === 'json'
          ? new Blob([compareJson(page.request, page.compareSides, table)], { type: 'application/json' })
          : new Blob([memcgs ? compareMemcgsCsv(page.compareSides) : compareCountersCsv(page.compareSides)], { type: 'text/csv' });
      download(blob, name);
      setStatus(`Saved ${name}`);
      return;
    }
    const run = runOf(page);
    let name: string;
    let blob: Blob;
    if (kind === 'json') {
      name = exportFileName(page.request, run.step, 'json');
      blob = new Blob([exportJson(run, table, rangesOf(page, recorded))], { type: 'application/json' });
    } else if (page.tab === 'comparison' && table) {
      // Every variant is in it, whichever the page runs.
      name = exportFileName({ ...page.request, variant: undefined }, 'comparison', 'csv');
      blob = new Blob([comparisonCsv(table)], { type: 'text/csv' });
    } else if (page.tab === 'memcgs' && run.memcgs && run.memcgs.length > 0) {
      name = exportFileName(page.request, `${run.step}-memcgs`, 'csv');
      blob = new Blob([memcgsCsv(run.memcgs)], { type: 'text/csv' });
    } else {
      name = exportFileName(page.request, run.step, 'csv');
      blob = new Blob([countersCsv(run)], { type: 'text/csv' });
    }
    download(blob, name);
    setStatus(`Saved ${name}`);
  };

  const disabled = page === null;
  return (
    <div className="header-actions">
      <div className="header-row">
        <button type="button" className="button small" disabled={disabled} onClick={() => void copyLink()}
          title="Copy a link that opens this run at this step, on this view">
          Copy link
        </button>
        {children}
      </div>
      <div className="header-row" role="group" aria-label="Export">
        <span className="export-label" aria-hidden="true">Export</span>
        <button type="button" className="button small" aria-label="Export SVG" disabled={disabled} aria-disabled={noChart || undefined}
          onClick={() => void exportFigure('svg')} title={noChart ? NO_CHART : 'The charts of this view as an SVG file'}>
          SVG
        </button>
        <button type="button" className="button small" aria-label="Export PNG" disabled={disabled} aria-disabled={noChart || undefined}
          onClick={() => void exportFigure('png')} title={noChart ? NO_CHART : 'The charts of this view as a PNG image'}>
          PNG
        </button>
        <button type="button" className="button small" aria-label="Export CSV" disabled={disabled}
          onClick={() => exportData('csv')}
          title="The counters as CSV (on the Comparison tab, the comparison table; on the Memcgs tab, every memcg; side by side, both sides')">
          CSV
        </button>
        <button type="button" className="button small" aria-label="Export JSON" disabled={disabled}
          onClick={() => exportData('json')} title="The run, its counters, any comparison and range check as JSON">
          JSON
        </button>
      </div>
      <p className={`share-status${status ? ' shown' : ''}`} role="status">
        {status}
      </p>
      <dialog ref={dialogRef} className="card link-dialog" aria-labelledby="link-dialog-title" onClose={() => setFallback(null)}>
        <h2 className="card-title" id="link-dialog-title">
          Link to this view
        </h2>
        <p className="muted">The browser did not let the page use the clipboard; copy the link from here.</p>
        <input
          type="text"
          readOnly
          aria-label="Link to this view"
          value={fallback ?? ''}
          onFocus={(e) => e.currentTarget.select()}
          autoFocus
        />
        <form method="dialog">
          <button type="submit" className="button small">
            Close
          </button>
        </form>
      </dialog>
    </div>
  );
}
