// The memcg LRU view's model: a node's memcg LRU (mm/vmscan.c, struct
// lru_gen_memcg: fifo[MEMCG_NR_GENS][MEMCG_NR_BINS]) as three rows, one per
// generation slot, of eight bins, and where each memcg's chip goes in its
// bin. The rows stay in slot order (gen 0 on top) and are labelled old,
// young or spare from the LRU's seq, so a chip moves only when
// lru_gen_rotate_memcg moves its memcg. Only old (seq) and young (seq + 1)
// are valid; the spare slot (seq - 1) is always empty and drawn low, and
// becomes the young slot when seq advances. DOM-free: geometry in plain numbers.
import ENGINE_CONSTANTS from '../../engine/pkg/engine-constants.json';
import type { MemcgLruView } from '../../engine/pkg/reclaim_core';
import { counted, formatCount } from '../../util/format';

/** The height of a row's label: three lines, the last at y + 44 (draw.ts). */
const ROW_LABEL_HEIGHT = 50;
/** The height of the empty spare slot: one line of label. */
const SPARE_ROW_HEIGHT = 22;

/** Generation slots since v6.7 (mmzone.h); two of them are valid at a time. */
export const MEMCG_NR_GENS: number = ENGINE_CONSTANTS.memcgNrGens;
export const MEMCG_NR_BINS: number = ENGINE_CONSTANTS.memcgNrBins;

export interface LruChip {
  /** The memcg's path: the chip's key across frames. */
  path: string;
  /** The text on the chip (the path's last part, "/" for the root), possibly shortened. */
  text: string;
  gen: number;
  bin: number;
  /** Its place in the bin, head first. */
  index: number;
  old: boolean;
  /** The chip's centre. */
  x: number;
  y: number;
  /** "/memcg4: old generation (gen 0), bin 6, 1st from the head". */
  label: string;
}

export type LruRowRole = 'old' | 'young' | 'spare';

export interface LruRow {
  gen: number;
  /** What the slot holds now, from the LRU's seq; also the row's title. */
  role: LruRowRole;
  memcgs: number;
  y: number;
  height: number;
}

export interface LruBin {
  gen: number;
  bin: number;
  x: number;
  y: number;
  width: number;
  height: number;
  count: number;
}

export interface MemcgLruLayout {
  node: number;
  seq: number;
  oldGen: number;
  youngGen: number;
  nrMemcgs: number[];
  /** Chips with text, or dots when the bins are too crowded for text. */
  style: 'chips' | 'dots';
  rows: LruRow[];
  bins: LruBin[];
  chips: LruChip[];
  /** Chip (or dot) size. */
  chipWidth: number;
  chipHeight: number;
  width: number;
  height: number;
  label: string;
  summary: string;
}

export interface LruGeometry {
  width: number;
  /** Room at the left for the row titles. */
  gutter?: number;
  /** Space at the top for the bin numbers. */
  header?: number;
  /** Tallest a row gets before chips turn into dots. */
  maxRowHeight?: number;
}

const CHIP_HEIGHT = 16;
const CHIP_GAP = 3;
const DOT = 8;
const DOT_GAP = 3;
/** Approximate width of a character of the chips' 10.5 px font. */
const CHAR_WIDTH = 6.1;

