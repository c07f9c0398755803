// Draws one lruvec's shadow LRU into an <svg> React owns: a strip per
// refault model. The distance strip puts each shadow at its refault distance
// in the row of its kind, with the workingset threshold of that kind as a
// labelled vertical line and the "activates" zone left of it; the
// generation strip (MGLRU) puts each shadow in the column of the generation
// its token names, with the live window min_seq..max_seq of its type. A
// shadow that would be activated if it refaulted now is filled, the others
// hollow. Dots are keyed by page, so they slide as distances grow.
import { axisBottom, easeCubicOut, format, interrupt, scaleBand, scaleLinear, select, type BaseType, type Transition } from 'd3';
import { layer, type AnySelection } from '../../util/d3';
import { formatCount } from '../../util/format';
import { FOLIO_TYPES, type FolioType } from '../generations/model';
import { stackLevels, type ShadowDot, type ShadowLruvecModel } from './model';
import { listboxKey } from '../../util/listbox';

export interface ShadowDrawOptions {
  width: number;
  /** Transition length in ms; 0 draws at once (reduced motion, resizes). */
  duration: number;
  selected: string | null;
  /** Called with a page when its dot is clicked (or chosen with Enter/Space), null on Escape. */
  onSelect(page: string | null): void;
}

const MARGIN = { left: 64, right: 16 };
const ROW = 46;
const DOT_R = 3.6;
/** The distance strip's band for shadows beyond the axis. */
const OVERFLOW = 48;
const STRIP_GAP = 26;
/** Above each strip: its title and the threshold labels. */
const STRIP_TOP = 34;
const AXIS = 30;

/** The height the chart needs for this model. */
export function shadowChartHeight(model: ShadowLruvecModel): number {
  let h = 0;
  if (model.distance) h += STRIP_TOP + 2 * ROW + AXIS;
  if (model.generation) h += (h > 0 ? STRIP_GAP : 0) + STRIP_TOP + 2 * ROW + AXIS;
  return Math.max(h, 60);
}

interface Placed {
  dot: ShadowDot;
  x: number;
  y: number;
}

const tick = (v: { valueOf(): number }) => {
  const n = v.valueOf();
  return n >= 10_000 ? format('.3~s')(n) : formatCount(n);
};

export function drawShadows(node: SVGSVGElement, model: ShadowLruvecModel, options: ShadowDrawOptions): void {
  const { width, duration } = options;
  const height = shadowChartHeight(model);
  if (duration === 0) node.querySelectorAll('*').forEach((element) => interrupt(element, 'shadows'));
  const svg = select(node).attr('width', width).attr('height', height).attr('viewBox', `0 0 ${width} ${height}`);
  const root = svg as unknown as AnySelection<BaseType>;
  const transition = select<BaseType, unknown>(node).transition('shadows').duration(duration).ease(easeCubicOut);
  const inner = Math.max(40, width - MARGIN.left - MARGIN.right);

  let top = 0;
  const strips: { name: string; placed: Placed[] }[] = [];
  const distanceLayer = layer<SVGGElement>(root, 'g', 'distance-strip');
  if (model.distance) {
    distanceLayer.attr('display', null).attr('transform', `translate(${MARGIN.left},${top + STRIP_TOP})`);
    strips.push({ name: 'distance', placed: drawDistance(distanceLayer, model, inner) });
    top += STRIP_TOP + 2 * ROW + AXIS + STRIP_GAP;
  } else {
    distanceLayer.attr('display', 'none');
  }
  const genLayer = layer<SVGGElement>(root, 'g', 'generation-strip');
  if (model.generation) {
    genLayer.attr('display', null).attr('transform', `translate(${MARGIN.left},${top + STRIP_TOP})`);
    strips.push({ name: 'generation', placed: drawGenerations(genLayer, model, inner) });
  } else {
    genLayer.attr('display', 'none');
  }
  // At the foot of the first strip's second row: the min_seq labels and the
  // threshold labels sit at the tops of the rows. A narrow chart (side by
  // side) gets the short wording.
  layer<SVGTextElement>(root, 'text', 'empty-note')
    .attr('x', MARGIN.left + inner / 2)
    .attr('y', STRIP_TOP + 2 * ROW - 8)
    .text(model.dots.length === 0 ? 'No tracked page of this lruvec is out of memory' : '')
    .each(function () {
      if (typeof this.getComputedTextLength === 'function' && this.getComputedTextLength() > inner * 0.7) this.textContent = 'No tracked page out of memory';
    });

  // The first strip's dots are the keyboard's listbox; the second repeats them for the eye.
  for (const [i, strip] of strips.entries()) {
    const parent = strip.name === 'distance' ? distanceLayer : genLayer;
    drawDots(parent, strip.placed, options, transition, i === 0, `Shadows of ${model.memcg} on node ${model.node}`);
  }
  genLayer.select<SVGGElement>('g.window-labels').raise();
  for (const name of ['distance', 'generation']) {
    if (!strips.some((s) => s.name === name)) (name === 'distance' ? distanceLayer : genLayer).selectAll('g.shadow').remove();
  }
}

