// The tracked folios drawn over a lruvec's chart: where each tracked page's
// dot goes (which column, which fixed slot in that column's grid, or the
// lane of shadow and swap entries below the axis) and what it is called.
// DOM-free: the draw code turns slots into coordinates with `fitGrid` and
// `gridCell`.
import type { LruvecView, TrackedFolioView } from '../../engine/pkg/reclaim_core';
import { FOLIO_TYPES, lruvecKey, seqKey, type FolioType, type GenerationsModel } from './model';

/** The states of a tracked page that are drawn (an "absent" page, never touched, is not). */
export type FolioState = 'resident' | 'evicted' | 'swapped';

export interface FolioDot {
  /** The dot's key across frames: "file:reader#120". */
  page: string;
  kind: FolioType;
  state: FolioState;
  tier: number;
  /** MGLRU: the generation it belongs to (null when not resident or classic). */
  seq: number | null;
  /** Classic LRU: on the active list. */
  active: boolean;
  /** The column it is drawn in; null when it is not resident (the lane below the axis). */
  column: string | null;
  /**
   * Its fixed place among the lruvec's tracked pages of its kind (in the
   * engine's sample order): the same cell of the grid in every column and
   * every frame, so a folio that changes generation moves straight across.
   */
  slot: number;
  /** The accessible name: "folio file:reader#120, generation 7, tier 2". */
  label: string;
}

export interface FolioDotsModel {
  /** The dots in reading (and keyboard) order: columns left to right, anon then file, by slot; the lane last. */
  dots: FolioDot[];
  /** Tracked pages per kind: the number of cells in each kind's grid. */
  slots: Record<FolioType, number>;
  resident: number;
  /** Evicted or swapped pages (drawn in the lane). */
  notResident: number;
  /** Pages never touched (not drawn). */
  absent: number;
  /** Resident pages the chart has no column for (not drawn; should not happen). */
  unplaced: number;
  /** The highest slot taken per column and kind ("seq:7/file" -> 40), to keep labels above the dots. */
  topSlot: Map<string, number>;
}

export function folioKind(kind: string): FolioType {
  return kind === 'anon' ? 'anon' : 'file';
}

/** The accessible name of a tracked page's dot in a chart of this mode. */
export function folioLabel(folio: TrackedFolioView, mode: GenerationsModel['mode']): string {
  const kind = folioKind(folio.kind);
  switch (folio.state) {
    case 'resident':
      return mode === 'mglru'
        ? `folio ${folio.page}, generation ${folio.seq ?? '?'}, tier ${folio.tier}`
        : `folio ${folio.page}, ${folio.active ? 'active' : 'inactive'} ${kind} list`;
    case 'evicted':
      return `folio ${folio.page}, evicted, shadow entry`;
    case 'swapped':
      return `folio ${folio.page}, swapped out, swap entry`;
    default:
      return `folio ${folio.page}, not in memory`;
  }
}

/**
 * The tracked pages drawn over each lruvec's chart, by lruvec key. A resident
 * page belongs to the lruvec of its memcg on its folio's node; a page that is
 * not resident (no node) to its memcg's first lruvec listed.
 */
export function foliosByLruvec(
  lruvecs: readonly Pick<LruvecView, 'memcg' | 'node'>[],
  folios: readonly TrackedFolioView[],
): Map<string, TrackedFolioView[]> {
  const byMemcg = new Map<string, string>();
  for (const l of lruvecs) if (!byMemcg.has(l.memcg)) byMemcg.set(l.memcg, lruvecKey(l));
  const result = new Map<string, TrackedFolioView[]>();
  for (const l of lruvecs) result.set(lruvecKey(l), []);
  for (const f of folios) {
    // A resident folio sits on the lruvec of its node; the others (shadow
    // and swap entries) are drawn with the memcg's first lruvec.
    const onNode = f.node === undefined || f.node === null ? undefined : lruvecKey({ memcg: f.memcg, node: f.node });
    const key = onNode !== undefined && result.has(onNode) ? onNode : byMemcg.get(f.memcg);
    if (key) result.get(key)!.push(f);
  }
  return result;
}

