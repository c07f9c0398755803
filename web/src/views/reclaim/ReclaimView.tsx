// The recent writes to memory.reclaim: what each asked for and got, the
// overreclaim, -EAGAIN, and the rounds of the selected (or latest) write.
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { ReclaimView as Reclaim } from '../../engine/pkg/reclaim_core';
import { formatCount, formatDuration, formatMs, secondsColumn } from '../../util/format';
import { useElementWidth } from '../../util/hooks';
import { drawRounds } from './draw';
import { formatOverreclaim, reclaimKey, reclaimRows, roundsModel } from './model';

const CHART_HEIGHT = 120;

export interface ReclaimViewProps {
  reclaims: readonly Reclaim[];
}

export function ReclaimView({ reclaims }: ReclaimViewProps) {
  const rows = useMemo(() => reclaimRows(reclaims), [reclaims]);
  // One unit down the time column.
  const seconds = secondsColumn(rows.map((r) => r.startNs));
  const [chosen, setChosen] = useState<string | null>(null);
  // The chosen write while it is still listed; the latest otherwise.
  const selected = reclaims.find((r) => reclaimKey(r) === chosen) ?? reclaims[reclaims.length - 1];
  const selectedKey = selected ? reclaimKey(selected) : null;
  return (
    <section className="card reclaim" aria-label="memory.reclaim" data-tour="reclaim">
      <div className="card-header">
        <h2 className="card-title">
          memory.reclaim <span className="muted">· last {formatCount(rows.length)} writes</span>
        </h2>
      </div>
      <div className="reclaim-scroll">
        <table className="reclaim-table" aria-label="memory.reclaim writes">
          <thead>
            <tr>
              <th scope="col">time</th>
              <th scope="col">memcg</th>
              <th scope="col" className="num">requested</th>
              <th scope="col" className="num">reclaimed</th>
              <th scope="col" className="num" title="reclaimed − requested, in pages and % of the request">
                overreclaim
              </th>
              <th scope="col" className="num" title="try_to_free_mem_cgroup_pages() calls">
                rounds
              </th>
              <th scope="col" className="num" title="The writer's time for the write, from the cost model. The engine applies a write's reclaim at once, at its start, so the page's clock does not wait for it.">
                took
              </th>
              <th scope="col">result</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => {
              const isSelected = r.key === selectedKey;
              const at = formatMs(r.startNs, seconds);
              return (
                <tr key={r.key} className={isSelected ? 'selected' : undefined} data-testid="reclaim-row"
                  data-ok={r.ok} onClick={() => setChosen(r.key)}>
                  <td>
                    <button type="button" className="link-button row-button" aria-pressed={isSelected}
                      aria-label={`Show the rounds of the write at ${at}`}>
                      {at}
                    </button>
                  </td>
                  <td className="mono">{r.memcg}</td>
                  <td className="num">{formatCount(r.requested)}</td>
                  <td className="num">{formatCount(r.reclaimed)}</td>
                  <td className={`num over${r.overreclaim > 0 ? ' up' : r.overreclaim < 0 ? ' down' : ''}`}>
                    {formatOverreclaim(r)}
                  </td>
                  <td className="num">{formatCount(r.rounds)}</td>
                  <td className="num">{formatDuration(r.durationNs)}</td>
                  <td>{r.ok ? <span className="ok">ok</span> : <span className="eagain">-EAGAIN</span>}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {selected && <Rounds write={selected} />}
    </section>
  );
}

function Rounds({ write }: { write: Reclaim }) {
  const model = useMemo(() => roundsModel(write), [write]);
  const containerRef = useRef<HTMLDivElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const width = useElementWidth(containerRef);
  const summaryId = useId();
  useEffect(() => {
    if (svgRef.current && width > 0) drawRounds(svgRef.current, model, { width, height: CHART_HEIGHT });
  }, [model, width]);
  return (
    <div className="rounds">
      <div className="rounds-head">
        <h3 className="rounds-title">
          Rounds of the write to <span className="mono">{write.memcg}</span> at {formatMs(write.startNs)}
        </h3>
        <ul className="legend-row" aria-hidden="true">
          <li>
            <span className="swatch asked" /> batch asked
          </li>
          <li>
            <span className="swatch got" /> reclaimed
          </li>
        </ul>
      </div>
      <div ref={containerRef} className="chart rounds-chart" style={{ height: CHART_HEIGHT }}>
        <svg ref={svgRef} role="img" aria-label={`Rounds of the memory.reclaim write at ${formatMs(write.startNs)}`}
          aria-describedby={summaryId} data-testid="rounds-chart" />
      </div>
      <p id={summaryId} className="visually-hidden">
        {model.summary}
      </p>
    </div>
  );
}