function rowY(kind: FolioType): number {
  return FOLIO_TYPES.indexOf(kind) * ROW;
}

/**
 * The rows' frame and the chart's title: the first of `titles` (longest
 * first) that fits the chart's width, so that compare mode's half-width
 * charts get a shorter wording instead of a cut one.
 */
function drawRows(g: AnySelection<SVGGElement>, inner: number, titles: readonly string[]): void {
  const title = layer<SVGTextElement>(g, 'text', 'strip-title').attr('x', -MARGIN.left + 8).attr('y', -16);
  const room = inner + MARGIN.left + MARGIN.right - 8;
  const node = title.node();
  for (const t of titles) {
    title.text(t);
    if (!node || typeof node.getComputedTextLength !== 'function' || node.getComputedTextLength() <= room) break;
  }
  g.selectAll<SVGRectElement, FolioType>('rect.row-bg')
    .data(FOLIO_TYPES)
    .join('rect')
    .attr('class', (k) => `row-bg row-${k}`)
    .attr('x', 0)
    .attr('y', (k) => rowY(k) + 2)
    .attr('width', inner)
    .attr('height', ROW - 4)
    .attr('rx', 4);
  g.selectAll<SVGTextElement, FolioType>('text.row-label')
    .data(FOLIO_TYPES)
    .join('text')
    .attr('class', (k) => `row-label row-label-${k}`)
    .attr('x', -8)
    .attr('y', (k) => rowY(k) + ROW / 2 + 4)
    .text((k) => k);
}

/**
 * Places dots in a row bottom-up, stacking those that would overlap; dots in
 * the overflow band (`band`: its left edge and width) fill it left to right first.
 */
function stackRow(dots: readonly { dot: ShadowDot; x: number }[], kind: FolioType, band: { left: number; width: number }): Placed[] {
  const step = DOT_R * 2 + 1;
  const perRow = Math.max(1, Math.floor((band.width - 2) / step));
  let inBand = 0;
  const mine = dots
    .filter((d) => d.dot.kind === kind)
    .map((d) => {
      if (!d.dot.overflow) return d;
      const i = inBand++;
      return { dot: d.dot, x: band.left + DOT_R + 1 + (i % perRow) * step };
    });
  const levels = stackLevels(
    mine.map((d) => d.x),
    step,
  );
  const maxLevel = Math.max(0, ...levels);
  const room = ROW - 12;
  const spacing = Math.min(DOT_R * 2 + 1, maxLevel > 0 ? room / maxLevel : room);
  return mine.map((d, i) => ({ dot: d.dot, x: d.x, y: rowY(kind) + ROW - 6 - DOT_R - levels[i]! * spacing }));
}

