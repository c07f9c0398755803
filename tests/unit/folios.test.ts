// The tracked folios' models: where the dots go, the grid they sit in, the
// tiers table and the folio history panel. DOM-free.
import { describe, expect, it } from 'vitest';
import type { FolioHistory, LruvecView, TierView, TrackedFolioView } from '../../web/src/engine/pkg/reclaim_core';
import { folioStateText, historyRows } from '../../web/src/views/folio/model';
import {
  dotRadius,
  fitGrid,
  folioDots,
  folioLabel,
  foliosByLruvec,
  gridCell,
  gridTop,
} from '../../web/src/views/generations/folios';
import { classicListsModel, generationsModel } from '../../web/src/views/generations/model';
import { formatRate, tiersModel } from '../../web/src/views/tiers/model';

const lruvec: LruvecView = {
  memcg: '/job',
  node: 0,
  maxSeq: 7,
  minSeq: [5, 5],
  gens: [
    { seq: 5, gen: 1, ageNs: 5_000, anon: 8, file: 10 },
    { seq: 6, gen: 2, ageNs: 2_000, anon: 30, file: 40 },
    { seq: 7, gen: 3, ageNs: 0, anon: 5, file: 100 },
  ],
  memoryCurrent: 193,
  memoryMax: 256,
  lruGen: true,
  lists: [8, 35, 10, 140],
  tiers: [],
};

function folio(page: string, state: string, extra: Partial<TrackedFolioView> = {}): TrackedFolioView {
  return {
    page,
    kind: page.startsWith('anon') ? 'anon' : 'file',
    memcg: '/job',
    node: state === 'resident' ? 0 : undefined,
    state,
    seq: undefined,
    tier: 0,
    active: false,
    ...extra,
  };
}

// The engine's sample order: file pages then anon pages, each in offset order.
const folios: TrackedFolioView[] = [
  folio('file:r#0', 'resident', { seq: 7, tier: 3 }),
  folio('file:r#10', 'evicted'),
  folio('file:r#20', 'resident', { seq: 5, tier: 1 }),
  folio('file:r#30', 'absent'),
  folio('file:r#40', 'resident', { seq: 5 }),
  folio('anon:kv#0', 'resident', { seq: 6, tier: 2 }),
  folio('anon:kv#8', 'swapped'),
  folio('anon:kv#16', 'resident', { seq: 7 }),
];