function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${['th', 'st', 'nd', 'rd'][n % 10] ?? 'th'}`;
}

/** The chip text: the last part of the path ("/" for the root), shortened to `chars`. */
export function chipText(path: string, chars: number): string {
  const base = path === '/' ? '/' : (path.split('/').filter(Boolean).pop() ?? path);
  if (base.length <= chars) return base;
  return chars <= 1 ? base.slice(0, 1) : `${base.slice(0, chars - 1)}…`;
}

export function memcgLruLayout(node: number, view: MemcgLruView, geometry: LruGeometry): MemcgLruLayout {
  const gutter = geometry.gutter ?? 74;
  const header = geometry.header ?? 18;
  const maxRowHeight = geometry.maxRowHeight ?? 132;
  const width = Math.max(gutter + MEMCG_NR_BINS * 24, geometry.width);
  const binWidth = (width - gutter) / MEMCG_NR_BINS;
  const inner = Math.max(8, binWidth - 6);
  const bins = (gen: number) => view.bins[gen] ?? [];
  const gens = Array.from({ length: MEMCG_NR_GENS }, (_, g) => g);
  const crowd = Math.max(0, ...gens.flatMap((g) => bins(g).map((b) => b.length)));

  // Chips stacked one per line while the tallest bin fits; dots in a grid otherwise.
  const chipRows = crowd * (CHIP_HEIGHT + CHIP_GAP) + CHIP_GAP;
  const style: 'chips' | 'dots' = chipRows <= maxRowHeight && inner >= 28 ? 'chips' : 'dots';
  const perLine = style === 'chips' ? 1 : Math.max(1, Math.floor((inner + DOT_GAP) / (DOT + DOT_GAP)));
  const pitch = style === 'chips' ? CHIP_HEIGHT + CHIP_GAP : DOT + DOT_GAP;
  const lines = Math.ceil(Math.max(1, crowd) / perLine);
  // At least the height of a row's three-line label (title, gen, memcgs: draw.ts).
  const rowHeight = Math.max(style === 'chips' ? 2 * (CHIP_HEIGHT + CHIP_GAP) + CHIP_GAP : 0, ROW_LABEL_HEIGHT, lines * pitch + CHIP_GAP + 4);
  const chars = Math.max(1, Math.floor((inner - 8) / CHAR_WIDTH));

  const rows: LruRow[] = [];
  const binBoxes: LruBin[] = [];
  const chips: LruChip[] = [];
  let y = header;
  for (const gen of gens) {
    const old = gen === view.oldGen;
    const role: LruRowRole = old ? 'old' : gen === view.youngGen ? 'young' : 'spare';
    const memcgs = view.nrMemcgs[gen] ?? 0;
    // An empty spare slot is a thin strip: nothing lives there, and it is next to become young.
    const height = role === 'spare' && memcgs === 0 ? SPARE_ROW_HEIGHT : rowHeight;
    rows.push({ gen, role, memcgs, y, height });
    for (let bin = 0; bin < MEMCG_NR_BINS; bin++) {
      const x = gutter + bin * binWidth;
      const paths = bins(gen)[bin] ?? [];
      binBoxes.push({ gen, bin, x: x + 1, y, width: binWidth - 2, height, count: paths.length });
      paths.forEach((path, index) => {
        const line = Math.floor(index / perLine);
        const col = index % perLine;
        const cx =
          style === 'chips'
            ? x + binWidth / 2
            : x + (binWidth - (perLine * (DOT + DOT_GAP) - DOT_GAP)) / 2 + col * (DOT + DOT_GAP) + DOT / 2;
        const cy = y + CHIP_GAP + 2 + line * pitch + (style === 'chips' ? CHIP_HEIGHT : DOT) / 2;
        chips.push({
          path,
          text: chipText(path, chars),
          gen,
          bin,
          index,
          old,
          x: cx,
          y: cy,
          label: `${path}: ${role} generation (gen ${gen}), bin ${bin}, ${ordinal(index + 1)} from the head`,
        });
      });
    }
    y += height + 8;
  }
  const height = y;
  const [oldCount, youngCount] = [view.nrMemcgs[view.oldGen] ?? 0, view.nrMemcgs[view.youngGen] ?? 0];
  const spare = gens.find((g) => g !== view.oldGen && g !== view.youngGen);
  const summary =
    `Memcg LRU of node ${node}: seq ${view.seq}; the old generation (gen ${view.oldGen}) holds ${counted(oldCount, 'memcg')}, ` +
    `the young one (gen ${view.youngGen}) ${formatCount(youngCount)}` +
    (spare === undefined ? '. ' : `; gen ${spare} is the spare slot (seq − 1), always empty. `) +
    'shrink_many reclaims from the old generation starting at a random bin; lru_gen_rotate_memcg moves a memcg to the young generation when reclaiming it had to age it first (MEMCG_LRU_YOUNG).';
  return {
    node,
    seq: view.seq,
    oldGen: view.oldGen,
    youngGen: view.youngGen,
    nrMemcgs: view.nrMemcgs,
    style,
    rows,
    bins: binBoxes,
    chips,
    chipWidth: style === 'chips' ? inner : DOT,
    chipHeight: style === 'chips' ? CHIP_HEIGHT : DOT,
    width,
    height,
    label: `Memcg LRU of node ${node}`,
    summary,
  };
}

export interface ChipMove {
  path: string;
  from: { gen: number; bin: number };
  to: { gen: number; bin: number };
}

/** Memcgs whose generation or bin changed between two frames (the rotations to animate). */
export function chipMoves(before: MemcgLruView, after: MemcgLruView): ChipMove[] {
  const where = (view: MemcgLruView) => {
    const map = new Map<string, { gen: number; bin: number }>();
    view.bins.forEach((bins, gen) => bins.forEach((paths, bin) => paths.forEach((p) => map.set(p, { gen, bin }))));
    return map;
  };
  const a = where(before);
  const moves: ChipMove[] = [];
  for (const [path, to] of where(after)) {
    const from = a.get(path);
    if (from && (from.gen !== to.gen || from.bin !== to.bin)) moves.push({ path, from, to });
  }
  return moves;
}