function drawDistance(g: AnySelection<SVGGElement>, model: ShadowLruvecModel, inner: number): Placed[] {
  const strip = model.distance!;
  const axisWidth = Math.max(20, inner - OVERFLOW);
  const x = scaleLinear().domain([0, strip.xMax]).range([0, axisWidth]);
  drawRows(g, inner, ['Refault distance (nonresident_age now − at eviction) against the workingset', 'Refault distance against the workingset']);
  layer<SVGGElement>(g, 'g', 'x-axis')
    .attr('transform', `translate(0,${2 * ROW})`)
    .call(
      axisBottom(x)
        // Whole pages only (a short axis would tick halves).
        .tickValues(x.ticks(Math.max(2, Math.floor(axisWidth / 90))).filter(Number.isInteger))
        .tickFormat(tick)
        .tickSizeOuter(0),
    );
  // From the axis' start, clear of the overflow band's label at its end of the same line.
  layer<SVGTextElement>(g, 'text', 'axis-title')
    .attr('x', 0)
    .attr('y', 2 * ROW + AXIS - 2)
    .attr('text-anchor', 'start')
    .text('refault distance, pages →');
  // The overflow band: shadows farther than the axis goes.
  layer<SVGRectElement>(g, 'rect', 'overflow-bg')
    .attr('x', axisWidth + 6)
    .attr('y', 2)
    .attr('width', OVERFLOW - 8)
    .attr('height', 2 * ROW - 4)
    .attr('rx', 4);
  // On the axis title's line (the tick labels' line ends at the axis' last tick).
  layer<SVGTextElement>(g, 'text', 'overflow-label')
    .attr('x', axisWidth + 2 + OVERFLOW / 2)
    .attr('y', 2 * ROW + AXIS - 2)
    .attr('text-anchor', 'middle')
    .text(`> ${tick(strip.xMax)}`);

  // Per kind: the zone a refault activates in, and the threshold line.
  const byKind = FOLIO_TYPES.flatMap((k) => strip.thresholds.filter((t) => t.kind === k));
  g.selectAll<SVGRectElement, (typeof byKind)[number]>('rect.zone')
    .data(byKind, (t) => t.kind)
    .join('rect')
    .attr('class', (t) => `zone zone-${t.kind}`)
    .attr('x', 0)
    .attr('y', (t) => rowY(t.kind) + 2)
    .attr('height', ROW - 4)
    .attr('width', (t) => Math.min(axisWidth, x(t.pages)));
  const lines = g
    .selectAll<SVGGElement, (typeof byKind)[number]>('g.threshold')
    .data(byKind, (t) => t.kind)
    .join((enter) => {
      const t = enter.append('g').attr('class', 'threshold');
      t.append('line');
      t.append('text');
      t.append('title');
      return t;
    })
    .attr('class', (t) => `threshold threshold-${t.kind}`)
    .attr('data-testid', 'shadow-threshold')
    .attr('data-kind', (t) => t.kind)
    .attr('data-pages', (t) => t.pages)
    .attr('transform', (t) => `translate(${Math.min(axisWidth, x(t.pages))},0)`);
  lines
    .select('line')
    .attr('y1', (t) => rowY(t.kind) - 4)
    .attr('y2', (t) => rowY(t.kind) + ROW);
  // Labels: anon's above the strip, file's inside its row, so they never collide.
  lines
    .select('text')
    .attr('x', 4)
    .attr('y', (t) => (t.kind === 'anon' ? -4 : rowY(t.kind) + 12))
    .attr('text-anchor', (t) => (x(t.pages) > axisWidth * 0.7 ? 'end' : 'start'))
    .attr('dx', (t) => (x(t.pages) > axisWidth * 0.7 ? -8 : 0))
    .text((t) => `${t.label} activates`);
  lines.select('title').text((t) => t.rule);

  const xs = model.dots
    .filter((d) => d.distance !== null)
    .map((dot) => ({ dot, x: dot.overflow ? axisWidth + 2 + OVERFLOW / 2 : x(dot.distance!) }));
  // Nearest first in each row: the reading (and keyboard) order.
  xs.sort((a, b) => a.x - b.x);
  return FOLIO_TYPES.flatMap((k) => stackRow(xs, k, { left: axisWidth + 6, width: OVERFLOW - 8 }));
}

