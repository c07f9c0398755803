// Draws the miss ratio over time, one line per policy, into an <svg> React
// owns. No transitions: the lines follow the replay as it runs.
import { axisBottom, axisLeft, format, line, max, scaleLinear, select } from 'd3';
import type { Policy } from '../engine/pkg/reclaim_core';
import { layer, root } from '../util/d3';
import type { Point } from './model';

export interface Series {
  policy: Policy;
  label: string;
  points: Point[];
}

/** The right margin holds each line's name, at its end (colour and dash are not the only key). */
const MARGIN = { top: 12, right: 84, bottom: 36, left: 52 };
/** The least vertical distance between two lines' names, px. */
const LABEL_GAP = 12;
const si = format('~s');

export function drawMissRatio(node: SVGSVGElement, series: readonly Series[], size: { width: number; height: number }): void {
  const { width, height } = size;
  const innerWidth = Math.max(0, width - MARGIN.left - MARGIN.right);
  const innerHeight = Math.max(0, height - MARGIN.top - MARGIN.bottom);
  select(node).attr('width', width).attr('height', height).attr('viewBox', `0 0 ${width} ${height}`);
  const plot = layer<SVGGElement>(root(node), 'g', 'plot').attr('transform', `translate(${MARGIN.left},${MARGIN.top})`);

  const xMax = max(series, (s) => max(s.points, (p) => p.x)) ?? 1;
  const yMax = max(series, (s) => max(s.points, (p) => p.y)) ?? 1;
  const x = scaleLinear().domain([0, Math.max(1, xMax)]).range([0, innerWidth]);
  const y = scaleLinear().domain([0, Math.min(1, Math.max(0.01, yMax * 1.08))]).nice(5).range([innerHeight, 0]);

  layer<SVGGElement>(plot, 'g', 'grid')
    .attr('aria-hidden', 'true')
    .call(
      axisLeft(y)
        .ticks(5)
        .tickSize(-innerWidth)
        .tickFormat(() => ''),
    );
  layer<SVGGElement>(plot, 'g', 'y-axis').attr('aria-hidden', 'true').call(axisLeft(y).ticks(5).tickFormat(format('.2~f')));
  layer<SVGGElement>(plot, 'g', 'x-axis')
    .attr('aria-hidden', 'true')
    .attr('transform', `translate(0,${innerHeight})`)
    .call(axisBottom(x).ticks(Math.max(2, Math.floor(innerWidth / 90))).tickFormat((v) => si(v.valueOf())));
  layer<SVGTextElement>(plot, 'text', 'axis-title')
    .attr('aria-hidden', 'true')
    .attr('x', innerWidth)
    .attr('y', innerHeight + 30)
    .attr('text-anchor', 'end')
    .text('accesses');

  const path = line<Point>()
    .x((p) => x(p.x))
    .y((p) => y(p.y));
  plot
    .selectAll<SVGPathElement, Series>('path.series')
    .data(series, (s) => s.policy)
    .join('path')
    .attr('class', (s) => `series policy-${s.policy}`)
    .attr('data-testid', 'trace-series')
    .attr('data-policy', (s) => s.policy)
    .attr('fill', 'none')
    .attr('d', (s) => path(s.points) ?? '');

  // Each line's name at its last point, moved apart where lines end close together.
  const ends = series
    .filter((s) => s.points.length > 0)
    .map((s) => ({ policy: s.policy, label: s.label, y: y(s.points[s.points.length - 1]!.y) }))
    .sort((a, b) => a.y - b.y);
  for (let i = 1; i < ends.length; i++) ends[i]!.y = Math.max(ends[i]!.y, ends[i - 1]!.y + LABEL_GAP);
  const overflow = ends.length > 0 ? ends[ends.length - 1]!.y - innerHeight : 0;
  if (overflow > 0) {
    for (let i = ends.length - 1; i >= 0; i--) ends[i]!.y = Math.min(ends[i]!.y - overflow, i + 1 < ends.length ? ends[i + 1]!.y - LABEL_GAP : Infinity);
  }
  plot
    .selectAll<SVGTextElement, (typeof ends)[number]>('text.series-label')
    .data(ends, (e) => e.policy)
    .join('text')
    .attr('class', (e) => `series-label policy-${e.policy}`)
    .attr('aria-hidden', 'true')
    .attr('x', innerWidth + 6)
    .attr('y', (e) => e.y)
    .attr('dy', '0.32em')
    .text((e) => e.label);
}
