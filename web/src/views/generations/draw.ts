// Draws one lruvec's generations into an <svg> that React owns. D3 does the
// scales, axes, joins and transitions; the data comes from the DOM-free
// model. Columns are keyed by seq, so when inc_max_seq adds a generation it
// slides in on the right and a generation that empties leaves on the left.
import {
  axisLeft,
  easeCubicOut,
  format,
  interrupt,
  scaleBand,
  scaleLinear,
  select,
  type BaseType,
  type Selection,
} from 'd3';
import { formatCount, formatDuration, formatPages } from '../../util/format';
import { FOLIO_TYPES, type FolioType, type GenerationBar, type GenerationColumn, type GenerationsModel } from './model';

export interface DrawOptions {
  width: number;
  height: number;
  /** Transition length in ms; 0 draws at once (reduced motion, resizes). */
  duration: number;
}

const MARGIN = { top: 40, right: 20, bottom: 58, left: 58 };
/** The widest a generation's column gets, so two generations don't turn into slabs. */
const MAX_COLUMN_WIDTH = 150;
const formatTick = (value: { valueOf(): number }) => {
  const v = value.valueOf();
  return v >= 10_000 ? format('.3~s')(v) : formatCount(v);
};
const TYPE_LABEL: Record<FolioType, string> = { anon: 'anon', file: 'file' };

type AnySelection<E extends BaseType> = Selection<E, unknown, null, undefined>;

/** The child element of `parent` with this (single) class name, created on first use. */
function layer<E extends BaseType>(parent: AnySelection<BaseType>, tag: string, className: string): AnySelection<E> {
  const existing = parent.select<E>(`:scope > ${tag}.${className}`);
  if (!existing.empty()) return existing as unknown as AnySelection<E>;
  return parent.append(tag).attr('class', className) as unknown as AnySelection<E>;
}

