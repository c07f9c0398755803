// The Memcgs view's chart of pgsteal per leaf memcg (spread.ts, draw.ts): the
// fairness pgsteal_cv measures, memcg by memcg.
import { useEffect, useId, useMemo, useRef } from 'react';
import type { MemcgView } from '../../engine/pkg/reclaim_core';
import { useElementWidth } from '../../util/hooks';
import { drawSpread } from './draw';
import { spreadModel } from './spread';

const HEIGHT = 96;

export function PgstealSpread({ memcgs, transitionMs = 0 }: { memcgs: readonly MemcgView[]; transitionMs?: number }) {
  const model = useMemo(() => spreadModel(memcgs), [memcgs]);
  const containerRef = useRef<HTMLDivElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const width = useElementWidth(containerRef);
  const summaryId = useId();
  useEffect(() => {
    if (model && svgRef.current && width > 0) drawSpread(svgRef.current, model, { width, height: HEIGHT }, transitionMs);
  }, [model, width, transitionMs]);
  if (!model) return null;
  return (
    <div className="spread">
      <ul className="legend-row" aria-hidden="true">
        <li>
          <span className="swatch spread-swatch" /> pgsteal per leaf memcg
        </li>
        <li>
          <span className="swatch mean-swatch" /> mean
        </li>
        <li>
          <span className="swatch sd-swatch" /> ± 1 standard deviation
        </li>
      </ul>
      <div ref={containerRef} className="chart spread-chart" style={{ height: HEIGHT }}>
        <svg ref={svgRef} role="img" aria-label="pgsteal per memcg" aria-describedby={summaryId} data-testid="pgsteal-spread" />
      </div>
      <p id={summaryId} className="visually-hidden">
        {model.summary}
      </p>
    </div>
  );
}
