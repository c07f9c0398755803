// The layout of many tracked folios (thousands) over a lruvec's chart, for
// the canvas that draws them: typed arrays instead of one object per dot.
// A column's dots of one type are packed from the bottom in the order of the
// sample (the grid is sized for the fullest column), so a stack of dots is
// as tall as its share of the tracked pages; evicted pages fill the lane
// below the axis the same way. The reading (and keyboard) order is the
// columns left to right, anon then file, then the lane. DOM-free.
import { dotRadius, fitGrid, gridCell, gridTop, type Grid } from './folios';
import type { ChartGeometry } from './draw';
import { FOLIO_TYPES, type FolioType, type GenerationsModel } from './model';
import { cellActive, cellGen, cellState, cellTier, STATE_RESIDENT, STATE_ABSENT, type LruvecFolios } from './tracked';

/** A run of dots in reading order that share a column (or the lane) and a type. */
export interface DotGroup {
  /** The column's key ("seq:7", "inactive"), or null for the lane. */
  column: string | null;
  /** What a reader hears: "generation 7, file", "evicted, anon". */
  label: string;
  kind: FolioType;
  /** Positions [start, end) in the layout's arrays. */
  start: number;
  end: number;
}

export interface DenseDots {
  /** Sample indices of the drawn pages, in reading order. */
  ids: Uint32Array;
  /** Centres in plot coordinates. */
  x: Float32Array;
  y: Float32Array;
  /** Side of the square drawn, in CSS px. */
  side: Float32Array;
  /** 0 anon, 1 file; +2 when not resident (drawn in the lane). */
  style: Uint8Array;
  groups: DotGroup[];
  resident: number;
  notResident: number;
  /** Tracked pages never touched (not drawn). */
  absent: number;
  /** Resident pages the chart has no column for (not drawn; should not happen). */
  unplaced: number;
  /** The height the dots take in each column, from the bottom, by "column/type". */
  heights: Map<string, number>;
  /** Cell sizes, in px: for the columns and for the lane. */
  spacing: number;
  laneSpacing: number;
}

const KINDS = FOLIO_TYPES.length;

