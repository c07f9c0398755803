// The tracked sample in the compact form frames carry (Frame.tracked: the
// address spaces, then four bytes per tracked page; the layout is documented
// on TrackedFolios in wasm-core/src/view.rs). The views read the pages'
// states straight from the bytes and build full records
// (TrackedFolioView) only for the few they name: a small chart's dots, the
// selected folio. DOM-free.
import type { FolioType, Frame, LruvecView, TrackedFolios, TrackedFolioView } from '../../engine/pkg/reclaim_core';
import { lruvecKey } from './model';

/** The part of a frame the tracked sample is read from. */
export type TrackedFrame = Pick<Frame, 'tracked' | 'lruvecs' | 'step'>;

/** Byte 0's states. */
export const STATE_ABSENT = 0;
export const STATE_RESIDENT = 1;
export const STATE_EVICTED = 2;
export const STATE_SWAPPED = 3;
const STATE_NAMES = ['absent', 'resident', 'evicted', 'swapped'] as const;

/** How many pages are tracked. */
export function trackedCount(tracked: TrackedFolios): number {
  return tracked.cells.length >> 2;
}

export function cellState(cells: Uint8Array, i: number): number {
  return cells[i * 4]! & 3;
}

export function cellTier(cells: Uint8Array, i: number): number {
  return (cells[i * 4]! >> 2) & 3;
}

export function cellActive(cells: Uint8Array, i: number): boolean {
  return (cells[i * 4]! & 16) !== 0;
}

/** MGLRU, resident: the index of its generation in its lruvec's `gens` (oldest first), or -1. */
export function cellGen(cells: Uint8Array, i: number): number {
  return cells[i * 4 + 1]! - 1;
}

/** Resident: the index of its lruvec in Frame.lruvecs. */
export function cellLruvec(cells: Uint8Array, i: number): number {
  return cells[i * 4 + 2]! | (cells[i * 4 + 3]! << 8);
}

/** The first sample index of each address space, and one past the last. */
function spaceStarts(tracked: TrackedFolios): number[] {
  const starts = [0];
  for (const s of tracked.spaces) starts.push(starts[starts.length - 1]! + s.count);
  return starts;
}

/** The address space of sample index `i`, by binary search. */
function spaceIndex(starts: readonly number[], i: number): number {
  let lo = 0;
  let hi = starts.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= i) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Sample indices of pages ("file:reader#120") across frames: the spaces do not change during a run. */
export class TrackedIndex {
  private readonly starts: number[];
  private readonly byName: Map<string, number>;

  constructor(readonly tracked: TrackedFolios) {
    this.starts = spaceStarts(tracked);
    this.byName = new Map(tracked.spaces.map((s, k) => [s.name, k]));
  }

  get count(): number {
    return this.starts[this.starts.length - 1]!;
  }

  /** The page of sample index `i`. */
  page(i: number): string {
    const k = spaceIndex(this.starts, i);
    const s = this.tracked.spaces[k]!;
    return `${s.name}#${(i - this.starts[k]!) * s.stride}`;
  }

  /** "anon" or "file". */
  kind(i: number): FolioType {
    return this.tracked.spaces[spaceIndex(this.starts, i)]!.kind;
  }

  /** The memcg of sample index `i`'s address space. */
  spaceMemcg(i: number): string {
    return this.tracked.spaces[spaceIndex(this.starts, i)]!.memcg;
  }

  /** The sample index of `page`, or -1 when it is not tracked. */
  find(page: string): number {
    const at = page.lastIndexOf('#');
    if (at < 0) return -1;
    const k = this.byName.get(page.slice(0, at));
    const offset = Number(page.slice(at + 1));
    if (k === undefined || !Number.isInteger(offset) || offset < 0) return -1;
    const s = this.tracked.spaces[k]!;
    if (offset % s.stride !== 0 || offset / s.stride >= s.count) return -1;
    return this.starts[k]! + offset / s.stride;
  }

