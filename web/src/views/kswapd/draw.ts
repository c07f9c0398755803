// Draws a node's kswapd timeline into an <svg> React owns: one band over
// simulated time, a rectangle per segment coloured by mode. Runs are often
// far shorter than a pixel (tens of µs in a window of seconds), so a run is
// drawn at least MIN_RUN px wide, above the other modes. Stretches inside
// steps the page did not see one by one (playing at several steps a tick)
// are hatched: the frame's transitions cover its last step only.
import { axisBottom, select } from 'd3';
import { layer, root, timeScale, uniqueId } from '../../util/d3';
import { formatDuration, formatMs, formatTimeTick } from '../../util/format';
import { TIME_MARGIN } from '../zones/draw';
import type { KswapdModel, KswapdSegment } from './model';

const MARGIN = { top: 6, bottom: 20, ...TIME_MARGIN };
const MIN_RUN = 2;

export function drawKswapd(node: SVGSVGElement, model: KswapdModel, size: { width: number; height: number }): void {
  const { width, height } = size;
  const innerWidth = Math.max(0, width - MARGIN.left - MARGIN.right);
  const band = Math.max(8, height - MARGIN.top - MARGIN.bottom);
  select(node).attr('width', width).attr('height', height).attr('viewBox', `0 0 ${width} ${height}`);
  const plot = layer<SVGGElement>(root(node), 'g', 'plot').attr('transform', `translate(${MARGIN.left},${MARGIN.top})`);
  const x = timeScale(model.start, model.end, innerWidth);
  const [start, end] = x.domain() as [number, number];

  // Time the frames did not cover is hatched: its mode is not known.
  let hatchId = node.dataset.hatch;
  if (!hatchId) {
    hatchId = uniqueId('kswapd-hatch');
    node.dataset.hatch = hatchId;
  }
  const defs = layer<SVGDefsElement>(root(node), 'defs', 'defs');
  const pattern = layer<SVGPatternElement>(defs, 'pattern', 'hatch')
    .attr('id', hatchId)
    .attr('width', 5)
    .attr('height', 5)
    .attr('patternUnits', 'userSpaceOnUse')
    .attr('patternTransform', 'rotate(45)');
  layer<SVGRectElement>(pattern, 'rect', 'hatch-bg').attr('width', 5).attr('height', 5);
  layer<SVGLineElement>(pattern, 'line', 'hatch-line').attr('x1', 0).attr('y1', 0).attr('x2', 0).attr('y2', 5);

  layer<SVGRectElement>(plot, 'rect', 'track').attr('width', innerWidth).attr('height', band).attr('rx', 3);
  // Runs last, so they stay on top of the long naps around them.
  const order: Record<string, number> = { asleep: 0, napping: 1, running: 2 };
  const segments = [...model.segments].sort((a, b) => order[a.mode]! - order[b.mode]! || a.start - b.start);
  plot
    .selectAll<SVGRectElement, KswapdSegment>('rect.segment')
    .data(segments)
    .join((enter) => {
      const r = enter.append('rect');
      r.append('title');
      return r;
    })
    .attr('class', (s) => `segment mode-${s.mode}${s.observed ? '' : ' unobserved'}`)
    .style('fill', (s) => (s.observed ? null : `url(#${hatchId})`))
    .attr('data-testid', 'kswapd-segment')
    .attr('data-mode', (s) => s.mode)
    .attr('data-start', (s) => s.start)
    .attr('data-end', (s) => s.end)
    .attr('y', 0)
    .attr('height', band)
    .attr('x', (s) => {
      const w = x(s.end) - x(s.start);
      return s.mode === 'running' && w < MIN_RUN ? x(s.start) - (MIN_RUN - w) / 2 : x(s.start);
    })
    .attr('width', (s) => Math.max(s.mode === 'running' ? MIN_RUN : 0, x(s.end) - x(s.start)))
    .select('title')
    .text(
      (s) =>
        s.observed
          ? `${s.mode} for ${formatDuration(s.end - s.start)} from ${formatMs(s.start)}`
          : `${formatDuration(s.end - s.start)} from ${formatMs(s.start)} not observed (no transitions for it): mode unknown`,
    );

  const span = end - start;
  layer<SVGGElement>(plot, 'g', 'x-axis')
    .attr('transform', `translate(0,${band})`)
    .call(
      axisBottom(x)
        .ticks(Math.max(2, Math.floor(innerWidth / 90)))
        .tickSizeOuter(0)
        .tickFormat((v) => formatTimeTick(v.valueOf(), span)),
    );
}
