// Draws one lruvec's LRU into an <svg> that React owns: MGLRU generations or
// the classic inactive/active lists, with the tracked folios as dots over
// the bars. D3 does the scales, axes, joins and transitions; the data comes
// from the DOM-free models. Columns are keyed by seq (or list), so when
// inc_max_seq adds a generation it slides in on the right and a generation
// that empties leaves on the left; dots are keyed by page, so a folio that
// changes generation (or list) moves across, and one that is evicted drops
// into the lane of shadow and swap entries below the axis.
import {
  easeCubicOut,
  format,
  interrupt,
  scaleBand,
  scaleLinear,
  select,
  type BaseType,
  type ScaleBand,
} from 'd3';
import { drawCountAxis, layer, type AnySelection } from '../../util/d3';
import { formatCount } from '../../util/format';
import { dotRadius, fitGrid, gridCell, gridTop, type FolioDot, type FolioDotsModel, type Grid } from './folios';
import { FOLIO_TYPES, type FolioType, type GenerationBar, type GenerationColumn, type GenerationsModel } from './model';
import { drawDots } from './dots';

export interface DrawOptions {
  width: number;
  height: number;
  /** Transition length in ms; 0 draws at once (reduced motion, resizes). */
  duration: number;
  /** The height of the lane of evicted folios (default LANE.height). */
  laneHeight?: number;
}

export interface FolioOptions {
  dots: FolioDotsModel;
  /** The selected page (highlighted), if any. */
  selected: string | null;
  /** Called with a page when its dot is clicked (or chosen with Enter/Space), null on Escape. */
  onSelect(page: string | null): void;
  /** The accessible name of the list of dots. */
  label: string;
}

/**
 * Dots drawn elsewhere (on a canvas over the chart, for many folios): the
 * chart keeps its bars' page counts above them.
 */
export interface ExternalDots {
  external: true;
  /** The height the dots take in each column, from the bottom, by "column/type" ("seq:7/file"). */
  heights: ReadonlyMap<string, number>;
}

/** The lane of non-resident tracked folios, below the column labels. */
const LANE = { top: 60, height: 28 };
const MARGIN = { top: 44, right: 20, left: 58 };
/** The widest a generation's column gets (a wide screen spreads four; two generations do not turn into slabs). */
const MAX_COLUMN_WIDTH = 220;
/** The part of the plot's height the dot grids may take. */
const DOT_AREA = 0.62;
/** Room at the left of each half of the lane for its caption. */
const LANE_CAPTION = 92;
const TYPE_LABEL: Record<FolioType, string> = { anon: 'anon', file: 'file' };
const LANE_LABEL: Record<FolioType, string> = { anon: 'anon: swapped', file: 'file: shadow' };

/** Where the parts of a lruvec's chart go (plot coordinates: from the margins' top left). */
export interface ChartGeometry {
  margin: { top: number; left: number };
  innerWidth: number;
  innerHeight: number;
  /** One band per column, oldest (or inactive) left. */
  x: ScaleBand<string>;
  /** The anon and file bars within a column's band. */
  xType: ScaleBand<FolioType>;
  /** Where the columns start and how wide they are in all. */
  start: number;
  span: number;
  /** The lane of evicted folios: its top, height, each type's half and the caption at its left. */
  laneTop: number;
  laneHeight: number;
  laneHalf: number;
  laneCaption: number;
  laneGridWidth: number;
}

/** Where the legend's dot key starts, after the swatches, and how wide it is: with MGLRU's tier sizes, and without. */
const DOT_KEY = { x: 140, width: { mglru: 244, classic: 186 } };
/** The height of a line of the legend. */
const LEGEND_LINE = 16;

/**
 * Whether the legend's dot key goes on a line of its own, under the
 * swatches: on a narrow chart (a phone), where one line would run past the
 * chart's right edge.
 */
function legendWraps(model: GenerationsModel, width: number): boolean {
  return MARGIN.left + DOT_KEY.x + DOT_KEY.width[model.mode === 'mglru' ? 'mglru' : 'classic'] > width - 4;
}

