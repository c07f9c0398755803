// Draws one zone's free pages over time into an <svg> React owns: a line
// over the kept frames, the min/low/high watermarks as labelled horizontal
// lines over tinted bands (below min, min–low, low–high), d3 scales and axes.
import { axisBottom, line, scaleLinear, select } from 'd3';
import { drawCountAxis, layer, root, timeScale, uniqueId } from '../../util/d3';
import { formatCount, timeTickFormat } from '../../util/format';
import { spreadLabels, type TimePoint, type Watermark, type ZoneChartModel } from './model';

/** Shared with the kswapd timeline so the time axes of a node line up. */
export const TIME_MARGIN = { left: 58, right: 84 };
const MARGIN = { top: 8, bottom: 20, ...TIME_MARGIN };
/** The least room between two y ticks' labels. */
const MIN_TICK_GAP = 18;

export interface ZoneDrawOptions {
  width: number;
  height: number;
  /** The time window (simulated ns) shared by the node's charts. */
  start: number;
  end: number;
}

export function drawZone(node: SVGSVGElement, model: ZoneChartModel, options: ZoneDrawOptions): void {
  const { width, height } = options;
  const innerWidth = Math.max(0, width - MARGIN.left - MARGIN.right);
  const innerHeight = Math.max(0, height - MARGIN.top - MARGIN.bottom);
  const svg = select(node).attr('width', width).attr('height', height).attr('viewBox', `0 0 ${width} ${height}`);
  const rootSel = root(node);

  const x = timeScale(options.start, options.end, innerWidth);
  const [start, end] = x.domain() as [number, number];
  // As many ticks as fit at least MIN_TICK_GAP px apart (3 or more when the plot is tall enough).
  let tickCount = Math.max(2, Math.floor(innerHeight / MIN_TICK_GAP));
  let y = scaleLinear().domain([0, model.yMax]).range([innerHeight, 0]).nice(tickCount);
  while (tickCount > 2 && (y.ticks(tickCount).length - 1) * MIN_TICK_GAP > innerHeight) {
    tickCount -= 1;
    y = scaleLinear().domain([0, model.yMax]).range([innerHeight, 0]).nice(tickCount);
  }
  const top = y.domain()[1]!;

  const plot = layer<SVGGElement>(rootSel, 'g', 'plot').attr('transform', `translate(${MARGIN.left},${MARGIN.top})`);

  // Everything inside the plot is clipped to it (zoomed to the watermarks, the line can run off the top).
  let clipId = node.dataset.clip;
  if (!clipId) {
    clipId = uniqueId('zone-clip');
    node.dataset.clip = clipId;
  }
  const defs = layer<SVGDefsElement>(rootSel, 'defs', 'defs');
  const clip = layer<SVGClipPathElement>(defs, 'clipPath', 'clip').attr('id', clipId);
  layer<SVGRectElement>(clip, 'rect', 'clip-rect')
    .attr('x', 0)
    .attr('y', -1)
    .attr('width', innerWidth)
    .attr('height', innerHeight + 2);

  // Bands: below min, min..low, low..high.
  const [wmMin, wmLow, wmHigh] = model.watermarks as [Watermark, Watermark, Watermark];
  const bands = [
    { cls: 'band-min', from: 0, to: wmMin.pages },
    { cls: 'band-low', from: wmMin.pages, to: wmLow.pages },
    { cls: 'band-high', from: wmLow.pages, to: wmHigh.pages },
  ];
  const bandLayer = layer<SVGGElement>(plot, 'g', 'bands').attr('clip-path', `url(#${clipId})`);
  bandLayer
    .selectAll<SVGRectElement, (typeof bands)[number]>('rect')
    .data(bands)
    .join('rect')
    .attr('class', (d) => `band ${d.cls}`)
    .attr('x', 0)
    .attr('width', innerWidth)
    .attr('y', (d) => y(Math.min(d.to, top)))
    .attr('height', (d) => Math.max(0, y(Math.min(d.from, top)) - y(Math.min(d.to, top))));

  drawCountAxis(plot, y, tickCount, innerWidth);
  // The y-axis title, up the left edge (the watermark labels have the right).
  layer<SVGTextElement>(plot, 'text', 'axis-title')
    .attr('transform', `translate(${-MARGIN.left + 9},${innerHeight / 2}) rotate(-90)`)
    .attr('text-anchor', 'middle')
    .text('free pages');
  const tickLabel = timeTickFormat(x.ticks(Math.max(2, Math.floor(innerWidth / 90))), end);
  layer<SVGGElement>(plot, 'g', 'x-axis')
    .attr('transform', `translate(0,${innerHeight})`)
    .call(
      axisBottom(x)
        .ticks(Math.max(2, Math.floor(innerWidth / 90)))
        .tickSizeOuter(0)
        .tickFormat((v) => tickLabel(v.valueOf())),
    );

  // Watermark lines, labelled at the right (labels pushed apart when the lines are close).
  const shown = model.watermarks.filter((w) => w.pages <= top);
  const labelY = spreadLabels(
    shown.map((w) => y(w.pages)),
    11,
    4,
    innerHeight - 2,
  );
  const marks = layer<SVGGElement>(plot, 'g', 'watermarks')
    .selectAll<SVGGElement, Watermark>('g.watermark')
    .data(shown, (w) => w.name)
    .join((enter) => {
      const g = enter.append('g').attr('class', (w) => `watermark wm-${w.name}`).attr('data-testid', 'watermark');
      g.append('line').attr('class', 'wm-line');
      g.append('path').attr('class', 'wm-leader');
      g.append('text').attr('class', 'wm-label');
      g.append('title');
      return g;
    })
    .attr('data-watermark', (w) => w.name)
    .attr('data-pages', (w) => w.pages);
  marks
    .select('line.wm-line')
    .attr('x1', 0)
    .attr('x2', innerWidth)
    .attr('y1', (w) => y(w.pages))
    .attr('y2', (w) => y(w.pages));
  marks
    .select('path.wm-leader')
    .attr('d', (w, i) => `M${innerWidth},${y(w.pages)}L${innerWidth + 6},${labelY[i]}`);
  marks
    .select('text.wm-label')
    .attr('x', innerWidth + 8)
    .attr('y', (_, i) => labelY[i]! + 3.5)
    .text((w) => `${w.name} ${formatCount(w.pages)}`);
  marks.select('title').text((w) => `${w.name} watermark: ${formatCount(w.pages)} pages — ${w.meaning}`);

  // Free pages.
  const pts = model.points.filter((p) => p.timeNs >= start);
  const path = line<TimePoint>()
    .x((p) => x(p.timeNs))
    .y((p) => y(p.value));
  const lineLayer = layer<SVGGElement>(plot, 'g', 'series').attr('clip-path', `url(#${clipId})`);
  layer<SVGPathElement>(lineLayer, 'path', 'free-line')
    .attr('data-testid', 'zone-free-line')
    .attr('data-points', pts.length)
    .attr('d', pts.length > 0 ? path(pts) : null);
  // The current value's dot is not clipped: at the first step it sits on the plot's left edge.
  const last = pts[pts.length - 1];
  layer<SVGCircleElement>(plot, 'circle', 'free-now')
    .attr('r', last ? 3 : 0)
    .attr('cx', last ? x(last.timeNs) : 0)
    .attr('cy', last ? y(Math.min(last.value, top)) : 0);
  svg.attr('data-free', model.free);
}
