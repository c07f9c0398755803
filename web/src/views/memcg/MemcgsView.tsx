// Every memcg: usage against memory.max/high (with low and min marked),
// pgscan and pgsteal on one shared scale, memory.events, and the pgsteal
// coefficient of variation over the leaves (the fairness the memcg LRU
// improves) as a number and a line over time. React renders the rows; the
// scales are d3's (in the model), the small line is drawn by D3.
import { line, select } from 'd3';
import { Fragment, useEffect, useId, useMemo, useRef } from 'react';
import type { MemcgView } from '../../engine/pkg/reclaim_core';
import { formatCount } from '../../util/format';
import type { TimePoint } from '../zones/model';
import { formatCv, memcgsModel, reclaimedLeaf, sparkline, type MemcgRow } from './model';
import { PgstealSpread } from './PgstealSpread';

const SPARK = { width: 120, height: 28 };

export interface MemcgsViewProps {
  memcgs: readonly MemcgView[];
  /** The frame's pgsteal CV: NaN where it is not defined (fewer than two leaves, or none reclaimed from yet). */
  cv: number;
  cvHistory: readonly TimePoint[];
  /** How long the pgsteal bars take to move to a new frame's values. */
  transitionMs?: number;
  /** The pgsteal chart's y top, shared with the other side's (side by side). */
  spreadTop?: number;
}

const pct = (at: number) => `${(at * 100).toFixed(2)}%`;
/** Up to this many frames in the CV's line, each is marked with a dot. */
const SPARK_MARKED = 16;