/** Places the tracked folios of one lruvec (many of them) on its chart. */
export function denseDots(model: GenerationsModel, folios: LruvecFolios, geometry: ChartGeometry): DenseDots {
  const { ids: all, index, frame } = folios;
  const cells = frame.tracked.cells;
  const columns = model.columns;
  const nGroups = (columns.length + 1) * KINDS;
  const laneGroup = columns.length;
  // MGLRU: a cell's generation is seq - min(min_seq); its column is the one of that seq.
  const seqColumn = new Map(columns.map((c, k) => [c.seq, k]));
  const lruvecGens = model.mode === 'mglru' ? Math.min(model.minSeqAnon, model.minSeqFile) : 0;
  const inactive = columns.findIndex((c) => c.key === 'inactive');
  const active = columns.findIndex((c) => c.key === 'active');

  // Group of each page (column * KINDS + kind), or -1.
  const group = new Int32Array(all.length);
  const counts = new Uint32Array(nGroups);
  let absent = 0;
  let unplaced = 0;
  for (let j = 0; j < all.length; j++) {
    const i = all[j]!;
    const kind = index.kind(i) === 'anon' ? 0 : 1;
    const state = cellState(cells, i);
    let column = -1;
    if (state === STATE_ABSENT) {
      absent++;
    } else if (state !== STATE_RESIDENT) {
      column = laneGroup;
    } else if (model.mode === 'mglru') {
      const gen = cellGen(cells, i);
      column = gen < 0 ? -1 : (seqColumn.get(lruvecGens + gen) ?? -1);
      if (column < 0) unplaced++;
    } else {
      column = cellActive(cells, i) ? active : inactive;
      if (column < 0) unplaced++;
    }
    const g = column < 0 ? -1 : column * KINDS + kind;
    group[j] = g;
    if (g >= 0) counts[g]!++;
  }

  // Reading order: a counting sort by group keeps the sample order within each.
  const starts = new Uint32Array(nGroups + 1);
  for (let g = 0; g < nGroups; g++) starts[g + 1] = starts[g]! + counts[g]!;
  const n = starts[nGroups]!;
  const ids = new Uint32Array(n);
  const rank = new Uint32Array(n);
  const fill = starts.slice(0, nGroups);
  for (let j = 0; j < all.length; j++) {
    const g = group[j]!;
    if (g < 0) continue;
    const at = fill[g]!++;
    ids[at] = all[j]!;
    rank[at] = at - starts[g]!;
  }

  // One grid for every column (sized for the fullest), one for the lane.
  let fullest = 1;
  for (let g = 0; g < laneGroup * KINDS; g++) fullest = Math.max(fullest, counts[g]!);
  let laneFullest = 1;
  for (let k = 0; k < KINDS; k++) laneFullest = Math.max(laneFullest, counts[laneGroup * KINDS + k]!);
  const typeWidth = geometry.xType.bandwidth();
  const grid: Grid = fitGrid(fullest, typeWidth, geometry.innerHeight - 4, 9, 1);
  const laneGrid: Grid = fitGrid(laneFullest, geometry.laneGridWidth, geometry.laneHeight - 4, 8, 1);

  const x = new Float32Array(n);
  const y = new Float32Array(n);
  const side = new Float32Array(n);
  const style = new Uint8Array(n);
  const groups: DotGroup[] = [];
  const heights = new Map<string, number>();
  const laneSide = Math.max(1, laneGrid.spacing * 0.7);
  const laneBottom = geometry.laneTop + geometry.laneHeight / 2 + (laneGrid.rows * laneGrid.spacing) / 2;
  for (let g = 0; g < nGroups; g++) {
    const start = starts[g]!;
    const end = starts[g + 1]!;
    if (start === end) continue;
    const column = Math.floor(g / KINDS);
    const k = g % KINDS;
    const kind = FOLIO_TYPES[k]!;
    const inLane = column === laneGroup;
    const key = inLane ? null : columns[column]!.key;
    groups.push({
      column: key,
      kind,
      start,
      end,
      label: inLane ? `evicted, ${kind}` : `${model.mode === 'mglru' ? `generation ${columns[column]!.seq}` : `${key} list`}, ${kind}`,
    });
    if (inLane) {
      const left = k * geometry.laneHalf + geometry.laneCaption;
      for (let at = start; at < end; at++) {
        const cell = gridCell(laneGrid, rank[at]!, geometry.laneGridWidth);
        x[at] = left + cell.x;
        y[at] = laneBottom - cell.y;
        side[at] = laneSide;
        style[at] = k + 2;
      }
    } else {
      const left = (geometry.x(key!) ?? 0) + (geometry.xType(kind) ?? 0);
      for (let at = start; at < end; at++) {
        const cell = gridCell(grid, rank[at]!, typeWidth);
        x[at] = left + cell.x;
        y[at] = geometry.innerHeight - 2 - cell.y;
        side[at] = Math.max(1, 2 * dotRadius(grid.spacing, cellTier(cells, ids[at]!), model.mode));
        style[at] = k;
      }
      heights.set(`${key}/${kind}`, gridTop(grid, end - start - 1));
    }
  }
  const notResident = counts[laneGroup * KINDS]! + counts[laneGroup * KINDS + 1]!;
  return {
    ids,
    x,
    y,
    side,
    style,
    groups,
    resident: n - notResident,
    notResident,
    absent,
    unplaced,
    heights,
    spacing: grid.spacing,
    laneSpacing: laneGrid.spacing,
  };
}

/** The position in reading order of the dot nearest (x, y) within `reach` px, or -1. */
export function nearestDot(dots: Pick<DenseDots, 'x' | 'y'>, x: number, y: number, reach: number): number {
  let best = -1;
  let bestDistance = reach * reach;
  for (let j = 0; j < dots.x.length; j++) {
    const dx = dots.x[j]! - x;
    const dy = dots.y[j]! - y;
    const d = dx * dx + dy * dy;
    if (d <= bestDistance) {
      bestDistance = d;
      best = j;
    }
  }
  return best;
}

/** The group a position in reading order belongs to. */
export function groupAt(dots: Pick<DenseDots, 'groups'>, at: number): DotGroup | undefined {
  return dots.groups.find((g) => at >= g.start && at < g.end);
}

/** A sentence per column with tracked folios: the text alternative of the canvas. */
export function denseSummary(dots: DenseDots): string {
  const parts = dots.groups.map((g) => `${g.label}: ${(g.end - g.start).toLocaleString('en-US')}`);
  return `Tracked folios by place: ${parts.join('; ')}.`;
}