export function chartGeometry(model: GenerationsModel, width: number, height: number, laneHeight = LANE.height): ChartGeometry {
  const bottom = LANE.top + laneHeight + 8;
  const top = MARGIN.top + (legendWraps(model, width) ? LEGEND_LINE : 0);
  const innerWidth = Math.max(0, width - MARGIN.left - MARGIN.right);
  const innerHeight = Math.max(0, height - top - bottom);
  // x: one band per column, oldest (or inactive) left; narrow charts stay centred.
  const span = Math.min(innerWidth, Math.max(1, model.columns.length) * MAX_COLUMN_WIDTH);
  const start = (innerWidth - span) / 2;
  const x = scaleBand<string>()
    .domain(model.columns.map((c) => c.key))
    .range([start, start + span])
    .paddingInner(0.22)
    .paddingOuter(0.12);
  const xType = scaleBand<FolioType>().domain(FOLIO_TYPES).range([0, x.bandwidth()]).paddingInner(0.1);
  const laneHalf = innerWidth / 2;
  return {
    margin: { top, left: MARGIN.left },
    innerWidth,
    innerHeight,
    x,
    xType,
    start,
    span,
    laneTop: innerHeight + LANE.top,
    laneHeight,
    laneHalf,
    laneCaption: LANE_CAPTION,
    laneGridWidth: Math.max(0, laneHalf - LANE_CAPTION - 8),
  };
}

