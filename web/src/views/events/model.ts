// The event list's model: a step's events with identical decisions merged
// (a step often evicts or refaults dozens of folios for the same reason).
// DOM-free.
import type { EventView } from '../../engine/pkg/reclaim_core';

export interface EventGroup {
  kind: string;
  function: string;
  reason: string;
  /** How many events of the step made this same decision. */
  count: number;
  /** Simulated time of the first of them. */
  timeNs: number;
  /** The kinds of Run to next its events count for (EventView.runKinds). */
  runKinds: readonly string[];
}

/** Groups identical (kind, function, reason) events, in order of first appearance. */
export function groupEvents(events: readonly EventView[]): EventGroup[] {
  const groups = new Map<string, EventGroup>();
  for (const e of events) {
    const key = `${e.kind}\u0000${e.function}\u0000${e.reason}`;
    const group = groups.get(key);
    if (group) group.count += 1;
    else groups.set(key, { kind: e.kind, function: e.function, reason: e.reason, count: 1, timeNs: e.timeNs, runKinds: e.runKinds ?? [] });
  }
  return [...groups.values()];
}

/** The engine's event kinds (EventKind::describe), in the order reclaim meets them: the filter's chips. */
export const EVENT_KINDS = ['kswapd', 'reclaim', 'memcg-lru', 'aging', 'eviction', 'refault', 'oom'] as const;

/**
 * The filter's choices: every kind the engine has, in EVENT_KINDS' order,
 * then any other kind seen (none today), so that a step shows the same
 * chips whichever way it was reached.
 */
export function filterKinds(seen: readonly string[]): string[] {
  return [...EVENT_KINDS, ...seen.filter((k) => !(EVENT_KINDS as readonly string[]).includes(k))];
}

/** Kinds seen so far, in order of first appearance, with this step's events' kinds added. */
export function addKinds(seen: readonly string[], events: readonly Pick<EventView, 'kind'>[]): readonly string[] {
  let next: string[] | null = null;
  for (const e of events) {
    if ((next ?? seen).includes(e.kind)) continue;
    next ??= [...seen];
    next.push(e.kind);
  }
  return next ?? seen;
}

/**
 * The groups the list shows when there are more than `cap`: the first
 * `cap`, except that every kernel function of every kind the step has
 * keeps its first group (a reclaim round after hundreds of evictions, an
 * inc_max_seq after a hundred memcgs' try_to_inc_min_seq) in place of the
 * latest others; in their order. Also how many events the groups left out
 * hold.
 */
export function capGroups(groups: readonly EventGroup[], cap: number): { shown: EventGroup[]; unlisted: number } {
  if (groups.length <= cap) return { shown: [...groups], unlisted: 0 };
  const keep = new Set<number>();
  const firstOf = new Map<string, number>();
  groups.forEach((g, i) => {
    const key = `${g.kind}\u0000${g.function}`;
    if (!firstOf.has(key)) firstOf.set(key, i);
  });
  for (const i of firstOf.values()) keep.add(i);
  // Then the earliest of the rest, up to the cap.
  for (let i = 0; i < groups.length && keep.size < cap; i++) keep.add(i);
  const shown = groups.filter((_, i) => keep.has(i));
  const unlisted = groups.reduce((sum, g, i) => sum + (keep.has(i) ? 0 : g.count), 0);
  return { shown, unlisted };
}

/** The groups whose kind is not hidden. */
export function visibleGroups(groups: readonly EventGroup[], hidden: ReadonlySet<string>): EventGroup[] {
  return hidden.size === 0 ? [...groups] : groups.filter((g) => !hidden.has(g.kind));
}