function drawGenerations(g: AnySelection<SVGGElement>, model: ShadowLruvecModel, inner: number): Placed[] {
  const strip = model.generation!;
  const x = scaleBand<string>().domain(strip.columns).range([0, inner]).paddingInner(0.12).paddingOuter(0.04);
  const band = x.bandwidth();
  drawRows(g, inner, [
    'Generation the shadow was evicted from (its token), against min_seq..max_seq',
    'Eviction generation (the token) against min_seq..max_seq',
    'Eviction generation vs min_seq..max_seq',
  ]);
  // The live window of each type: min_seq..max_seq; min_seq itself is where a refault is recent.
  const windows = FOLIO_TYPES.map((kind) => ({ kind, min: strip.minSeq[kind] }));
  const colX = (seq: number) => x(`seq:${seq}`) ?? 0;
  g.selectAll<SVGRectElement, (typeof windows)[number]>('rect.window')
    .data(windows, (w) => w.kind)
    .join('rect')
    .attr('class', (w) => `window window-${w.kind}`)
    .attr('x', (w) => colX(w.min))
    .attr('y', (w) => rowY(w.kind) + 2)
    .attr('width', (w) => colX(strip.maxSeq) + band - colX(w.min))
    .attr('height', ROW - 4)
    .attr('rx', 4);
  const recent = g
    .selectAll<SVGGElement, (typeof windows)[number]>('g.recent-gen')
    .data(windows, (w) => w.kind)
    .join((enter) => {
      const r = enter.append('g').attr('class', 'recent-gen');
      r.append('rect');
      r.append('title');
      return r;
    })
    .attr('data-testid', 'shadow-min-seq')
    .attr('data-kind', (w) => w.kind)
    .attr('data-seq', (w) => w.min)
    .attr('class', (w) => `recent-gen zone-${w.kind}`);
  recent
    .select('rect')
    .attr('class', (w) => `zone zone-${w.kind}`)
    .attr('x', (w) => colX(w.min))
    .attr('y', (w) => rowY(w.kind) + 2)
    .attr('width', band)
    .attr('height', ROW - 4);
  // The labels go in a layer of their own, which draw() raises above the dots
  // (a full column of dots reaches the top of its row).
  layer<SVGGElement>(g, 'g', 'window-labels')
    .selectAll<SVGTextElement, (typeof windows)[number]>('text.window-label')
    .data(windows, (w) => w.kind)
    .join('text')
    .attr('class', 'window-label')
    .attr('x', (w) => colX(w.min) + 4)
    .attr('y', (w) => rowY(w.kind) + 12)
    .text((w) => `min_seq[${w.kind}]`);
  recent.select('title').text((w) => `lru_gen_test_recent: ${w.kind === 'anon' ? 'an' : 'a'} ${w.kind} shadow evicted from generation ${w.min} (min_seq[${w.kind}]) is recent`);
  layer<SVGGElement>(g, 'g', 'x-axis')
    .attr('transform', `translate(0,${2 * ROW})`)
    .call(
      axisBottom(x)
        .tickSizeOuter(0)
        .tickFormat((key) => (key === 'older' ? 'older' : key.slice(4))),
    );
  layer<SVGTextElement>(g, 'text', 'axis-title')
    .attr('x', colX(strip.maxSeq) + band / 2)
    .attr('y', 2 * ROW + AXIS - 2)
    .attr('text-anchor', 'middle')
    .text('max_seq');
  const xs = model.dots
    .filter((d) => d.column !== null)
    .map((dot) => {
      const left = x(dot.column!) ?? 0;
      return { dot, x: left + band / 2 };
    });
  // Within a column, spread the dots across its width before stacking them.
  const spread = (kind: FolioType) => {
    const mine = xs.filter((d) => d.dot.kind === kind);
    const perColumn = new Map<string, number>();
    return mine.map((d) => {
      const i = perColumn.get(d.dot.column!) ?? 0;
      perColumn.set(d.dot.column!, i + 1);
      const perRow = Math.max(1, Math.floor((band - 4) / (DOT_R * 2 + 1)));
      const col = i % perRow;
      const left = (x(d.dot.column!) ?? 0) + 2 + DOT_R;
      return { dot: d.dot, x: left + col * (DOT_R * 2 + 1), level: Math.floor(i / perRow) };
    });
  };
  return FOLIO_TYPES.flatMap((kind) => {
    const placed = spread(kind);
    const maxLevel = Math.max(0, ...placed.map((p) => p.level));
    const room = ROW - 12;
    const spacing = Math.min(DOT_R * 2 + 1, maxLevel > 0 ? room / maxLevel : room);
    return placed.map((p) => ({ dot: p.dot, x: p.x, y: rowY(kind) + ROW - 6 - DOT_R - p.level * spacing }));
  });
}

