// One lruvec's LRU (MGLRU generations or the classic lists) with its tracked
// folios: React owns the figure and the <svg>, D3 draws inside it. Up to
// SVG_MAX_FOLIOS tracked folios are SVG dots (one element and one listbox
// option each); more are drawn on a canvas over the chart (FolioCanvas).
import { useEffect, useId, useMemo, useRef } from 'react';
import type { LruvecView } from '../../engine/pkg/reclaim_core';
import { useElementWidth, usePrefersReducedMotion } from '../../util/hooks';
import { TiersTable } from '../tiers/TiersTable';
import { denseDots } from './denseDots';
import { chartGeometry, drawGenerations } from './draw';
import { FolioCanvas } from './FolioCanvas';
import { folioDots } from './folios';
import { lruvecModel } from './model';
import { lruvecRecords, type LruvecFolios } from './tracked';
import './dense.css';

const HEIGHT = 320;
/** With many folios the chart is taller, and so is its lane of evicted folios. */
const DENSE_HEIGHT = 460;
const DENSE_LANE = 56;
/** The most tracked folios of one lruvec drawn as SVG elements. */
export const SVG_MAX_FOLIOS = 600;

export interface GenerationsViewProps {
  lruvec: LruvecView;
  /** The tracked folios of this lruvec (see trackedByLruvec). */
  folios: LruvecFolios;
  /** The selected page, if any. */
  selected: string | null;
  onSelect(page: string | null): void;
  /** Transition length for this update in ms (0 = none). */
  transitionMs: number;
  /** The top of the y scale in pages when it is shared with another chart (side by side); at least this lruvec's own. */
  scaleTop?: number;
}

export function GenerationsView({ lruvec, folios, selected, onSelect, transitionMs, scaleTop }: GenerationsViewProps) {
  const step = folios.frame.step;
  const model = useMemo(() => {
    const own = lruvecModel(lruvec);
    return scaleTop !== undefined && scaleTop > own.maxPages ? { ...own, maxPages: scaleTop } : own;
  }, [lruvec, scaleTop]);
  const dense = folios.ids.length > SVG_MAX_FOLIOS;
  const height = dense ? DENSE_HEIGHT : HEIGHT;
  const laneHeight = dense ? DENSE_LANE : undefined;
  const dots = useMemo(() => folioDots(model, dense ? [] : lruvecRecords(folios)), [model, folios, dense]);
  const containerRef = useRef<HTMLDivElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const width = useElementWidth(containerRef);
  const reducedMotion = usePrefersReducedMotion();
  const summaryId = useId();
  const lastWidth = useRef(0);
  // Handlers bound by D3 call the latest onSelect without forcing a redraw.
  const onSelectRef = useRef(onSelect);
  useEffect(() => {
    onSelectRef.current = onSelect;
  }, [onSelect]);
  const lastDrawn = useRef<{ model: unknown; dots: unknown }>({ model: null, dots: null });
  const geometry = useMemo(() => chartGeometry(model, width, height, laneHeight), [model, width, height, laneHeight]);
  const many = useMemo(() => (dense && width > 0 ? denseDots(model, folios, geometry) : null), [dense, width, model, folios, geometry]);
  const duration = useRef(0);

  useEffect(() => {
    const svg = svgRef.current;
    if (!svg || width <= 0) return;
    // A resize redraws at once; a new frame animates unless the user asked for less motion.
    const resized = lastWidth.current !== width;
    lastWidth.current = width;
    // A new selection alone moves nothing: draw it at once.
    const newData = lastDrawn.current.model !== model || lastDrawn.current.dots !== (many ?? dots);
    lastDrawn.current = { model, dots: many ?? dots };
    duration.current = reducedMotion || resized || !newData ? 0 : transitionMs;
    drawGenerations(
      svg,
      model,
      many
        ? { external: true, heights: many.heights }
        : {
            dots,
            selected,
            onSelect: (page) => onSelectRef.current(page),
            label: `Tracked folios of ${model.memcg} on node ${model.node}`,
          },
      { width, height, duration: duration.current, laneHeight },
    );
  }, [model, dots, many, selected, width, height, laneHeight, reducedMotion, transitionMs]);

  const resident = many ? many.resident : dots.resident;
  const notResident = many ? many.notResident : dots.notResident;
  const folioSummary =
    resident + notResident > 0 ? ` Tracked folios: ${resident} resident, ${notResident} evicted (shadow or swap entries).` : '';

  return (
    <figure
      className="card generations"
      data-lruvec={model.key}
      data-mode={model.mode}
      data-tour="generations"
      aria-label={`${model.title} of ${model.memcg} on node ${model.node}${model.mode === 'classic' ? ' (classic LRU)' : ''}`}
    >
      <figcaption className="card-header">
        <h2 className="card-title">
          {model.title} <span className="mono">{model.memcg}</span>
          <span className="muted"> · node {model.node}</span>
          {model.mode === 'classic' && <span className="mode-tag">classic LRU</span>}
        </h2>
        {model.mode === 'mglru' ? (
          <dl className="seq-facts">
            <div>
              <dt>max_seq</dt>
              <dd>{model.maxSeq}</dd>
            </div>
            <div>
              <dt>min_seq[anon]</dt>
              <dd>{model.minSeqAnon}</dd>
            </div>
            <div>
              <dt>min_seq[file]</dt>
              <dd>{model.minSeqFile}</dd>
            </div>
            <div title="Under each generation: gen, its slot in lrugen->folios[], is its seq modulo MAX_NR_GENS (4); age is the time since inc_max_seq made it">
              <dt>gen</dt>
              <dd>seq % 4</dd>
            </div>
          </dl>
        ) : (
          <p className="seq-facts muted">lru_gen off: folio_mark_accessed promotes, shrink_active_list demotes</p>
        )}
      </figcaption>
      <div ref={containerRef} className="chart" style={{ height }}>
        <svg
          ref={svgRef}
          role="group"
          aria-label={model.label}
          aria-describedby={summaryId}
          data-testid="generations-chart"
        />
        {many && (
          <FolioCanvas
            model={model}
            folios={folios}
            dots={many}
            width={width}
            height={height}
            margin={geometry.margin}
            step={step}
            selected={selected}
            onSelect={onSelect}
            duration={reducedMotion ? 0 : transitionMs}
            label={`Tracked folios of ${model.memcg} on node ${model.node}`}
          />
        )}
        {model.totals.anon + model.totals.file === 0 && (
          <p className="chart-empty" data-testid="generations-empty">
            No pages on these lists at this step: nothing charged here yet, or all of it reclaimed or freed. The counters and the
            Memcgs tab say which.
          </p>
        )}
      </div>
      <p id={summaryId} className="visually-hidden">
        {model.summary}
        {folioSummary}
      </p>
      {model.mode === 'mglru' && <TiersTable tiers={lruvec.tiers} />}
    </figure>
  );
}
