// One lruvec's LRU (MGLRU generations or the classic lists) with its tracked
// folios: React owns the figure and the <svg>, D3 draws inside it.
import { useEffect, useId, useMemo, useRef } from 'react';
import type { LruvecView, TrackedFolioView } from '../../engine/pkg/reclaim_core';
import { useElementWidth, usePrefersReducedMotion } from '../../util/hooks';
import { TiersTable } from '../tiers/TiersTable';
import { drawGenerations } from './draw';
import { folioDots } from './folios';
import { lruvecModel } from './model';

const HEIGHT = 320;

export interface GenerationsViewProps {
  lruvec: LruvecView;
  /** The tracked folios of this lruvec (see foliosByLruvec). */
  folios: readonly TrackedFolioView[];
  /** The selected page, if any. */
  selected: string | null;
  onSelect(page: string | null): void;
  /** Transition length for this update in ms (0 = none). */
  transitionMs: number;
}

export function GenerationsView({ lruvec, folios, selected, onSelect, transitionMs }: GenerationsViewProps) {
  const model = useMemo(() => lruvecModel(lruvec), [lruvec]);
  const dots = useMemo(() => folioDots(model, folios), [model, folios]);
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

  useEffect(() => {
    const svg = svgRef.current;
    if (!svg || width <= 0) return;
    // A resize redraws at once; a new frame animates unless the user asked for less motion.
    const resized = lastWidth.current !== width;
    lastWidth.current = width;
    // A new selection alone moves nothing: draw it at once.
    const newData = lastDrawn.current.model !== model || lastDrawn.current.dots !== dots;
    lastDrawn.current = { model, dots };
    drawGenerations(
      svg,
      model,
      {
        dots,
        selected,
        onSelect: (page) => onSelectRef.current(page),
        label: `Tracked folios of ${model.memcg} on node ${model.node}`,
      },
      { width, height: HEIGHT, duration: reducedMotion || resized || !newData ? 0 : transitionMs },
    );
  }, [model, dots, selected, width, reducedMotion, transitionMs]);

  const folioSummary =
    dots.dots.length > 0
      ? ` Tracked folios: ${dots.resident} resident, ${dots.notResident} evicted (shadow or swap entries).`
      : '';

  return (
    <figure className="card generations" data-lruvec={model.key} data-mode={model.mode} data-tour="generations">
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
          </dl>
        ) : (
          <p className="seq-facts muted">lru_gen off: folio_mark_accessed promotes, shrink_active_list demotes</p>
        )}
      </figcaption>
      <div ref={containerRef} className="chart" style={{ height: HEIGHT }}>
        <svg
          ref={svgRef}
          role="group"
          aria-label={model.label}
          aria-describedby={summaryId}
          data-testid="generations-chart"
        />
      </div>
      <p id={summaryId} className="visually-hidden">
        {model.summary}
        {folioSummary}
      </p>
      {model.mode === 'mglru' && <TiersTable tiers={lruvec.tiers} />}
    </figure>
  );
}
