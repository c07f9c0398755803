// Small helpers shared by the D3 draw code.
import { select, type BaseType, type Selection } from 'd3';

/** The shortest time axis (10 ms, a step of most scenarios): at step 0 the charts still get readable ticks. */
export const MIN_AXIS_SPAN_NS = 10_000_000;

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
