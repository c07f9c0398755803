// A node's zones: for each populated zone, free pages over the kept frames
// against its watermarks; and the zones' lowmem_reserve as a small table.
// React owns the cards and the <svg>s; D3 draws inside them.
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { NodeView, ZoneView } from '../../engine/pkg/reclaim_core';
import { formatCount } from '../../util/format';
import { useElementWidth } from '../../util/hooks';
import { drawZone } from './draw';
import { ZONE_NAMES, zoneChartModel, zoneIndex, zoneKey, type TimePoint, type ZoneScale, type ZoneSeries } from './model';

const CHART_HEIGHT = 100;

const SCALES: { key: ZoneScale; label: string; help: string }[] = [
  { key: 'auto', label: 'Auto', help: 'Around the watermarks once free pages come near them; to fit before' },
  { key: 'fit', label: 'Fit', help: 'Up to the largest free count in the window' },
  { key: 'watermarks', label: 'Watermarks', help: 'Up to twice the high watermark' },
];

export interface ZonesViewProps {
  node: NodeView;
  series: ZoneSeries;
  /** The time window shared by the node's charts. */
  start: number;
  end: number;
}

export function ZonesView({ node, series, start, end }: ZonesViewProps) {
  const [scale, setScale] = useState<ZoneScale>('auto');
  const title = `Zones of node ${node.node}`;
  return (
    <section className="card zones" aria-label={title} data-node={node.node} data-tour="zones">
      <div className="card-header">
        <h2 className="card-title">{title}</h2>
        <div className="segmented" role="group" aria-label="Free pages scale">
          {SCALES.map((s) => (
            <button key={s.key} type="button" aria-pressed={scale === s.key} onClick={() => setScale(s.key)} title={s.help}>
              {s.label}
            </button>
          ))}
        </div>
      </div>
      {node.zones.length === 0 ? (
        <p className="empty">No populated zones.</p>
      ) : (
        <>
          {node.zones.map((z) => (
            <ZoneChart key={z.name} node={node.node} zone={z} points={series[zoneKey(node.node, z.name)] ?? []}
              scale={scale} start={start} end={end} />
          ))}
          <ReserveTable node={node.node} zones={node.zones} />
        </>
      )}
    </section>
  );
}

interface ZoneChartProps {
  node: number;
  zone: ZoneView;
  points: readonly TimePoint[];
  scale: ZoneScale;
  start: number;
  end: number;
}

function ZoneChart({ node, zone, points, scale, start, end }: ZoneChartProps) {
  const model = useMemo(() => zoneChartModel(node, zone, points, scale), [node, zone, points, scale]);
  const containerRef = useRef<HTMLDivElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const width = useElementWidth(containerRef);
  const summaryId = useId();
  useEffect(() => {
    if (svgRef.current && width > 0) drawZone(svgRef.current, model, { width, height: CHART_HEIGHT, start, end });
  }, [model, width, start, end]);
  return (
    <div className="zone" data-zone={zone.name} data-scale={model.scale}>
      <div className="zone-head">
        <h3 className="zone-name">{zone.name}</h3>
        <span className="zone-figure">
          <span className="label">free</span> <strong data-testid="zone-free">{formatCount(zone.free)}</strong>
          <span className="muted"> / {formatCount(zone.managed)} managed</span>
        </span>
        <span className={`level level-${model.level}`}>{model.levelText}</span>
      </div>
      <div ref={containerRef} className="chart zone-chart" style={{ height: CHART_HEIGHT }}>
        <svg ref={svgRef} role="img" aria-label={model.label} aria-describedby={summaryId} data-testid="zone-chart" />
        {/* Over the chart's top edge, where the line leaves it: the head's height stays the same whatever it says. */}
        {model.clipNote && <span className="clip-note muted">↑ {model.clipNote}</span>}
      </div>
      <p id={summaryId} className="visually-hidden">
        {model.summary}
      </p>
    </div>
  );
}

/** lowmem_reserve[j] of each zone: what it keeps back from allocations that could use zone j. */
function ReserveTable({ node, zones }: { node: number; zones: readonly ZoneView[] }) {
  return (
    <div className="reserve">
      <p className="reserve-title">
        <span className="mono">lowmem_reserve</span>{' '}
        <span className="muted">· pages a zone (row) keeps back from allocations that could also use the column's zone</span>
      </p>
      <table className="reserve-table" aria-label={`lowmem_reserve of node ${node}`}>
        <thead>
          <tr>
            <th scope="col">zone</th>
            {ZONE_NAMES.map((n) => (
              <th key={n} scope="col" className="num">
                {n}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {zones.map((z) => (
            <tr key={z.name}>
              <th scope="row">{z.name}</th>
              {z.lowmemReserve.map((pages, j) => (
                <td key={j} className={`num${j <= zoneIndex(z.name) ? ' na' : ''}`}>
                  {j <= zoneIndex(z.name) ? '–' : formatCount(pages)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