function drawDots(
  parent: AnySelection<SVGGElement>,
  placed: Placed[],
  options: ShadowDrawOptions,
  transition: Transition<BaseType, unknown, null, undefined>,
  interactive: boolean,
  label: string,
): void {
  const list = layer<SVGGElement>(parent, 'g', 'shadow-dots')
    .attr('role', interactive ? 'listbox' : null)
    .attr('aria-label', interactive ? label : null)
    .attr('aria-hidden', interactive ? null : 'true');
  const listNode = list.node()!;
  const { selected } = options;
  const pages = new Set(placed.map((p) => p.dot.page));
  const remembered = listNode.dataset.active;
  const active = selected && pages.has(selected) ? selected : remembered && pages.has(remembered) ? remembered : (placed[0]?.dot.page ?? null);
  if (active) listNode.dataset.active = active;
  const join = list.selectAll<SVGGElement, Placed>('g.shadow').data(placed, (p) => p.dot.page);
  const entering = join
    .enter()
    .append('g')
    .attr('class', 'shadow')
    .attr('transform', (p) => `translate(${p.x},${p.y})`)
    .attr('opacity', 0);
  entering.append('circle').attr('class', 'halo');
  entering.append('circle').attr('class', 'dot');
  entering.append('title');
  join.exit().remove();
  const dots = entering.merge(join);
  dots.order();
  dots
    .attr('class', (p) => `shadow shadow-${p.dot.kind}${p.dot.activate ? ' would-activate' : ''}${p.dot.page === selected ? ' selected' : ''}`)
    .attr('data-testid', interactive ? 'shadow-dot' : null)
    .attr('data-page', (p) => p.dot.page)
    .attr('data-kind', (p) => p.dot.kind)
    .attr('data-activate', (p) => String(p.dot.activate))
    .attr('data-distance', (p) => p.dot.distance)
    .attr('data-seq', (p) => p.dot.tokenSeq)
    .attr('role', interactive ? 'option' : null)
    .attr('aria-label', interactive ? (p) => p.dot.label : null)
    .attr('aria-selected', interactive ? (p) => String(p.dot.page === selected) : null)
    .attr('tabindex', interactive ? (p) => (p.dot.page === active ? 0 : -1) : null)
    .on('click', (_, p) => options.onSelect(p.dot.page));
  if (interactive) {
    dots
      .on('focus', (_, p) => {
        listNode.dataset.active = p.dot.page;
        list.selectAll<SVGGElement, Placed>('g.shadow').attr('tabindex', (o) => (o.dot.page === p.dot.page ? 0 : -1));
      })
      .on('keydown', (event: KeyboardEvent, p) => onKey(event, p, listNode, options));
  }
  dots.select('title').text((p) => p.dot.label);
  dots.select('circle.halo').attr('r', DOT_R + 3.5);
  dots.select('circle.dot').attr('r', DOT_R);
  dots
    .transition(transition)
    .attr('opacity', 1)
    .attr('transform', (p) => `translate(${p.x},${p.y})`);
}

function onKey(event: KeyboardEvent, p: Placed, list: SVGGElement, options: ShadowDrawOptions): void {
  const items = Array.from(list.querySelectorAll<SVGGElement>(':scope > g.shadow'));
  listboxKey(event, items, items.findIndex((o) => o.dataset.page === p.dot.page), p.dot.page, (page) => options.onSelect(page));
}