  /** The full record of sample index `i` in a frame of this run (the engine's TrackedFolioView). */
  record(frame: TrackedFrame, i: number): TrackedFolioView {
    const cells = frame.tracked.cells;
    const state = cellState(cells, i);
    const lruvec = state === STATE_RESIDENT ? frame.lruvecs[cellLruvec(cells, i)] : undefined;
    const gen = cellGen(cells, i);
    return {
      page: this.page(i),
      kind: this.kind(i),
      memcg: lruvec?.memcg ?? this.spaceMemcg(i),
      node: lruvec?.node,
      state: STATE_NAMES[state]!,
      seq: lruvec && gen >= 0 ? Math.min(lruvec.minSeq[0], lruvec.minSeq[1]) + gen : undefined,
      tier: cellTier(cells, i),
      active: cellActive(cells, i),
    };
  }
}

/** Whether two frames' samples index the same pages (the same spaces). */
export function sameSpaces(a: TrackedFolios, b: TrackedFolios): boolean {
  if (a.spaces === b.spaces) return true;
  if (a.spaces.length !== b.spaces.length) return false;
  return a.spaces.every((s, k) => {
    const o = b.spaces[k]!;
    return s.name === o.name && s.stride === o.stride && s.count === o.count && s.kind === o.kind && s.memcg === o.memcg;
  });
}

/** The tracked pages of one lruvec's chart: sample indices, in sample order. */
export interface LruvecFolios {
  frame: TrackedFrame;
  index: TrackedIndex;
  /** Sample indices of the pages drawn with this lruvec. */
  ids: Uint32Array;
}

/**
 * The tracked pages drawn over each lruvec's chart, by lruvec key. A resident
 * page belongs to the lruvec its folio is on; a page that is not resident to
 * its address space's memcg's first lruvec listed.
 */
export function trackedByLruvec(frame: TrackedFrame, index: TrackedIndex): Map<string, LruvecFolios> {
  const lruvecs: readonly LruvecView[] = frame.lruvecs;
  const cells = frame.tracked.cells;
  const n = Math.min(index.count, trackedCount(frame.tracked));
  const firstOfMemcg = new Map<string, number>();
  lruvecs.forEach((l, k) => {
    if (!firstOfMemcg.has(l.memcg)) firstOfMemcg.set(l.memcg, k);
  });
  // The lruvec (index in lruvecs) of each space's pages that are not resident.
  const spaceHome = frame.tracked.spaces.map((s) => firstOfMemcg.get(s.memcg) ?? -1);
  const owner = new Int32Array(n);
  const counts = new Uint32Array(lruvecs.length);
  let space = 0;
  let spaceEnd = frame.tracked.spaces[0]?.count ?? 0;
  for (let i = 0; i < n; i++) {
    while (i >= spaceEnd && space < frame.tracked.spaces.length - 1) spaceEnd += frame.tracked.spaces[++space]!.count;
    let k = -1;
    if (cellState(cells, i) === STATE_RESIDENT) {
      const l = cellLruvec(cells, i);
      if (l < lruvecs.length) k = l;
    }
    if (k < 0) k = spaceHome[space] ?? -1;
    owner[i] = k;
    if (k >= 0) counts[k]!++;
  }
  const ids = lruvecs.map((_, k) => new Uint32Array(counts[k]!));
  const filled = new Uint32Array(lruvecs.length);
  for (let i = 0; i < n; i++) {
    const k = owner[i]!;
    if (k >= 0) ids[k]![filled[k]!++] = i;
  }
  return new Map(lruvecs.map((l, k) => [lruvecKey(l), { frame, index, ids: ids[k]! }]));
}

/** The full records of a lruvec's tracked pages (for a chart small enough to draw them one by one). */
export function lruvecRecords(folios: LruvecFolios): TrackedFolioView[] {
  return Array.from(folios.ids, (i) => folios.index.record(folios.frame, i));
}
