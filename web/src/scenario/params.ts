// A request's parameters in the generated type's representation. tsify
// currently declares `ScenarioRequest.params` as `Map<string, number>`
// (serde-wasm-bindgen's default for a BTreeMap); this module is the one place
// that builds it, so the rest of the app works with plain entries. Reading
// accepts a Map or a plain object, whichever the bindings hand over.
import type { ScenarioRequest } from '../engine/pkg/reclaim_core';

export type Params = NonNullable<ScenarioRequest['params']>;

/** Builds the generated params type from name/value pairs, sorted by name. */
export function makeParams(values: Iterable<readonly [string, number]> | Record<string, number>): Params {
  const entries = Symbol.iterator in values ? [...(values as Iterable<readonly [string, number]>)] : Object.entries(values);
  return new Map([...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** A request's parameters as name/value pairs (none when it has none). */
export function paramEntries(request: Pick<ScenarioRequest, 'params'>): [string, number][] {
  const params: unknown = request.params;
  if (params instanceof Map) return [...(params as Map<string, number>)];
  if (params && typeof params === 'object') return Object.entries(params as Record<string, number>);
  return [];
}

/** A request's parameters as a plain object, for lookups and display. */
export function paramRecord(request: Pick<ScenarioRequest, 'params'>): Record<string, number> {
  return Object.fromEntries(paramEntries(request));
}

/**
 * A request built from plain values (the codec, presets and tests use it).
 * `variant` (an experiment's before/after/...) is set only when given.
 */
export function makeRequest(
  name: string,
  seed: number,
  params: Record<string, number> = {},
  variant?: string,
): ScenarioRequest {
  const request: ScenarioRequest = { name, seed, params: makeParams(params) };
  if (variant !== undefined) request.variant = variant;
  return request;
}

/** The same run without its variant: what a comparison of every variant is asked for. */
export function withoutVariant(request: ScenarioRequest): ScenarioRequest {
  return makeRequest(request.name, request.seed, paramRecord(request));
}