describe('folio dots', () => {
  it('gives each page a fixed slot among the pages of its kind', () => {
    const dots = folioDots(generationsModel(lruvec), folios);
    const slot = Object.fromEntries(dots.dots.map((d) => [d.page, d.slot]));
    expect(slot).toEqual({
      'file:r#0': 0,
      'file:r#10': 1,
      'file:r#20': 2,
      'file:r#40': 4,
      'anon:kv#0': 0,
      'anon:kv#8': 1,
      'anon:kv#16': 2,
    });
    // Absent pages take a slot (so the others never shift) but get no dot.
    expect(dots.slots).toEqual({ file: 5, anon: 3 });
    expect([dots.resident, dots.notResident, dots.absent, dots.unplaced]).toEqual([5, 2, 1, 0]);
  });

  it('puts resident folios in their generation and reclaimed ones in the lane, in reading order', () => {
    const dots = folioDots(generationsModel(lruvec), folios);
    expect(dots.dots.map((d) => [d.page, d.column])).toEqual([
      ['file:r#20', 'seq:5'],
      ['file:r#40', 'seq:5'],
      ['anon:kv#0', 'seq:6'],
      ['anon:kv#16', 'seq:7'],
      ['file:r#0', 'seq:7'],
      ['anon:kv#8', null],
      ['file:r#10', null],
    ]);
    expect(dots.topSlot).toEqual(
      new Map([
        ['seq:5/file', 4],
        ['seq:6/anon', 0],
        ['seq:7/anon', 2],
        ['seq:7/file', 0],
      ]),
    );
  });

  it('names every dot for assistive technology', () => {
    const dots = folioDots(generationsModel(lruvec), folios);
    const label = Object.fromEntries(dots.dots.map((d) => [d.page, d.label]));
    expect(label['file:r#0']).toBe('folio file:r#0, generation 7, tier 3');
    expect(label['file:r#10']).toBe('folio file:r#10, evicted, shadow entry');
    expect(label['anon:kv#8']).toBe('folio anon:kv#8, swapped out, swap entry');
    expect(folioLabel(folio('file:r#1', 'absent'), 'mglru')).toBe('folio file:r#1, not in memory');
  });

  it('does not draw a resident folio whose generation the chart lacks', () => {
    const dots = folioDots(generationsModel(lruvec), [folio('file:r#0', 'resident', { seq: 2 }), folio('file:r#1', 'resident')]);
    expect(dots.dots).toEqual([]);
    expect(dots.unplaced).toBe(2);
  });

  it('puts folios on the classic lists by kind and activity', () => {
    const model = classicListsModel({ ...lruvec, lruGen: false });
    const dots = folioDots(model, [
      folio('file:r#0', 'resident', { active: true, tier: 1 }),
      folio('file:r#1', 'resident'),
      folio('anon:kv#0', 'resident', { active: true }),
      folio('anon:kv#1', 'evicted'),
    ]);
    expect(dots.dots.map((d) => [d.page, d.column, d.seq, d.label])).toEqual([
      ['file:r#1', 'inactive', null, 'folio file:r#1, inactive file list'],
      ['anon:kv#0', 'active', null, 'folio anon:kv#0, active anon list'],
      ['file:r#0', 'active', null, 'folio file:r#0, active file list'],
      ['anon:kv#1', null, null, 'folio anon:kv#1, evicted, shadow entry'],
    ]);
  });

  it('assigns each memcg\'s folios to its first lruvec', () => {
    const lruvecs = [
      { memcg: '/a', node: 0 },
      { memcg: '/b', node: 0 },
      { memcg: '/a', node: 1 },
    ];
    const byLruvec = foliosByLruvec(lruvecs, [
      folio('file:x#0', 'resident', { memcg: '/a' }),
      folio('file:y#0', 'resident', { memcg: '/b' }),
      folio('file:z#0', 'resident', { memcg: '/gone' }),
      folio('file:x#1', 'evicted', { memcg: '/a' }),
    ]);
    expect([...byLruvec.entries()].map(([k, v]) => [k, v.map((f) => f.page)])).toEqual([
      ['/a@0', ['file:x#0', 'file:x#1']],
      ['/b@0', ['file:y#0']],
      ['/a@1', []],
    ]);
  });

  it('puts a resident folio on the lruvec of its node', () => {
    const lruvecs = [
      { memcg: '/a', node: 0 },
      { memcg: '/a', node: 1 },
    ];
    const byLruvec = foliosByLruvec(lruvecs, [
      folio('file:x#0', 'resident', { memcg: '/a', node: 1 }),
      folio('file:x#1', 'resident', { memcg: '/a', node: 0 }),
      folio('file:x#2', 'evicted', { memcg: '/a' }),
      // A node the frame has no lruvec for: the memcg's first one.
      folio('file:x#3', 'resident', { memcg: '/a', node: 7 }),
    ]);
    expect([...byLruvec.entries()].map(([k, v]) => [k, v.map((f) => f.page)])).toEqual([
      ['/a@0', ['file:x#1', 'file:x#2', 'file:x#3']],
      ['/a@1', ['file:x#0']],
    ]);
  });
});

describe('dot grid', () => {
  it('uses the roomiest cells that fit', () => {
    // 48 cells in a 60 × 110 box: 9 px cells, 6 columns, 8 rows (72 px).
    expect(fitGrid(48, 60, 110)).toEqual({ cols: 6, rows: 8, spacing: 9 });
    // Narrower: fewer columns, more rows, until the rows no longer fit at 9 px.
    expect(fitGrid(48, 40, 110)).toEqual({ cols: 4, rows: 12, spacing: 9 });
    expect(fitGrid(48, 40, 80)).toEqual({ cols: 5, rows: 10, spacing: 8 });
    // Few cells: one row, no wider than needed.
    expect(fitGrid(3, 100, 20)).toEqual({ cols: 3, rows: 1, spacing: 9 });
    // No room at all: the smallest cells, overflowing.
    expect(fitGrid(100, 20, 5)).toEqual({ cols: 5, rows: 20, spacing: 4 });
    expect(fitGrid(0, 50, 50).cols).toBe(1);
  });

  it('fills cells from the bottom left, centred across the box', () => {
    const grid = { cols: 4, rows: 3, spacing: 10 };
    expect(gridCell(grid, 0, 60)).toEqual({ x: 15, y: 5 });
    expect(gridCell(grid, 3, 60)).toEqual({ x: 45, y: 5 });
    expect(gridCell(grid, 4, 60)).toEqual({ x: 15, y: 15 });
    expect(gridCell(grid, 11, 60)).toEqual({ x: 45, y: 25 });
    expect(gridTop(grid, 0)).toBe(10);
    expect(gridTop(grid, 4)).toBe(20);
  });

  it('grows MGLRU dots with the tier and keeps them inside their cell', () => {
    const radii = [0, 1, 2, 3].map((tier) => dotRadius(9, tier, 'mglru'));
    expect([...radii].sort((a, b) => a - b)).toEqual(radii);
    expect(new Set(radii).size).toBe(4);
    expect(Math.max(...radii) * 2).toBeLessThan(9);
    expect(dotRadius(9, 7, 'mglru')).toBe(radii[3]);
    expect(dotRadius(9, 0, 'classic')).toBe(dotRadius(9, 3, 'classic'));
  });
});

