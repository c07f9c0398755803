// Draws one memory.reclaim write's rounds into an <svg> React owns: per
// round, the batch asked for (outlined) beside what it reclaimed (filled).
// Rounds too many for two bars each (32-page rounds: about 1,800) show what
// each reclaimed as a bar and the batches asked as one line over them, so
// that the outlines do not merge into a band that reads as a stacked bar.
import { axisBottom, curveStepAfter, line, scaleBand, scaleLinear } from 'd3';
import { drawCountAxis, layer, plotArea } from '../../util/d3';
import { formatCount } from '../../util/format';
import type { RoundBar, RoundsModel } from './model';

const MARGIN = { top: 10, right: 12, bottom: 22, left: 44 };
const MAX_GROUP = 64;

/** The rounds the x axis names: every one up to 16, else about eight at a round stride (#1, #250, #500, ...). */
export function roundTicks(n: number): number[] {
  if (n <= 16) return Array.from({ length: n }, (_, i) => i + 1);
  const raw = n / 8;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const stride = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? 10 * magnitude;
  // stride >= 2.5 (n > 16), so the rounded ticks stay apart.
  const ticks = [1];
  for (let r = stride; r <= n; r += stride) ticks.push(Math.round(r));
  return ticks;
}

export function drawRounds(node: SVGSVGElement, model: RoundsModel, size: { width: number; height: number }): void {
  const { plot, innerWidth, innerHeight } = plotArea(node, size, MARGIN);

  const span = Math.min(innerWidth, Math.max(1, model.bars.length) * MAX_GROUP);
  const x = scaleBand<number>()
    .domain(model.bars.map((b) => b.round))
    .range([0, span])
    .paddingInner(0.25)
    .paddingOuter(0.1);
  const half = x.bandwidth() / 2;
  /** Under 3 px a bar: one bar a round, the batches asked as a line. */
  const dense = half < 3;
  const y = scaleLinear().domain([0, model.yMax]).nice(3).range([innerHeight, 0]);
  drawCountAxis(plot, y, 3, innerWidth, (v) => formatCount(v.valueOf()));
  layer<SVGGElement>(plot, 'g', 'x-axis')
    .attr('transform', `translate(0,${innerHeight})`)
    .call(
      axisBottom(x)
        .tickSizeOuter(0)
        .tickValues(roundTicks(model.bars.length))
        .tickFormat((r) => `#${r}`),
    );

  const groups = plot
    .selectAll<SVGGElement, RoundBar>('g.round')
    .data(model.bars, (b) => String(b.round))
    .join((enter) => {
      const g = enter.append('g').attr('class', 'round');
      g.append('rect').attr('class', 'asked');
      g.append('rect').attr('class', 'got');
      g.append('title');
      return g;
    })
    .attr('data-testid', 'reclaim-round')
    .attr('data-batch', (b) => b.batch)
    .attr('data-reclaimed', (b) => b.reclaimed)
    .attr('transform', (b) => `translate(${x(b.round) ?? 0},0)`);
  groups
    .select('rect.asked')
    .attr('display', dense ? 'none' : null)
    .attr('x', 0)
    .attr('width', Math.max(1, half - 1))
    .attr('y', (b) => y(b.batch))
    .attr('height', (b) => innerHeight - y(b.batch));
  groups
    .select('rect.got')
    .attr('x', dense ? 0 : half)
    .attr('width', dense ? Math.max(1, x.bandwidth()) : Math.max(1, half - 1))
    .attr('y', (b) => y(b.reclaimed))
    .attr('height', (b) => innerHeight - y(b.reclaimed));
  groups.select('title').text((b) => b.label);
  // The batches asked, as one line above every round's bar.
  const asked = line<RoundBar>()
    .x((b) => (x(b.round) ?? 0) + x.bandwidth() / 2)
    .y((b) => y(b.batch))
    .curve(curveStepAfter);
  layer<SVGPathElement>(plot, 'path', 'asked-line')
    .attr('display', dense ? null : 'none')
    .attr('data-testid', 'rounds-asked-line')
    .attr('d', dense ? asked(model.bars) : null)
    .raise();
}
