// Draws a node's kswapd timeline into an <svg> React owns: one band over
// simulated time, a rectangle per segment coloured by mode, each at its true
// width (runs are often far shorter than a pixel: tens of µs in a window of
// seconds), so the band's share painted "running" is the share of time spent
// running; segments shorter than a pixel are packed a pixel at a time, each
// mode's share of it painted as one piece, all of a mode in one path. Runs
// shorter than a pixel also get a 1 px tick above the band (one per pixel
// column), so they stay visible. Stretches inside steps the page
// did not see one by one (playing at several steps a tick) are hatched: the
// frame's transitions cover its last step only. The legend is drawn in the
// <svg> too, so an exported figure explains the band.
import { axisBottom, select } from 'd3';
import { layer, root, timeScale, uniqueId } from '../../util/d3';
import { formatCount, formatDuration, formatMs, timeTickFormat } from '../../util/format';
import { TIME_MARGIN } from '../zones/draw';
import { KSWAPD_MODES, MODE_HELP, kswapdLayout, type KswapdBar, type KswapdModel, type KswapdTick } from './model';

/** Top: room for the short-run ticks; bottom: the axis, then the legend. */
const MARGIN = { top: 10, bottom: 44, ...TIME_MARGIN };
const TICK = 6;
const AXIS = 20;

export function drawKswapd(node: SVGSVGElement, model: KswapdModel, size: { width: number; height: number }): void {
  const { width, height } = size;
  const innerWidth = Math.max(0, width - MARGIN.left - MARGIN.right);
  const band = Math.max(8, height - MARGIN.top - MARGIN.bottom);
  select(node).attr('width', width).attr('height', height).attr('viewBox', `0 0 ${width} ${height}`);
  const plot = layer<SVGGElement>(root(node), 'g', 'plot').attr('transform', `translate(${MARGIN.left},${MARGIN.top})`);
  const x = timeScale(model.start, model.end, innerWidth);
  const [start, end] = x.domain() as [number, number];
  const layout = kswapdLayout(model.segments, start, end, innerWidth);

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
  const order: Record<string, number> = { asleep: 0, napping: 1, running: 2, throttled: 3 };
  const bars = [...layout.bars].sort((a, b) => order[a.mode]! - order[b.mode]! || a.start - b.start);
  plot
    .selectAll<SVGRectElement, KswapdBar>('rect.segment')
    .data(bars)
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
    .attr('x', (s) => s.x)
    .attr('width', (s) => s.width)
    .select('title')
    .text(
      (s) =>
        s.observed
          ? `${s.mode} for ${formatDuration(s.end - s.start)} from ${formatMs(s.start)}`
          : `${formatDuration(s.end - s.start)} from ${formatMs(s.start)} not observed (no transitions for it): mode unknown`,
    );

  // Segments shorter than a pixel, packed a pixel at a time: one path per mode (and per observed or not),
  // so thousands of short runs cost a few DOM nodes, not a rectangle each.
  const groups = new Map<string, { mode: string; observed: boolean; d: string[] }>();
  for (const p of layout.pieces) {
    if (p.width <= 0) continue;
    const key = `${p.mode}/${p.observed}`;
    const g = groups.get(key) ?? { mode: p.mode, observed: p.observed, d: [] };
    g.d.push(`M${p.x.toFixed(3)},0h${p.width.toFixed(3)}v${band}h${(-p.width).toFixed(3)}z`);
    groups.set(key, g);
  }
  const packed = [...groups.values()].sort((a, b) => order[a.mode]! - order[b.mode]!);
  plot
    .selectAll<SVGPathElement, (typeof packed)[number]>('path.packed')
    .data(packed)
    .join((enter) => {
      const path = enter.append('path');
      path.append('title');
      return path;
    })
    .attr('class', (g) => `segment packed mode-${g.mode}${g.observed ? '' : ' unobserved'}`)
    .style('fill', (g) => (g.observed ? null : `url(#${hatchId})`))
    .attr('data-testid', 'kswapd-packed')
    .attr('data-mode', (g) => g.mode)
    .attr('d', (g) => g.d.join(''))
    .select('title')
    .text((g) => `${g.mode}${g.observed ? '' : ' (not observed)'}: stretches shorter than a pixel, painted in proportion to the time they took`);

  // Runs shorter than a pixel: a thin tick above the band per pixel column.
  plot
    .selectAll<SVGRectElement, KswapdTick>('rect.short-run')
    .data(layout.ticks)
    .join((enter) => {
      const r = enter.append('rect').attr('class', 'short-run mode-running');
      r.append('title');
      return r;
    })
    .attr('data-testid', 'kswapd-short-run')
    .attr('data-runs', (t) => t.runs)
    .attr('x', (t) => t.x)
    .attr('y', -TICK - 2)
    .attr('width', 1)
    .attr('height', TICK)
    .select('title')
    .text(
      (t) =>
        `${t.runs === 1 ? 'a run' : `${formatCount(t.runs)} runs`} shorter than a pixel from ${formatMs(t.start)}: ` +
        `running for ${formatDuration(t.ns)}${t.runs === 1 ? '' : ' in all'}`,
    );

  // Premature sleeps (kswapd-classzone's subject): a triangle over the band where each began.
  plot
    .selectAll<SVGPathElement, number>('path.premature-mark')
    .data(model.prematureAt)
    .join((enter) => {
      const p = enter.append('path').attr('class', 'premature-mark');
      p.append('title');
      return p;
    })
    .attr('data-testid', 'kswapd-premature-mark')
    .attr('data-time', (t) => t)
    .attr('d', (t) => `M${(x(t) - 5).toFixed(2)},-9h10l-5,9z`)
    .select('title')
    .text((t) => `premature sleep at ${formatMs(t)}: kswapd went to sleep while a zone its last wakeup asked for was still below its high watermark`);

  const tickLabel = timeTickFormat(x.ticks(Math.max(2, Math.floor(innerWidth / 90))), end);
  layer<SVGGElement>(plot, 'g', 'x-axis')
    .attr('transform', `translate(0,${band})`)
    .call(
      axisBottom(x)
        .ticks(Math.max(2, Math.floor(innerWidth / 90)))
        .tickSizeOuter(0)
        .tickFormat((v) => tickLabel(v.valueOf())),
    );

  drawLegend(node, model, { hatchId, width, y: MARGIN.top + band + AXIS + 12, shortRuns: layout.ticks.length > 0, premature: model.prematureAt.length > 0 });
}

