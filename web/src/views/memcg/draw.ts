// Draws the pgsteal spread (spread.ts) into an <svg> React owns: a bar per
// leaf memcg in tree order, the mean as a line and mean ± one standard
// deviation as a band behind the bars.
import { interrupt, scaleBand, scaleLinear, select, type BaseType } from 'd3';
import { drawCountAxis, layer, plotArea } from '../../util/d3';
import { formatCount } from '../../util/format';
import type { SpreadBar, SpreadModel } from './spread';

const MARGIN = { top: 8, right: 10, bottom: 18, left: 44 };
/** The widest a bar gets with few memcgs. */
const MAX_BAR = 48;

export function drawSpread(node: SVGSVGElement, model: SpreadModel, size: { width: number; height: number }, transitionMs: number): void {
  const { plot, innerWidth, innerHeight } = plotArea(node, size, MARGIN);

  const n = model.bars.length;
  // The bars spread over the whole plot, each at most MAX_BAR wide and
  // centred in its band; a gap between bars while they are wide enough to keep one.
  const span = innerWidth;
  const x = scaleBand<number>()
    .domain(model.bars.map((_, i) => i))
    .range([0, span])
    .paddingInner(span / n >= 4 ? 0.2 : 0);
  const barWidth = Math.max(0.5, Math.min(MAX_BAR, x.bandwidth()));
  const barX = (i: number) => (x(i) ?? 0) + (x.bandwidth() - barWidth) / 2;
  const y = scaleLinear().domain([0, model.yMax]).nice(3).range([innerHeight, 0]);
  drawCountAxis(plot, y, 3, innerWidth);

  // mean ± stddev behind the bars, the mean over them.
  const band = model.mean > 0 ? [model] : [];
  layer<SVGGElement>(plot, 'g', 'sd-layer')
    .selectAll('rect.sd-band')
    .data(band)
    .join('rect')
    .attr('class', 'sd-band')
    .attr('x', 0)
    .attr('width', span)
    .attr('y', (m) => y(m.mean + m.stddev))
    .attr('height', (m) => Math.max(0, y(Math.max(0, m.mean - m.stddev)) - y(m.mean + m.stddev)));

  // An instant redraw (a resize, a jump) first cancels a transition still running.
  if (transitionMs === 0) node.querySelectorAll('rect.spread-bar').forEach((bar) => interrupt(bar, 'spread'));
  const t = select<BaseType, unknown>(node).transition('spread').duration(transitionMs);
  layer<SVGGElement>(plot, 'g', 'bars')
    .selectAll<SVGRectElement, SpreadBar>('rect.spread-bar')
    .data(model.bars, (b) => b.path)
    .join((enter) =>
      enter
        .append('rect')
        .attr('class', 'spread-bar')
        .attr('y', innerHeight)
        .attr('height', 0)
        .call((r) => r.append('title')),
    )
    .attr('data-testid', 'spread-bar')
    .attr('data-value', (b) => b.pgsteal)
    .attr('x', (_, i) => barX(i))
    .attr('width', barWidth)
    .call((r) => r.select('title').text((b) => `${b.path}: pgsteal ${formatCount(b.pgsteal)}`))
    .transition(t)
    .attr('y', (b) => y(b.pgsteal))
    .attr('height', (b) => innerHeight - y(b.pgsteal));

  layer<SVGGElement>(plot, 'g', 'mean-layer')
    .selectAll('line.mean')
    .data(band)
    .join('line')
    .attr('class', 'mean')
    .attr('x1', 0)
    .attr('x2', span)
    .attr('y1', (m) => y(m.mean))
    .attr('y2', (m) => y(m.mean));

  // The x axis: the first and the last memcg, as the tree orders them,
  // under their bars while those are apart, else at the plot's ends.
  const first = model.bars[0]!.path;
  const last = model.bars[n - 1]!.path;
  const apart = x.bandwidth() >= 120;
  layer<SVGGElement>(plot, 'g', 'x-axis')
    .attr('transform', `translate(0,${innerHeight})`)
    .selectAll('text.end-label')
    .data([
      { text: first, x: apart ? barX(0) + barWidth / 2 : 0, anchor: apart ? 'middle' : 'start' },
      { text: last, x: apart ? barX(n - 1) + barWidth / 2 : span, anchor: apart ? 'middle' : 'end' },
    ])
    .join('text')
    .attr('class', 'end-label')
    .attr('x', (d) => d.x)
    .attr('y', 13)
    .attr('text-anchor', (d) => d.anchor)
    .text((d) => d.text);
  layer<SVGGElement>(plot, 'g', 'x-axis')
    .selectAll('line.baseline')
    .data([span])
    .join('line')
    .attr('class', 'baseline')
    .attr('x1', 0)
    .attr('x2', (s) => s);
}