export function drawGenerations(
  node: SVGSVGElement,
  model: GenerationsModel,
  folios: FolioOptions | ExternalDots,
  options: DrawOptions,
): void {
  const { width, height, duration } = options;
  const geometry = chartGeometry(model, width, height, options.laneHeight);
  const { innerWidth, innerHeight, x, xType, start, span, laneHalf, laneGridWidth, margin } = geometry;
  const laneBox = { top: geometry.laneTop - innerHeight, height: geometry.laneHeight };

  // An instant redraw (resize, reduced motion) first cancels what is still
  // animating. (Importing `interrupt` from d3-transition also keeps that module,
  // which adds selection.transition(), in the bundle: d3's package is marked
  // side-effect free, so a bundler drops d3-transition when nothing imports from it.)
  if (duration === 0) node.querySelectorAll('*').forEach((element) => interrupt(element, 'generations'));

  const svg = select(node).attr('width', width).attr('height', height).attr('viewBox', `0 0 ${width} ${height}`);
  const root = svg as unknown as AnySelection<BaseType>;
  // Typed as a BaseType transition so every child selection can join it.
  const transition = select<BaseType, unknown>(node).transition('generations').duration(duration).ease(easeCubicOut);

  drawLegend(
    layer<SVGGElement>(root, 'g', 'legend').attr('aria-hidden', 'true').attr('transform', `translate(${MARGIN.left},${LEGEND_LINE})`),
    model,
    legendWraps(model, width),
  );

  const plot = layer<SVGGElement>(root, 'g', 'plot')
    .attr('aria-hidden', 'true')
    .attr('transform', `translate(${margin.left},${margin.top})`);
  const plotAny = plot as unknown as AnySelection<BaseType>;

  // y: pages per generation (or list) and type.
  const y = scaleLinear()
    .domain([0, Math.max(1, model.maxPages)])
    .nice(5)
    .range([innerHeight, 0]);
  // Whole pages only; the axis and grid move at once (an interrupted axis
  // transition would leave its exiting ticks behind), the bars animate.
  const tickCount = Math.max(2, Math.min(5, Math.floor(innerHeight / 40)));
  // The scale's top, for tests that check two charts share it (side by side).
  node.dataset.yTop = String(y.domain()[1]);
  drawCountAxis(plotAny, y, tickCount, innerWidth);
  layer<SVGTextElement>(plotAny, 'text', 'axis-title')
    .attr('x', -MARGIN.left + 8)
    .attr('y', -14)
    .text('pages');
  layer<SVGTextElement>(plotAny, 'text', 'direction').attr('x', innerWidth).attr('y', -14).text(model.direction);
  layer<SVGLineElement>(plotAny, 'line', 'baseline')
    .attr('x1', 0)
    .attr('x2', innerWidth)
    .attr('y1', innerHeight)
    .attr('y2', innerHeight);

  const barLeft = (b: GenerationBar) => xType(b.type) ?? 0;

  // The dot grids: one per type, the same in every column (and one per type in the lane).
  const dots = 'external' in folios ? null : folios.dots;
  const slots = dots?.slots ?? { anon: 0, file: 0 };
  const dotGrid: Record<FolioType, Grid> = {
    anon: fitGrid(slots.anon, xType.bandwidth(), innerHeight * DOT_AREA),
    file: fitGrid(slots.file, xType.bandwidth(), innerHeight * DOT_AREA),
  };
  const laneGrid: Record<FolioType, Grid> = {
    anon: fitGrid(slots.anon, laneGridWidth, laneBox.height - 4, 8, 3),
    file: fitGrid(slots.file, laneGridWidth, laneBox.height - 4, 8, 3),
  };
  /** The top of a column's dots of one type, in plot coordinates (innerHeight when it has none). */
  const dotsTop = (column: string, type: FolioType) => {
    if (!dots) {
      const h = 'external' in folios ? folios.heights.get(`${column}/${type}`) : undefined;
      return h === undefined ? innerHeight : innerHeight - 2 - h;
    }
    const top = dots.topSlot.get(`${column}/${type}`);
    return top === undefined ? innerHeight : innerHeight - 2 - gridTop(dotGrid[type], top);
  };

  const columnsLayer = layer<SVGGElement>(plotAny, 'g', 'columns');
  // Columns whose exit transition was interrupted by this redraw would stay forever.
  columnsLayer.selectAll('g.column.leaving').remove();
  const columns = columnsLayer
    .selectAll<SVGGElement, GenerationColumn>('g.column')
    .data(model.columns, (c) => c.key);

  // One step ages by one generation at a time: the new column slides in
  // from the right and the emptied one out to the left. After a jump (Go to
  // step, the timeline) several or all columns are new; sliding them all
  // from the same edge would stack their labels, so they fade in where they
  // belong and the old ones go at once.
  const jump = columns.enter().size() > 1 || columns.size() === 0;
  const entering = columns
    .enter()
    .append('g')
    .attr('class', 'column')
    .attr('opacity', 0)
    .attr('transform', (c) => `translate(${jump ? (x(c.key) ?? 0) : start + span},0)`);
  entering.append('text').attr('class', 'seq-label');
  entering.append('text').attr('class', 'gen-label');
  entering.append('text').attr('class', 'role-label');

  // An emptied (oldest) generation leaves to the left.
  const leaving = columns.exit().classed('leaving', true);
  if (jump) leaving.remove();
  else leaving.transition(transition).attr('opacity', 0).attr('transform', `translate(${start - x.step()},0)`).remove();

  const merged = entering.merge(columns);
  merged
    .attr('data-column', (c) => c.key)
    .attr('data-seq', (c) => c.seq)
    .classed('oldest', (c) => c.oldest)
    .classed('youngest', (c) => c.youngest)
    .transition(transition)
    .attr('opacity', 1)
    .attr('transform', (c) => `translate(${x(c.key) ?? 0},0)`);

  const middle = x.bandwidth() / 2;
  merged
    .select<SVGTextElement>('text.seq-label')
    .attr('x', middle)
    .attr('y', innerHeight + 18)
    .text((c) => c.heading);
  // A detail wider than its column (side by side, narrow windows) gives way to its short form.
  const room = x.step() - 6;
  merged
    .select<SVGTextElement>('text.gen-label')
    .attr('x', middle)
    .attr('y', innerHeight + 33)
    .text((c) => c.detail)
    .each(function (c) {
      if (typeof this.getComputedTextLength === 'function' && this.getComputedTextLength() > room) this.textContent = c.detailShort;
    });
  merged
    .select<SVGTextElement>('text.role-label')
    .attr('x', middle)
    .attr('y', innerHeight + 48)
    .text((c) => c.role);

  const bars = merged
    .selectAll<SVGRectElement, GenerationBar>('rect.bar')
    .data((c) => c.bars, (b) => b.type)
    .join((enter) =>
      enter
        .append('rect')
        .attr('class', (b) => `bar bar-${b.type}`)
        .attr('rx', 2)
        .attr('y', innerHeight)
        .attr('height', 0),
    )
    .attr('data-testid', model.mode === 'mglru' ? 'gen-bar' : 'list-bar')
    .attr('data-type', (b) => b.type)
    .attr('data-seq', (b) => b.seq)
    .attr('data-list', (b) => b.list)
    .attr('data-pages', (b) => b.pages)
    .classed('dead', (b) => !b.live)
    .attr('x', barLeft)
    .attr('width', xType.bandwidth());
  bars
    .selectAll('title')
    .data((b) => [b])
    .join('title')
    .text((b) => b.title);
  bars
    .transition(transition)
    .attr('y', (b) => y(b.pages))
    .attr('height', (b) => innerHeight - y(b.pages));

  // Page counts over the bars (and over their dots), when there is room for them.
  const showValues = xType.bandwidth() >= 26;
  merged
    .selectAll<SVGTextElement, GenerationBar>('text.bar-value')
    .data((c) => (showValues ? c.bars : []), (b) => b.type)
    .join((enter) => enter.append('text').attr('class', 'bar-value').attr('y', innerHeight - 4))
    .attr('x', (b) => barLeft(b) + xType.bandwidth() / 2)
    .classed('zero', (b) => b.pages === 0)
    .text((b) => (b.pages >= 10_000 ? format('.3~s')(b.pages) : formatCount(b.pages)))
    .transition(transition)
    .attr('y', (b) => Math.min(y(b.pages), dotsTop(b.column, b.type)) - 4);

  layer<SVGTextElement>(plotAny, 'text', 'empty-note')
    .attr('x', innerWidth / 2)
    .attr('y', innerHeight / 2)
    .text(model.columns.length === 0 ? (model.mode === 'mglru' ? 'No generations' : 'No lists') : '');

  // The lane of shadow and swap entries: tracked pages that were reclaimed.
  const laneTop = innerHeight + laneBox.top;
  const lane = layer<SVGGElement>(plotAny, 'g', 'lane').attr('transform', `translate(0,${laneTop})`);
  layer<SVGRectElement>(lane as unknown as AnySelection<BaseType>, 'rect', 'lane-bg')
    .attr('x', -4)
    .attr('width', innerWidth + 8)
    .attr('height', laneBox.height)
    .attr('rx', 4);
  layer<SVGTextElement>(lane as unknown as AnySelection<BaseType>, 'text', 'lane-title')
    .attr('x', -MARGIN.left + 8)
    .attr('y', laneBox.height / 2 + 4)
    .text('evicted');
  lane
    .selectAll<SVGTextElement, FolioType>('text.lane-caption')
    .data(FOLIO_TYPES)
    .join('text')
    .attr('class', (t) => `lane-caption lane-${t}`)
    .attr('x', (_, i) => i * laneHalf + 4)
    .attr('y', laneBox.height / 2 + 4)
    .text((t) => LANE_LABEL[t]);

  /** A dot's centre in plot coordinates. */
  const position = (d: FolioDot): [number, number] => {
    if (d.column === null) {
      const grid = laneGrid[d.kind];
      const left = FOLIO_TYPES.indexOf(d.kind) * laneHalf + LANE_CAPTION;
      const cell = gridCell(grid, d.slot, laneGridWidth);
      const bottom = laneTop + laneBox.height / 2 + (grid.rows * grid.spacing) / 2;
      return [left + cell.x, bottom - cell.y];
    }
    const grid = dotGrid[d.kind];
    const cell = gridCell(grid, d.slot, xType.bandwidth());
    return [(x(d.column) ?? 0) + (xType(d.kind) ?? 0) + cell.x, innerHeight - 2 - cell.y];
  };
  const spacing = (d: FolioDot) => (d.column === null ? laneGrid : dotGrid)[d.kind].spacing;
  const radius = (d: FolioDot) =>
    d.column === null ? Math.max(1.5, spacing(d) * 0.32) : dotRadius(spacing(d), d.tier, model.mode);

  if ('external' in folios) root.select(':scope > g.folios').remove();
  else drawDots(root, folios, { transition, position, spacing, radius, margin });
}