describe('tiers model', () => {
  const tier = (kind: TierView['kind'], t: number, v: Partial<TierView>): TierView => ({
    kind,
    tier: t,
    avgRefaulted: 0,
    avgTotal: 0,
    refaulted: 0,
    evicted: 0,
    protected: 0,
    aboveTierIdx: false,
    ...v,
  });

  it('adds the running averages to the current generation and computes rates', () => {
    const rows = tiersModel([
      tier('anon', 0, {}),
      tier('anon', 1, {}),
      tier('file', 0, { avgRefaulted: 10, avgTotal: 100, refaulted: 5, evicted: 50 }),
      tier('file', 1, { refaulted: 30, evicted: 80, protected: 20, aboveTierIdx: true }),
      tier('file', 2, { refaulted: 1, evicted: 50, aboveTierIdx: true }),
      tier('anon', 2, {}),
    ]);
    expect(rows.map((r) => r.tier)).toEqual([0, 1, 2]);
    expect(rows[0]!.cells.file).toEqual({ refaulted: 15, total: 150, rate: 0.1, protected: 0, protectedTier: false });
    expect(rows[1]!.cells.file).toEqual({ refaulted: 30, total: 100, rate: 0.3, protected: 20, protectedTier: true });
    expect(rows[0]!.cells.anon.rate).toBeNull();
    // What sort_folio protects is the engine's call (tier > tier_idx), not a comparison of the rates shown:
    // tier 2 refaults less than tier 0 here and is protected all the same, as the tier above tier_idx.
    expect(rows[2]!.cells.file.protectedTier).toBe(true);
    expect(rows[1]!.cells.anon.protectedTier).toBe(false);
  });

  it('is empty without tiers (classic LRU)', () => {
    expect(tiersModel([])).toEqual([]);
  });

  it('formats rates as percentages', () => {
    expect(formatRate(null)).toBe('–');
    expect(formatRate(0)).toBe('0%');
    expect(formatRate(0.081)).toBe('8.1%');
    expect(formatRate(0.4321)).toBe('43%');
    expect(formatRate(1)).toBe('100%');
  });
});

describe('folio history model', () => {
  it('says where the folio is', () => {
    expect(folioStateText(folio('file:r#0', 'resident', { seq: 7, tier: 2 }), true)).toBe('resident in generation 7, tier 2');
    expect(folioStateText(folio('anon:kv#0', 'resident', { active: true }), false)).toBe('resident on the active anon list');
    expect(folioStateText(folio('file:r#0', 'resident'), false)).toBe('resident on the inactive file list');
    expect(folioStateText(folio('file:r#0', 'evicted'), true)).toBe('evicted: a shadow entry remains');
    expect(folioStateText(folio('anon:kv#0', 'swapped'), true)).toMatch(/^swapped out/);
    expect(folioStateText(folio('file:r#0', 'absent'), true)).toBe('absent: never touched');
    expect(folioStateText(undefined, true)).toBe('not tracked in this scenario');
  });

  it('lists the decisions newest first', () => {
    const e = (step: number, fn: string) => ({ step, timeNs: step * 10, kind: 'k', function: fn, reason: `${fn} at ${step}`, page: 'p' });
    const history: FolioHistory = { page: 'p', events: [e(1, 'lru_gen_add_folio'), e(4, 'folio_inc_refs'), e(4, 'sort_folio')] };
    const rows = historyRows(history);
    expect(rows.map((r) => [r.step, r.function])).toEqual([
      [4, 'sort_folio'],
      [4, 'folio_inc_refs'],
      [1, 'lru_gen_add_folio'],
    ]);
    expect(new Set(rows.map((r) => r.key)).size).toBe(3);
    expect(historyRows(null)).toEqual([]);
  });
});
