// The counters table's model: each counter with its change since the
// previous frame shown. DOM-free.
import type { Counter } from '../../engine/pkg/reclaim_core';

export interface CounterRow {
  /** The kernel's name (/proc/vmstat), as the engine gives it. */
  name: string;
  value: number;
  /** Change since the previous frame; null when there is no previous frame (or the counter is new). */
  delta: number | null;
}

/** Rows in the engine's (kernel) order. */
export function counterRows(current: readonly Counter[], previous: readonly Counter[] | null): CounterRow[] {
  const before = new Map(previous?.map((c) => [c.name, c.value]));
  return current.map(({ name, value }) => {
    const old = previous ? before.get(name) : undefined;
    return { name, value, delta: old === undefined ? null : value - old };
  });
}