function drawLegend(legend: AnySelection<SVGGElement>, model: GenerationsModel, wrap: boolean): void {
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

  // The dots: sizes by tier with MGLRU, and the hollow dots of reclaimed pages.
  const key = layer<SVGGElement>(legend as unknown as AnySelection<BaseType>, 'g', 'dot-key').attr(
    'transform',
    wrap ? `translate(0,${LEGEND_LINE})` : `translate(${DOT_KEY.x},0)`,
  );
  const sizes = model.mode === 'mglru' ? [0, 1, 2, 3] : [1];
  const samples = key
    .selectAll<SVGCircleElement, number>('circle.sample')
    .data(sizes)
    .join('circle')
    .attr('class', 'sample')
    .attr('r', (tier) => dotRadius(9, tier, model.mode))
    .attr('cy', -4);
  samples.attr('cx', (_, i) => i * 10 + 4);
  const cursor = sizes.length * 10 + 2;
  const text = model.mode === 'mglru' ? 'tracked folio, tier 0–3' : 'tracked folio';
  layer<SVGTextElement>(key as unknown as AnySelection<BaseType>, 'text', 'dot-text').attr('x', cursor).text(text);
  const hollowX = cursor + (model.mode === 'mglru' ? 150 : 92);
  layer<SVGCircleElement>(key as unknown as AnySelection<BaseType>, 'circle', 'hollow')
    .attr('cx', hollowX)
    .attr('cy', -4)
    .attr('r', 3);
  layer<SVGTextElement>(key as unknown as AnySelection<BaseType>, 'text', 'hollow-text')
    .attr('x', hollowX + 8)
    .text('evicted');
}