export function drawGenerations(node: SVGSVGElement, model: GenerationsModel, options: DrawOptions): void {
  const { width, height, duration } = options;
  const innerWidth = Math.max(0, width - MARGIN.left - MARGIN.right);
  const innerHeight = Math.max(0, height - MARGIN.top - MARGIN.bottom);

  // An instant redraw (resize, reduced motion) first cancels what is still
  // animating. (Importing `interrupt` from d3-transition also keeps that module,
  // which adds selection.transition(), in the bundle: d3's package is marked
  // side-effect free, so a bundler drops d3-transition when nothing imports from it.)
  if (duration === 0) node.querySelectorAll('*').forEach((element) => interrupt(element, 'generations'));

  const svg = select(node).attr('width', width).attr('height', height).attr('viewBox', `0 0 ${width} ${height}`);
  const root = svg as unknown as AnySelection<BaseType>;
  // Typed as a BaseType transition so every child selection can join it.
  const transition = select<BaseType, unknown>(node).transition('generations').duration(duration).ease(easeCubicOut);

  drawLegend(layer<SVGGElement>(root, 'g', 'legend').attr('transform', `translate(${MARGIN.left},14)`), innerWidth);

  const plot = layer<SVGGElement>(root, 'g', 'plot').attr('transform', `translate(${MARGIN.left},${MARGIN.top})`);
  const plotAny = plot as unknown as AnySelection<BaseType>;

  // y: pages per generation and type.
  const y = scaleLinear()
    .domain([0, Math.max(1, model.maxPages)])
    .nice(5)
    .range([innerHeight, 0]);
  // Whole pages only; the axis and grid move at once (an interrupted axis
  // transition would leave its exiting ticks behind), the bars animate.
  const tickCount = Math.max(2, Math.min(5, Math.floor(innerHeight / 40)));
  const tickValues = y.ticks(tickCount).filter(Number.isInteger);
  layer<SVGGElement>(plotAny, 'g', 'grid').call(
    axisLeft(y)
      .tickValues(tickValues)
      .tickSize(-innerWidth)
      .tickFormat(() => ''),
  );
  layer<SVGGElement>(plotAny, 'g', 'y-axis').call(axisLeft(y).tickValues(tickValues).tickFormat(formatTick));
  layer<SVGTextElement>(plotAny, 'text', 'axis-title')
    .attr('x', -MARGIN.left + 8)
    .attr('y', -14)
    .text('pages');
  layer<SVGLineElement>(plotAny, 'line', 'baseline')
    .attr('x1', 0)
    .attr('x2', innerWidth)
    .attr('y1', innerHeight)
    .attr('y2', innerHeight);

  // x: one band per generation, oldest left; narrow charts stay centred.
  const span = Math.min(innerWidth, Math.max(1, model.columns.length) * MAX_COLUMN_WIDTH);
  const start = (innerWidth - span) / 2;
  const x = scaleBand<number>()
    .domain(model.columns.map((c) => c.seq))
    .range([start, start + span])
    .paddingInner(0.22)
    .paddingOuter(0.12);
  const xType = scaleBand<FolioType>().domain(FOLIO_TYPES).range([0, x.bandwidth()]).paddingInner(0.1);
  const barLeft = (b: GenerationBar) => xType(b.type) ?? 0;

  const columnsLayer = layer<SVGGElement>(plotAny, 'g', 'columns');
  // Columns whose exit transition was interrupted by this redraw would stay forever.
  columnsLayer.selectAll('g.column.leaving').remove();
  const columns = columnsLayer
    .selectAll<SVGGElement, GenerationColumn>('g.column')
    .data(model.columns, (c) => c.seq);

  // A new (younger) generation slides in from the right edge.
  const entering = columns
    .enter()
    .append('g')
    .attr('class', 'column')
    .attr('opacity', 0)
    .attr('transform', `translate(${start + span},0)`);
  entering.append('text').attr('class', 'seq-label').attr('y', innerHeight + 18);
  entering.append('text').attr('class', 'gen-label').attr('y', innerHeight + 33);
  entering.append('text').attr('class', 'role-label').attr('y', innerHeight + 48);

  // An emptied (oldest) generation leaves to the left.
  columns
    .exit()
    .classed('leaving', true)
    .transition(transition)
    .attr('opacity', 0)
    .attr('transform', `translate(${start - x.step()},0)`)
    .remove();

  const merged = entering.merge(columns);
  merged
    .attr('data-seq', (c) => c.seq)
    .classed('oldest', (c) => c.oldest)
    .classed('youngest', (c) => c.youngest)
    .transition(transition)
    .attr('opacity', 1)
    .attr('transform', (c) => `translate(${x(c.seq) ?? 0},0)`);

  const middle = x.bandwidth() / 2;
  merged
    .select<SVGTextElement>('text.seq-label')
    .attr('x', middle)
    .attr('y', innerHeight + 18)
    .text((c) => `seq ${c.seq}`);
  merged
    .select<SVGTextElement>('text.gen-label')
    .attr('x', middle)
    .attr('y', innerHeight + 33)
    .text((c) => `gen ${c.gen} · ${formatDuration(c.ageNs)}`);
  merged
    .select<SVGTextElement>('text.role-label')
    .attr('x', middle)
    .attr('y', innerHeight + 48)
    .text((c) => (c.youngest && c.oldest ? 'only' : c.youngest ? 'youngest' : c.oldest ? 'oldest' : ''));

  const bars = merged
    .selectAll<SVGRectElement, GenerationBar>('rect.bar')
    .data((c) => c.bars, (b) => b.type)
    .join((enter) =>
      enter
        .append('rect')
        .attr('data-testid', 'gen-bar')
        .attr('class', (b) => `bar bar-${b.type}`)
        .attr('rx', 2)
        .attr('y', innerHeight)
        .attr('height', 0),
    )
    .attr('data-type', (b) => b.type)
    .attr('data-seq', (b) => b.seq)
    .attr('data-pages', (b) => b.pages)
    .classed('dead', (b) => !b.live)
    .attr('x', barLeft)
    .attr('width', xType.bandwidth());
  bars
    .selectAll('title')
    .data((b) => [b])
    .join('title')
    .text(
      (b) =>
        `seq ${b.seq}: ${formatCount(b.pages)} ${TYPE_LABEL[b.type]} pages (${formatPages(b.pages)})` +
        (b.live ? '' : ` — older than min_seq[${b.type}]`),
    );
  bars
    .transition(transition)
    .attr('y', (b) => y(b.pages))
    .attr('height', (b) => innerHeight - y(b.pages));

  // Page counts over the bars, when there is room for them.
  const showValues = xType.bandwidth() >= 26;
  merged
    .selectAll<SVGTextElement, GenerationBar>('text.bar-value')
    .data((c) => (showValues ? c.bars : []), (b) => b.type)
    .join((enter) => enter.append('text').attr('class', 'bar-value').attr('y', innerHeight - 4))
    .attr('x', (b) => barLeft(b) + xType.bandwidth() / 2)
    .classed('zero', (b) => b.pages === 0)
    .text((b) => (b.pages >= 10_000 ? format('.3~s')(b.pages) : formatCount(b.pages)))
    .transition(transition)
    .attr('y', (b) => y(b.pages) - 4);

  layer<SVGTextElement>(plotAny, 'text', 'empty-note')
    .attr('x', innerWidth / 2)
    .attr('y', innerHeight / 2)
    .text(model.columns.length === 0 ? 'No generations' : '');
}

function drawLegend(legend: AnySelection<SVGGElement>, innerWidth: number): void {
  const items = legend
    .selectAll<SVGGElement, FolioType>('g.legend-item')
    .data(FOLIO_TYPES)
    .join((enter) => {
      const g = enter.append('g').attr('class', 'legend-item');
      g.append('rect').attr('width', 12).attr('height', 12).attr('rx', 2).attr('y', -10);
      g.append('text').attr('x', 18);
      return g;
    })
    .attr('transform', (_, i) => `translate(${i * 64},0)`);
  items.select('rect').attr('class', (t) => `swatch bar-${t}`);
  items.select('text').text((t) => TYPE_LABEL[t]);
  legend
    .selectAll('text.direction')
    .data([0])
    .join('text')
    .attr('class', 'direction')
    .attr('x', innerWidth)
    .text('oldest → youngest (evicted from the oldest)');
}
