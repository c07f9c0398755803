// The Memcgs view's chart of pgsteal per leaf memcg (spread.ts, draw.ts): the
// fairness pgsteal_cv measures, memcg by memcg.
import { useEffect, useId, useMemo, useRef } from 'react';
import type { MemcgView } from '../../engine/pkg/reclaim_core';
import { useElementWidth, usePrefersReducedMotion } from '../../util/hooks';
import { drawSpread } from './draw';
import { spreadModel } from './spread';

const HEIGHT = 96;

export interface PgstealSpreadProps {
  memcgs: readonly MemcgView[];
  /** The frame's pgsteal_cv, from the engine. */
  cv: number;
  transitionMs?: number;
  /** A y scale top shared with another chart (side by side). */
  top?: number;
}

export function PgstealSpread({ memcgs, cv, transitionMs = 0, top }: PgstealSpreadProps) {
  const model = useMemo(() => spreadModel(memcgs, cv, top), [memcgs, cv, top]);
  const containerRef = useRef<HTMLDivElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const width = useElementWidth(containerRef);
  const summaryId = useId();
  const reducedMotion = usePrefersReducedMotion();
  useEffect(() => {
    if (model && svgRef.current && width > 0) drawSpread(svgRef.current, model, { width, height: HEIGHT }, reducedMotion ? 0 : transitionMs);
  }, [model, width, transitionMs, reducedMotion]);
  if (!model) {
    // One leaf: no spread to draw, but say why the chart is not there.
    const leaves = memcgs.filter((m) => m.leaf);
    return leaves.length === 1 ? (
      <p className="spread hint spread-empty" data-testid="pgsteal-spread-empty">
        pgsteal per leaf memcg: <span className="mono">{leaves[0]!.path}</span> is the only leaf, so there is no spread to compare.
      </p>
    ) : null;
  }
  // Before any reclaim there is nothing to spread: a line says so where the
  // chart would be (kept in the page, hidden, so that it is measured when it shows).
  const empty = model.mean === 0;
  return (
    <div className="spread">
      {empty && (
        <p className="hint spread-empty" data-testid="pgsteal-spread-empty">
          pgsteal per leaf memcg: none of the {model.bars.length} has been reclaimed from yet. Step on, or stop at the
          next reclaim round (<em>Stop at</em>, <em>Run to next</em>) to see the first.
        </p>
      )}
      <ul className="legend-row" aria-hidden="true" hidden={empty}>
        <li>
          <span className="swatch spread-swatch" /> pgsteal per leaf memcg, in pages
        </li>
        <li>
          <span className="swatch mean-swatch" /> mean
        </li>
        <li>
          <span className="swatch sd-swatch" /> ± 1 standard deviation
        </li>
      </ul>
      <div ref={containerRef} className="chart spread-chart" style={{ height: HEIGHT }} hidden={empty}>
        <svg ref={svgRef} role="img" aria-label="pgsteal per memcg" aria-describedby={summaryId} data-testid="pgsteal-spread" />
      </div>
      <p id={summaryId} className="visually-hidden">
        {model.summary}
      </p>
    </div>
  );
}
