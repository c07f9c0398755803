// A node's memcg LRU: which memcg sits in which generation and bin, moved
// as lru_gen_rotate_memcg rotates them. React owns the card and the <svg>;
// D3 draws inside it.
import { useEffect, useId, useMemo, useRef } from 'react';
import type { MemcgLruView as MemcgLru } from '../../engine/pkg/reclaim_core';
import { formatCount } from '../../util/format';
import { useElementWidth, usePrefersReducedMotion } from '../../util/hooks';
import { drawMemcgLru } from './draw';
import { memcgLruLayout } from './model';

export interface MemcgLruViewProps {
  node: number;
  lru: MemcgLru;
  /** Transition length for this update in ms. */
  transitionMs: number;
}

export function MemcgLruView({ node, lru, transitionMs }: MemcgLruViewProps) {
  const containerRef = useRef<HTMLDivElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const width = useElementWidth(containerRef);
  const reducedMotion = usePrefersReducedMotion();
  const summaryId = useId();
  const layout = useMemo(() => memcgLruLayout(node, lru, { width: Math.max(width, 1) }), [node, lru, width]);
  const last = useRef<{ width: number; lru: MemcgLru | null }>({ width: 0, lru: null });
  useEffect(() => {
    const svg = svgRef.current;
    if (!svg || width <= 0) return;
    // A resize redraws at once; a new frame animates unless the user asked for less motion.
    const resized = last.current.width !== width;
    const newData = last.current.lru !== lru;
    last.current = { width, lru };
    drawMemcgLru(svg, layout, { duration: reducedMotion || resized || !newData ? 0 : transitionMs });
  }, [layout, width, lru, reducedMotion, transitionMs]);
  return (
    <section className="card memcg-lru" aria-label={layout.label} data-node={node} data-seq={lru.seq} data-tour="memcg-lru">
      <div className="card-header">
        <h2 className="card-title">
          Memcg LRU<span className="muted"> · node {node}</span>
        </h2>
        <dl className="seq-facts">
          <div>
            <dt>seq</dt>
            <dd data-testid="memcg-lru-seq">{lru.seq}</dd>
          </div>
          <div>
            <dt>old gen</dt>
            <dd>{lru.oldGen}</dd>
          </div>
          <div>
            <dt>young gen</dt>
            <dd>{lru.youngGen}</dd>
          </div>
          <div>
            <dt>nr_memcgs</dt>
            <dd>
              {lru.nrMemcgs.map((n) => formatCount(n)).join(', ')}
            </dd>
          </div>
        </dl>
      </div>
      <div ref={containerRef} className="chart memcg-lru-chart" style={{ height: layout.height }}>
        <svg ref={svgRef} role="group" aria-label={`${layout.label}: generations and bins`} aria-describedby={summaryId}
          data-testid="memcg-lru-chart" />
      </div>
      <p className="card-footnote">
        shrink_many walks the old generation from a random bin; lru_gen_rotate_memcg then moves each memcg to a
        random bin (YOUNG: the young generation's tail; HEAD/TAIL: its own generation). When the old generation
        empties, seq advances: the young one becomes old and the spare slot (always empty; a third slot since v6.7, so
        that a stale seq never reads as young) becomes young. A dark outline: moved since this chart last drew
        (after a step back or a jump, since that frame, not the step before; none when the chart is first shown or
        drawn afresh); dashed: the root memcg, /.
      </p>
      <p id={summaryId} className="visually-hidden">
        {layout.summary}
      </p>
    </section>
  );
}
