// A node's kswapd over simulated time: asleep, napping (the short sleep of
// kswapd_try_to_sleep before the full one) or running balance_pgdat, with
// its counters. React owns the card and the <svg>; D3 draws inside it.
import { useEffect, useId, useMemo, useRef } from 'react';
import { formatCount, formatDuration } from '../../util/format';
import { useElementWidth } from '../../util/hooks';
import { drawKswapd } from './draw';
import { MODE_HELP, kswapdModel, type KswapdTrack } from './model';

/** The band (20 px) with the short-run ticks above it, its axis and the legend below. */
const HEIGHT = 74;

export interface KswapdTimelineProps {
  node: number;
  track: KswapdTrack;
  start: number;
  end: number;
}

export function KswapdTimeline({ node, track, start, end }: KswapdTimelineProps) {
  const model = useMemo(() => kswapdModel(node, track, start, end), [node, track, start, end]);
  const containerRef = useRef<HTMLDivElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const width = useElementWidth(containerRef);
  const summaryId = useId();
  useEffect(() => {
    if (svgRef.current && width > 0) drawKswapd(svgRef.current, model, { width, height: HEIGHT });
  }, [model, width]);
  const span = Math.max(1, model.end - model.start);
  return (
    <section className="card kswapd" aria-label={model.label} data-node={node} data-mode={model.mode} data-tour="kswapd">
      <div className="card-header">
        <h2 className="card-title">
          kswapd<span className="muted"> · node {node}</span>
        </h2>
        <span className={`mode-badge mode-${model.mode}`} data-testid="kswapd-mode" title={MODE_HELP[model.mode]}>
          {model.mode}
        </span>
      </div>
      <dl className="facts">
        <div>
          <dt title="Runs of balance_pgdat that started in the chart's time window">runs in window</dt>
          <dd data-testid="kswapd-runs">{formatCount(model.wakeups)}</dd>
        </div>
        <div>
          <dt title="Share of the chart's time window spent running">running in window</dt>
          <dd>{((100 * model.time.running) / span).toFixed(model.time.running > 0 && model.time.running < span / 1000 ? 2 : 1)}%</dd>
        </div>
        <div>
          <dt title="kswapd_failures: balance_pgdat runs that reclaimed nothing (kswapd gives up at 16)">failures</dt>
          <dd data-testid="kswapd-failures">{formatCount(model.failures)}</dd>
        </div>
        <div>
          <dt title="Times kswapd went to sleep for good since the run started (prepare_kswapd_sleep said the node was balanced). kswapd starts the run asleep, before anything has woken it: that first sleep is not counted">went to sleep</dt>
          <dd data-testid="kswapd-sleeps">{formatCount(model.sleeps)}</dd>
        </div>
        <div>
          <dt title="Sleeps for good since the run started while a zone the last wakeup asked for was still not balanced (before v4.12's classzone fix, checked for the wrong zone index)">premature in all</dt>
          <dd data-testid="kswapd-premature">{formatCount(model.prematureSleeps)}</dd>
        </div>
        <div>
          <dt title="Times kswapd slept in reclaim_throttle(VMSCAN_THROTTLE_WRITEBACK) since the run started, meeting folios it had marked still under writeback, and how long in all: time inside balance_pgdat, which the chart paints as throttled">
            throttled in all
          </dt>
          <dd data-testid="kswapd-throttled">
            {formatCount(model.throttles)}
            {model.throttles > 0 && <span className="muted"> · {formatDuration(model.throttledNs)}</span>}
          </dd>
        </div>
        <div>
          <dt title="pgdat->kswapd_highest_zoneidx: the highest zone an allocation asked kswapd to balance">pending zone idx</dt>
          <dd data-testid="kswapd-pending">{model.pendingText}</dd>
        </div>
      </dl>
      <div ref={containerRef} className="chart kswapd-chart" style={{ height: HEIGHT }}>
        <svg ref={svgRef} role="img" aria-label={`kswapd modes of node ${node} over simulated time`}
          aria-describedby={summaryId} data-testid="kswapd-chart" />
      </div>
      <p id={summaryId} className="visually-hidden">
        {model.summary}
      </p>
    </section>
  );
}