interface LegendEntry {
  key: string;
  label: string;
  /** The wording for a row too narrow for `label` (side by side). */
  short?: string;
  help: string;
}

/** The modes (and the hatch and the short-run tick when drawn), in one row under the axis. */
function drawLegend(node: SVGSVGElement, model: KswapdModel, at: { hatchId: string; width: number; y: number; shortRuns: boolean; premature: boolean }): void {
  const entries: LegendEntry[] = KSWAPD_MODES.map((m) => ({ key: m, label: m, help: MODE_HELP[m]! }));
  if (model.segments.some((s) => !s.observed)) {
    entries.push({
      key: 'unobserved',
      label: 'not observed (mode unknown)',
      short: 'not observed',
      help: 'Time between frames that do not follow each other (after a seek): the mode in between is assumed unchanged',
    });
  }
  if (at.shortRuns) {
    entries.push({
      key: 'short-run',
      label: 'run shorter than a pixel',
      short: 'short run',
      help: 'A tick above the band marks runs too short to show in it (one tick per pixel column); the band itself is painted running only for the time kswapd ran',
    });
  }
  if (at.premature) {
    entries.push({
      key: 'premature',
      label: 'premature sleep',
      short: 'premature',
      help: 'kswapd went to sleep for good while a zone its last wakeup asked for was still below its high watermark (the count is "premature in all")',
    });
  }
  const legend = layer<SVGGElement>(root(node), 'g', 'legend').attr('aria-hidden', 'true');
  const items = legend
    .selectAll<SVGGElement, LegendEntry>('g.legend-item')
    .data(entries, (e) => e.key)
    .join((enter) => {
      const g = enter.append('g').attr('class', 'legend-item');
      g.append('rect');
      g.append('path');
      g.append('text').attr('x', 17).attr('y', 4);
      g.append('title');
      return g;
    });
  items
    .select('rect')
    .attr('class', (e) => (e.key === 'short-run' ? 'legend-key short-run mode-running' : `legend-key mode-${e.key}`))
    .style('fill', (e) => (e.key === 'unobserved' ? `url(#${at.hatchId})` : null))
    .attr('x', (e) => (e.key === 'short-run' ? 6 : 0))
    .attr('y', (e) => (e.key === 'short-run' ? -TICK + 2 : -5))
    .attr('width', (e) => (e.key === 'short-run' ? 1 : 12))
    .attr('height', (e) => (e.key === 'short-run' ? TICK : 10))
    .attr('rx', (e) => (e.key === 'short-run' ? 0 : 2))
    .attr('display', (e) => (e.key === 'premature' ? 'none' : null));
  items
    .select('path')
    .attr('class', 'premature-mark')
    .attr('d', (e) => (e.key === 'premature' ? 'M1,-5h10l-5,9z' : null))
    .attr('display', (e) => (e.key === 'premature' ? null : 'none'));
  items.select('title').text((e) => e.help);
  // One row, each entry as wide as its text; from the plot's left edge when it
  // fits; the short wording when the long one does not fit the chart at all.
  const measure = (short: boolean) => {
    items.select('text').text((e) => (short && e.short ? e.short : e.label));
    return items.nodes().map((g) => 17 + (g.querySelector('text')?.getComputedTextLength?.() ?? 0) + 14);
  };
  let widths = measure(false);
  if (widths.reduce((a, b) => a + b, 0) > at.width) widths = measure(true);
  const total = widths.reduce((a, b) => a + b, 0);
  let cursor = total <= at.width - MARGIN.left ? MARGIN.left : 0;
  items.attr('transform', (_, i) => {
    const left = cursor;
    cursor += widths[i]!;
    return `translate(${left},${at.y})`;
  });
}