export function MemcgsView({ memcgs, cv, cvHistory, transitionMs = 0, spreadTop }: MemcgsViewProps) {
  const model = useMemo(() => memcgsModel(memcgs), [memcgs]);
  const noteId = useId();
  return (
    <section className="card memcgs" aria-label="Memcgs" data-tour="memcgs">
      <div className="card-header">
        <h2 className="card-title">
          Memcgs <span className="muted">· {formatCount(model.rows.length)}</span>
        </h2>
        <CvFigure cv={cv} history={cvHistory} leaves={model.leaves} reclaimed={memcgs.some(reclaimedLeaf)} />
      </div>
      <PgstealSpread memcgs={memcgs} cv={cv} transitionMs={transitionMs} top={spreadTop} />
      <div className="memcg-scroll">
        <table className="memcg-table" aria-label="Memcg usage and reclaim" aria-describedby={noteId}>
          <thead>
            <tr>
              <th scope="col">memcg</th>
              <th scope="col" className="bar-col">
                usage <span className="muted">/ limits</span>
              </th>
              <th scope="col" className="bar-col">
                <span className="key-pair">
                  <span className="key key-scan" /> pgscan
                </span>{' '}
                <span className="key-pair">
                  <span className="key key-steal" /> pgsteal
                </span>
              </th>
              {EVENT_COLUMNS.map((c) => (
                <th key={c.label} scope="col" className="num" title={c.title}>
                  {c.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {model.rows.map((r) => (
              <MemcgRowView key={r.path} row={r} />
            ))}
          </tbody>
        </table>
      </div>
      <p className="card-footnote" id={noteId}>
        {model.scaleNote}
      </p>
    </section>
  );
}

/** memory.events, in the file's order: the column, its row value, and whether a count is an alarm (an OOM). */
const EVENT_COLUMNS: readonly { label: string; title: string; value: 'eventsLow' | 'eventsHigh' | 'eventsMax' | 'eventsOom' | 'eventsOomKill'; alarm: boolean }[] = [
  { label: 'low', title: 'memory.events low: reclaimed while under memory.low', value: 'eventsLow', alarm: false },
  { label: 'high', title: 'memory.events high: times reclaim_high found usage over memory.high and reclaimed (a task may then be throttled)', value: 'eventsHigh', alarm: false },
  { label: 'max', title: 'memory.events max: times usage hit memory.max', value: 'eventsMax', alarm: false },
  { label: 'oom', title: 'memory.events oom', value: 'eventsOom', alarm: true },
  { label: 'kill', title: 'memory.events oom_kill', value: 'eventsOomKill', alarm: true },
];

function limitText(r: MemcgRow): string {
  if (r.max !== null) return `max ${formatCount(r.max)}`;
  if (r.high !== null) return `high ${formatCount(r.high)}`;
  return 'no limit';
}

function MemcgRowView({ row: r }: { row: MemcgRow }) {
  const marks = r.marks.map((m) => `memory.${m.name} ${formatCount(m.pages)}`).join(', ');
  return (
    <tr data-memcg={r.path} className={r.leaf ? 'leaf' : 'parent'}>
      <th scope="row" className="mono memcg-path" style={{ paddingLeft: 10 + Math.min(r.depth, 6) * 8 }} title={r.path}>
        {r.path}
      </th>
      <td className="bar-col">
        <div className={`hbar usage meter-${r.level}`} aria-hidden="true" title={marks || undefined}>
          <div className="hbar-fill" style={{ width: pct(r.usageAt) }} />
          {r.marks.map((m) => (
            <span key={m.name} className={`mark mark-${m.name}`} style={{ left: pct(m.at) }} />
          ))}
          {r.usageOffScale && <span className="off-scale">›</span>}
        </div>
        <div className="bar-text">
          {/* <wbr>: where a narrow column (side by side) may break the caption. */}
          <strong data-testid="memcg-usage">{formatCount(r.usage)}</strong>
          <wbr />
          <span className="muted"> · {limitText(r)}</span>
          {(
            [
              ['low', r.low],
              ['min', r.min],
              ['swap', r.swapUsage],
            ] as const
          )
            .filter(([, pages]) => pages > 0)
            .map(([name, pages]) => (
              <Fragment key={name}>
                <wbr />
                <span className="muted">{` · ${name} ${formatCount(pages)}`}</span>
              </Fragment>
            ))}
        </div>
      </td>
      <td className="bar-col">
        <div className="hbar thin scan" aria-hidden="true">
          <div className="hbar-fill" data-testid="pgscan-bar" style={{ width: pct(r.pgscanAt) }} />
        </div>
        <div className="hbar thin steal" aria-hidden="true">
          <div className="hbar-fill" data-testid="pgsteal-bar" data-value={r.pgsteal} style={{ width: pct(r.pgstealAt) }} />
          {r.reclaimOffScale && <span className="off-scale">›</span>}
        </div>
        <div className="bar-text">
          <span data-testid="memcg-pgscan">{formatCount(r.pgscan)}</span>
          <span className="muted"> / </span>
          <strong data-testid="memcg-pgsteal">{formatCount(r.pgsteal)}</strong>
          {!r.leaf && <span className="muted bar-total" title="A parent's counters include its children's"> · total</span>}
        </div>
      </td>
      {EVENT_COLUMNS.map(({ label, value, alarm }) => (
        <td key={label} className={`num event-num${r[value] ? (alarm ? ' nonzero alarm' : ' nonzero') : ''}`}>
          {formatCount(r[value])}
        </td>
      ))}
    </tr>
  );
}

function CvFigure({ cv, history, leaves, reclaimed }: { cv: number; history: readonly TimePoint[]; leaves: number; reclaimed: boolean }) {
  const svgRef = useRef<SVGSVGElement>(null);
  const spark = useMemo(() => sparkline(history, SPARK.width, SPARK.height), [history]);
  useEffect(() => {
    const svg = svgRef.current;
    if (!svg) return;
    const path = line<[number, number]>()(spark.points) ?? '';
    select(svg)
      .selectAll('path.spark')
      .data([path])
      .join('path')
      .attr('class', 'spark')
      .attr('data-testid', 'cv-line')
      .attr('data-points', history.length)
      .attr('data-defined', spark.points.length)
      .attr('d', (d) => d);
    // With few frames drawn (after a jump the line joins two of them) each one is marked, so a
    // straight line between two marks does not pass for a measured trend.
    select(svg)
      .selectAll('circle.spark-point')
      .data(spark.points.length <= SPARK_MARKED ? spark.points.slice(0, -1) : [])
      .join('circle')
      .attr('class', 'spark-point')
      .attr('r', 1.6)
      .attr('cx', (d) => d[0])
      .attr('cy', (d) => d[1]);
    const last = spark.points[spark.points.length - 1];
    select(svg)
      .selectAll('circle.spark-now')
      .data(last ? [last] : [])
      .join('circle')
      .attr('class', 'spark-now')
      .attr('r', 2.5)
      .attr('cx', (d) => d[0])
      .attr('cy', (d) => d[1]);
  }, [spark, history.length]);
  // With fewer than two leaves, or nothing reclaimed (a mean of 0), the engine's CV is NaN: a dash, not "0.00 %".
  const defined = Number.isFinite(cv);
  const explain =
    leaves < 2
      ? 'Coefficient of variation of pgsteal over the leaf memcgs: needs two leaves or more.'
      : `Coefficient of variation of pgsteal over the ${leaves} leaf memcgs: standard deviation / mean. ` +
        '0 means every memcg gave back the same. The memcg LRU is fair only over many writes (eventual fairness); here the old walk, which takes from every memcg in proportion, comes out more even (see the comparison).' +
        (reclaimed ? '' : ' Nothing has been reclaimed yet, so it is not defined.');
  return (
    <div className="cv" title={explain}>
      <span className="cv-label">pgsteal CV</span>
      <strong className="cv-value" data-testid="pgsteal-cv">
        {defined ? formatCv(cv) : '–'}
      </strong>
      <svg
        ref={svgRef}
        className="sparkline"
        data-export="skip"
        width={SPARK.width}
        height={SPARK.height}
        viewBox={`0 0 ${SPARK.width} ${SPARK.height}`}
        role="img"
        aria-label={
          spark.yMax > 1e-9
            ? `pgsteal CV over the last ${history.length} frames, up to ${formatCv(spark.yMax)}`
            : `pgsteal CV over the last ${history.length} frames: 0 or not defined throughout`
        }
      />
    </div>
  );
}
