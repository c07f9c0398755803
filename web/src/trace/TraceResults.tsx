// The trace page's results: progress, the miss ratio over time per policy
// (D3), and the final table.
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { PolicyResult, TraceSummary } from '../engine/pkg/reclaim_core';
import { formatCount } from '../util/format';
import { useElementWidth } from '../util/hooks';
import { drawMissRatio, type Series } from './draw';
import { formatRatio, fraction, missRatioSeries, policyLabel, resultRows } from './model';

const CHART_HEIGHT = 280;

export function ReplayProgressBar({ bytesRead, totalBytes, requests }: { bytesRead: number; totalBytes: number; requests: number }) {
  const f = fraction(bytesRead, totalBytes);
  return (
    <div className="trace-progress" data-testid="trace-progress">
      <progress value={f} max={1} aria-label="Replay progress" />
      <span className="hint">
        {Math.round(f * 100)} % of the file · {formatCount(requests)} requests
      </span>
    </div>
  );
}

export function MissRatioChart({ results }: { results: readonly PolicyResult[] }) {
  const [mode, setMode] = useState<'interval' | 'cumulative'>('interval');
  const series: Series[] = useMemo(
    () => results.map((r) => ({ policy: r.policy, label: policyLabel(r.policy), points: missRatioSeries(r.samples ?? [], mode) })),
    [results, mode],
  );
  const containerRef = useRef<HTMLDivElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const width = useElementWidth(containerRef);
  const summaryId = useId();
  useEffect(() => {
    if (svgRef.current && width > 0) drawMissRatio(svgRef.current, series, { width, height: CHART_HEIGHT });
  }, [series, width]);
  const summary = results.map((r) => `${policyLabel(r.policy)} ${formatRatio(r.missRatio)}`).join(', ');
  return (
    <section className="card trace-chart" aria-label="Miss ratio over time">
      <div className="card-header">
        <h3 className="card-title">Miss ratio over time</h3>
        <div className="segmented" role="group" aria-label="Miss ratio shown">
          <button type="button" className="button small" aria-pressed={mode === 'interval'} onClick={() => setMode('interval')}>
            per interval
          </button>
          <button type="button" className="button small" aria-pressed={mode === 'cumulative'} onClick={() => setMode('cumulative')}>
            since the start
          </button>
        </div>
      </div>
      <ul className="legend-row trace-legend" aria-hidden="true">
        {results.map((r) => (
          <li key={r.policy}>
            <span className={`swatch policy-${r.policy}`} /> {policyLabel(r.policy)}
          </li>
        ))}
      </ul>
      <div ref={containerRef} className="chart trace-chart-area" style={{ height: CHART_HEIGHT }}>
        <svg ref={svgRef} role="img" aria-label={`Miss ratio ${mode === 'interval' ? 'per interval' : 'since the start'} against accesses, per policy`} aria-describedby={summaryId} data-testid="trace-chart" />
      </div>
      <p id={summaryId} className="visually-hidden">
        Overall miss ratios: {summary}.
      </p>
    </section>
  );
}

export function ResultsTable({ results, trace, cachePages, seconds }: { results: readonly PolicyResult[]; trace: TraceSummary; cachePages: number; seconds?: number }) {
  const rows = resultRows(results);
  return (
    <section className="card trace-table-card" aria-label="Replay results">
      <div className="card-header">
        <h3 className="card-title">
          Results <span className="muted">· {formatCount(trace.requests)} requests, {formatCount(trace.pages)} distinct pages, cache {formatCount(cachePages)} pages</span>
        </h3>
        {seconds !== undefined && <span className="hint">replayed in {seconds.toFixed(2)} s</span>}
      </div>
      <table className="trace-table" aria-label="Miss ratio per policy">
        <thead>
          <tr>
            <th scope="col">policy</th>
            <th scope="col" className="num">accesses</th>
            <th scope="col" className="num">misses</th>
            <th scope="col" className="num">miss ratio</th>
            <th scope="col" className="num" title="misses on pages read for the first time">cold misses</th>
            <th scope="col" className="num" title="pgsteal_direct of the memcg">reclaimed</th>
            <th scope="col" className="num" title="workingset_refault_file of the memcg">refaults</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.policy} data-testid="trace-result-row" data-policy={r.policy} data-miss-ratio={r.ratio} data-misses={r.missCount}
              className={r.best ? 'best' : undefined}>
              <th scope="row">
                <span className={`swatch policy-${r.policy}`} aria-hidden="true" /> {r.label}
              </th>
              <td className="num">{r.accesses}</td>
              <td className="num">{r.misses}</td>
              <td className="num">
                {r.missRatio}
                {r.best && <span className="best-mark"> lowest</span>}
              </td>
              <td className="num">{r.coldMisses}</td>
              <td className="num">{r.reclaimed}</td>
              <td className="num">{r.refaults}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
