// One lruvec's generations: React owns the figure and the <svg>, D3 draws inside it.
import { useEffect, useId, useMemo, useRef } from 'react';
import type { LruvecView } from '../../engine/pkg/reclaim_core';
import { useElementWidth, usePrefersReducedMotion } from '../../util/hooks';
import { drawGenerations } from './draw';
import { generationsModel } from './model';

const HEIGHT = 280;

export interface GenerationsViewProps {
  lruvec: LruvecView;
  /** Transition length for this update in ms (0 = none). */
  transitionMs: number;
}

export function GenerationsView({ lruvec, transitionMs }: GenerationsViewProps) {
  const model = useMemo(() => generationsModel(lruvec), [lruvec]);
  const containerRef = useRef<HTMLDivElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const width = useElementWidth(containerRef);
  const reducedMotion = usePrefersReducedMotion();
  const summaryId = useId();
  const lastWidth = useRef(0);

  useEffect(() => {
    const svg = svgRef.current;
    if (!svg || width <= 0) return;
    // A resize redraws at once; a new frame animates unless the user asked for less motion.
    const resized = lastWidth.current !== width;
    lastWidth.current = width;
    drawGenerations(svg, model, { width, height: HEIGHT, duration: reducedMotion || resized ? 0 : transitionMs });
  }, [model, width, reducedMotion, transitionMs]);

  return (
    <figure className="card generations" data-lruvec={model.key}>
      <figcaption className="card-header">
        <h2 className="card-title">
          Generations <span className="mono">{model.memcg}</span>
          <span className="muted"> · node {model.node}</span>
        </h2>
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
      </figcaption>
      <div ref={containerRef} className="chart" style={{ height: HEIGHT }}>
        <svg
          ref={svgRef}
          role="img"
          aria-label={model.label}
          aria-describedby={summaryId}
          data-testid="generations-chart"
        />
      </div>
      <p id={summaryId} className="visually-hidden">
        {model.summary}
      </p>
    </figure>
  );
}
