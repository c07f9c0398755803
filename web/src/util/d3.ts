// Small helpers shared by the D3 draw code.
import { axisLeft, format, scaleLinear, select, type BaseType, type ScaleLinear, type Selection } from 'd3';
import { formatCount } from './format';

/** The shortest time axis (10 ms, a step of most scenarios): at step 0 the charts still get readable ticks. */
const MIN_AXIS_SPAN_NS = 10_000_000;

/**
 * The time axis of the System tab's charts (the zones and kswapd's track,
 * drawn one above the other, so they share it): `start`..`end` in ns onto
 * 0..`width`, at least MIN_AXIS_SPAN_NS long (before any time has passed, a
 * 10 ms axis rather than ten ticks of "0 µs").
 */
export function timeScale(start: number, end: number, width: number): ScaleLinear<number, number> {
  return scaleLinear()
    .domain([start, Math.max(end, start + MIN_AXIS_SPAN_NS)])
    .range([0, width]);
}

export type AnySelection<E extends BaseType> = Selection<E, unknown, null, undefined>;

/**
 * The child element of `parent` with this (single) class name, created on
 * first use. (`parent` is any single-element selection: d3's types do not
 * let a Selection<SVGGElement> pass for a Selection<BaseType>.)
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function layer<E extends BaseType>(parent: Selection<any, unknown, null, undefined>, tag: string, className: string): AnySelection<E> {
  const existing = parent.select<E>(`:scope > ${tag}.${className}`);
  if (!existing.empty()) return existing as unknown as AnySelection<E>;
  return parent.append(tag).attr('class', className) as unknown as AnySelection<E>;
}

/** An <svg> (or any element) as a selection the layers can hang from. */
export function root(node: Element): AnySelection<BaseType> {
  return select<BaseType, unknown>(node) as unknown as AnySelection<BaseType>;
}

let clipIds = 0;

/** A document-unique id for a clipPath or gradient (React's useId has characters url(#…) dislikes). */
export function uniqueId(prefix: string): string {
  clipIds += 1;
  return `${prefix}-${clipIds}`;
}

/** The tick format of an axis of page counts: SI suffixes on every tick once the largest reaches 10,000 (0, 5k, 10k, not 0, 5,000, 10k). */
export function pagesTicks(ticks: readonly number[]): (value: { valueOf(): number }) => string {
  const si = ticks.some((t) => t >= 10_000) ? format('.3~s') : null;
  return (value) => (si ? si(value.valueOf()) : formatCount(value.valueOf()));
}

/**
 * The y axis of a count (pages, folios) in `plot`: at most about `count`
 * whole-number ticks (d3's nice ticks, fractions dropped), each with a grid
 * line across `width`, written by `tickFormat` (default: pagesTicks, one style
 * for the whole axis). Drawn at once: an interrupted axis transition would
 * leave its exiting ticks behind.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function drawCountAxis(plot: Selection<any, unknown, null, undefined>, y: ScaleLinear<number, number>, count: number, width: number, tickFormat?: (value: { valueOf(): number }) => string): void {
  const ticks = y.ticks(count).filter(Number.isInteger);
  const tick = tickFormat ?? pagesTicks(ticks);
  layer<SVGGElement>(plot, 'g', 'grid').call(
    axisLeft(y)
      .tickValues(ticks)
      .tickSize(-width)
      .tickFormat(() => ''),
  );
  layer<SVGGElement>(plot, 'g', 'y-axis').call(axisLeft(y).tickValues(ticks).tickFormat(tick));
}

/** Margins around a chart's plot area. */
export interface Margin {
  top: number;
  right: number;
  bottom: number;
  left: number;
}

/**
 * Sizes `node` to `size` and returns its plot group (created on first use,
 * hidden from assistive technology: the chart's text is its description),
 * moved inside `margin`, with the plot area's width and height.
 */
export function plotArea(node: SVGSVGElement, size: { width: number; height: number }, margin: Margin): { plot: AnySelection<SVGGElement>; innerWidth: number; innerHeight: number } {
  const { width, height } = size;
  select(node).attr('width', width).attr('height', height).attr('viewBox', `0 0 ${width} ${height}`);
  const plot = layer<SVGGElement>(root(node), 'g', 'plot').attr('aria-hidden', 'true').attr('transform', `translate(${margin.left},${margin.top})`);
  return {
    plot,
    innerWidth: Math.max(0, width - margin.left - margin.right),
    innerHeight: Math.max(0, height - margin.top - margin.bottom),
  };
}