/** Where the tracked folios of one lruvec go on its chart. */
export function folioDots(model: GenerationsModel, folios: readonly TrackedFolioView[]): FolioDotsModel {
  const columnIndex = new Map(model.columns.map((c, i) => [c.key, i]));
  const slots: Record<FolioType, number> = { anon: 0, file: 0 };
  const dots: FolioDot[] = [];
  let absent = 0;
  let unplaced = 0;
  for (const folio of folios) {
    const kind = folioKind(folio.kind);
    const slot = slots[kind]++;
    const state = folio.state;
    if (state !== 'resident' && state !== 'evicted' && state !== 'swapped') {
      absent++;
      continue;
    }
    let column: string | null = null;
    if (state === 'resident') {
      const key =
        model.mode === 'mglru'
          ? folio.seq === undefined || folio.seq === null
            ? null
            : seqKey(folio.seq)
          : folio.active
            ? 'active'
            : 'inactive';
      if (key === null || !columnIndex.has(key)) {
        unplaced++;
        continue;
      }
      column = key;
    }
    dots.push({
      page: folio.page,
      kind,
      state,
      tier: folio.tier,
      seq: state === 'resident' && model.mode === 'mglru' ? (folio.seq ?? null) : null,
      active: folio.active,
      column,
      slot,
      label: folioLabel(folio, model.mode),
    });
  }
  const kindIndex = (k: FolioType) => FOLIO_TYPES.indexOf(k);
  const place = (d: FolioDot) => (d.column === null ? model.columns.length : columnIndex.get(d.column)!);
  dots.sort((a, b) => place(a) - place(b) || kindIndex(a.kind) - kindIndex(b.kind) || a.slot - b.slot);

  const topSlot = new Map<string, number>();
  for (const d of dots) {
    if (d.column === null) continue;
    const key = `${d.column}/${d.kind}`;
    topSlot.set(key, Math.max(topSlot.get(key) ?? -1, d.slot));
  }
  const resident = dots.filter((d) => d.state === 'resident').length;
  return { dots, slots, resident, notResident: dots.length - resident, absent, unplaced, topSlot };
}

/** A grid of equal square cells, filled from the bottom left, row by row upwards. */
export interface Grid {
  cols: number;
  rows: number;
  /** The side of a cell in px. */
  spacing: number;
}

/**
 * The roomiest grid of `n` cells that fits a width × height box, with cells
 * from `max` px down to `min` px (at `min` it may overflow the height).
 */
export function fitGrid(n: number, width: number, height: number, max = 9, min = 4): Grid {
  const cells = Math.max(1, n);
  for (let spacing = max; spacing >= min; spacing -= 0.5) {
    const cols = Math.min(cells, Math.floor(width / spacing));
    if (cols < 1) continue;
    const rows = Math.ceil(cells / cols);
    if (rows * spacing <= height) return { cols, rows, spacing };
  }
  const cols = Math.max(1, Math.min(cells, Math.floor(width / min)));
  return { cols, rows: Math.ceil(cells / cols), spacing: min };
}

/** The centre of a slot's cell: x from the box's left edge, y upwards from its bottom edge. */
export function gridCell(grid: Grid, slot: number, width: number): { x: number; y: number } {
  const col = slot % grid.cols;
  const row = Math.floor(slot / grid.cols);
  const left = (width - grid.cols * grid.spacing) / 2;
  return { x: left + (col + 0.5) * grid.spacing, y: (row + 0.5) * grid.spacing };
}

/** The height the grid's cells up to `slot` take, from the bottom edge. */
export function gridTop(grid: Grid, slot: number): number {
  return (Math.floor(slot / grid.cols) + 1) * grid.spacing;
}

/** A dot's radius: with MGLRU it grows with the tier (refs through file descriptors). */
export function dotRadius(spacing: number, tier: number, mode: GenerationsModel['mode']): number {
  if (mode === 'classic') return spacing * 0.36;
  return spacing * (0.25 + 0.065 * Math.max(0, Math.min(3, tier)));
}
