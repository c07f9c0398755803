import { describe, expect, it } from 'vitest';
import type { LruvecView } from '../../web/src/engine/pkg/reclaim_core';
import { counterRows } from '../../web/src/views/counters/model';
import { groupEvents } from '../../web/src/views/events/model';
import { classicListsModel, defaultLruvec, generationsModel, lruvecModel, lruvecOption } from '../../web/src/views/generations/model';
import { makeRequest as req } from '../../web/src/scenario/params';
import { completeRequest, defaultRequest, paramProblem } from '../../web/src/scenario/presets';
import { pagesTicks } from '../../web/src/util/d3';
import { counted, formatDelta, formatDuration, formatMs, formatPages, keepTogether, secondsColumn, timeTickFormat } from '../../web/src/util/format';

describe('counters model', () => {
  it('has no deltas without a previous frame, in the given order', () => {
    const rows = counterRows(
      [
        { name: 'pgscan_kswapd', value: 5 },
        { name: 'pgsteal_kswapd', value: 2 },
      ],
      null,
    );
    expect(rows).toEqual([
      { name: 'pgscan_kswapd', value: 5, delta: null },
      { name: 'pgsteal_kswapd', value: 2, delta: null },
    ]);
  });

  it('computes deltas by name', () => {
    const rows = counterRows(
      [
        { name: 'b', value: 10 },
        { name: 'a', value: 3 },
        { name: 'new', value: 1 },
      ],
      [
        { name: 'a', value: 3 },
        { name: 'b', value: 4 },
      ],
    );
    expect(rows).toEqual([
      { name: 'b', value: 10, delta: 6 },
      { name: 'a', value: 3, delta: 0 },
      { name: 'new', value: 1, delta: null },
    ]);
  });
});

describe('generations model', () => {
  const lruvec: LruvecView = {
    memcg: '/job',
    node: 0,
    maxSeq: 7,
    minSeq: [5, 4],
    gens: [
      { seq: 6, gen: 2, ageNs: 2_000, anon: 30, file: 40 },
      { seq: 4, gen: 0, ageNs: 9_000, anon: 0, file: 12 },
      { seq: 7, gen: 3, ageNs: 0, anon: 5, file: 100 },
      { seq: 5, gen: 1, ageNs: 5_000, anon: 8, file: 0 },
    ],
    memoryCurrent: 195,
    memoryMax: 256,
    lruGen: true,
    lists: [0, 0, 0, 0],
    tiers: [],
  };

  it('orders generations oldest first and marks the ends', () => {
    const model = generationsModel(lruvec);
    expect(model.columns.map((c) => c.seq)).toEqual([4, 5, 6, 7]);
    expect(model.columns.map((c) => c.gen)).toEqual([0, 1, 2, 3]);
    expect(model.columns[0]!.oldest).toBe(true);
    expect(model.columns[3]!.youngest).toBe(true);
    expect(model.columns.filter((c) => c.oldest || c.youngest)).toHaveLength(2);
  });

  it('sizes the bars, totals and scale', () => {
    const model = generationsModel(lruvec);
    expect(model.columns[3]!.bars).toEqual([
      { column: 'seq:7', seq: 7, list: null, type: 'anon', pages: 5, live: true, title: 'seq 7: 5 anon pages' },
      { column: 'seq:7', seq: 7, list: null, type: 'file', pages: 100, live: true, title: 'seq 7: 100 file pages' },
    ]);
    expect(model.totals).toEqual({ anon: 43, file: 152 });
    expect(model.maxPages).toBe(100);
  });

  it('marks types older than their min_seq', () => {
    const model = generationsModel(lruvec);
    // seq 4 is below min_seq[anon] = 5 but not below min_seq[file] = 4.
    expect(model.columns[0]!.bars.map((b) => [b.type, b.live])).toEqual([
      ['anon', false],
      ['file', true],
    ]);
    expect(model.columns[0]!.bars[0]!.title).toBe('seq 4: 0 anon pages — older than min_seq[anon]');
  });

  it('labels the columns: seq, gen and age, role', () => {
    const model = generationsModel(lruvec);
    expect(model.mode).toBe('mglru');
    expect(model.columns.map((c) => [c.key, c.heading, c.detail, c.role])).toEqual([
      ['seq:4', 'seq 4', 'gen 0 · age 9.00 µs', 'oldest'],
      ['seq:5', 'seq 5', 'gen 1 · age 5.00 µs', ''],
      ['seq:6', 'seq 6', 'gen 2 · age 2.00 µs', ''],
      ['seq:7', 'seq 7', 'gen 3 · age 0 ns', 'youngest'],
    ]);
    expect(generationsModel({ ...lruvec, gens: [lruvec.gens[0]!] }).columns[0]!.role).toBe('only');
  });

  it('names the chart after the memcg and node', () => {
    const model = generationsModel(lruvec);
    expect(model.label).toBe('Generations of /job on node 0');
    expect(model.key).toBe('/job@0');
    expect(model.summary).toContain('4 generations, seq 4 (oldest) to 7 (youngest)');
  });

  it('handles a lruvec without generations', () => {
    const model = generationsModel({ ...lruvec, gens: [] });
    expect(model.columns).toEqual([]);
    expect(model.maxPages).toBe(0);
  });

  it('picks the model of the LRU the lruvec runs', () => {
    expect(lruvecModel(lruvec).mode).toBe('mglru');
    expect(lruvecModel({ ...lruvec, lruGen: false }).mode).toBe('classic');
  });
});

describe('classic lists model', () => {
  const lruvec: LruvecView = {
    memcg: '/job',
    node: 1,
    maxSeq: 3,
    minSeq: [0, 0],
    gens: [{ seq: 0, gen: 0, ageNs: 0, anon: 0, file: 0 }],
    memoryCurrent: 100,
    memoryMax: undefined,
    lruGen: false,
    lists: [10, 20, 30, 40],
    tiers: [],
  };

  it('draws the inactive list, then the active one, each with anon and file', () => {
    const model = classicListsModel(lruvec);
    expect(model.mode).toBe('classic');
    expect(model.columns.map((c) => c.key)).toEqual(['inactive', 'active']);
    expect(model.columns.flatMap((c) => c.bars.map((b) => [b.list, b.pages, b.column, b.seq]))).toEqual([
      ['inactive_anon', 10, 'inactive', null],
      ['inactive_file', 30, 'inactive', null],
      ['active_anon', 20, 'active', null],
      ['active_file', 40, 'active', null],
    ]);
    expect(model.columns.map((c) => [c.oldest, c.youngest])).toEqual([
      [true, false],
      [false, true],
    ]);
    expect(model.maxPages).toBe(40);
    expect(model.totals).toEqual({ anon: 30, file: 70 });
  });

  it('names the chart after the memcg and node', () => {
    const model = classicListsModel(lruvec);
    expect(model.title).toBe('LRU lists');
    expect(model.label).toBe('LRU lists of /job on node 1');
    expect(model.summary).toBe('Classic LRU: inactive_anon 10, active_anon 20, inactive_file 30, active_file 40 pages.');
    expect(model.columns[1]!.bars[1]!.title).toBe('active_file: 40 file pages');
  });
});

describe('which lruvec the LRU tab shows unasked', () => {
  const at = (memcg: string, lists: [number, number, number, number], memoryCurrent = lists.reduce((a, b) => a + b, 0)) => ({ memcg, node: 0, lists, memoryCurrent });
  // A parent charged for its children's pages, with nothing on its own lists (proactive-reclaim-batching's /uid_0).
  const parent = at('/uid_0', [0, 0, 0, 0], 300);
  const app0 = at('/uid_0/app0', [0, 0, 0, 0]);
  const app1 = at('/uid_0/app1', [10, 0, 90, 0]);
  const app2 = at('/uid_0/app2', [0, 200, 0, 0]);

  it('passes over lruvecs whose own lists are empty, in tree order, not by size', () => {
    expect(defaultLruvec([parent, app0, app1, app2])?.memcg).toBe('/uid_0/app1');
  });

  it('prefers the lruvec of the selected folio, if it holds pages', () => {
    expect(defaultLruvec([parent, app1, app2], '/uid_0/app2')?.memcg).toBe('/uid_0/app2');
    expect(defaultLruvec([parent, app0, app1], '/uid_0/app0')?.memcg).toBe('/uid_0/app1');
  });

  it('falls back to the first when every list is empty, and to nothing when there are none', () => {
    expect(defaultLruvec([parent, app0])?.memcg).toBe('/uid_0');
    expect(defaultLruvec([])).toBeUndefined();
  });

  it("labels an lruvec by its own lists, and a parent's charge beside them", () => {
    expect(lruvecOption(app1)).toBe('/uid_0/app1 on node 0 — 100 pages on its lists');
    expect(lruvecOption(parent)).toBe('/uid_0 on node 0 — 0 pages on its lists (memcg charged 300)');
  });
});

describe('presets', () => {
  const list = {
    defaultScenario: 'b',
    scenarios: [
      { name: 'a', title: 'A', description: '', params: [] },
      {
        name: 'b',
        title: 'B',
        description: '',
        params: [
          { name: 'size', default: 64, min: 1, max: 1024, integer: true, help: '', choices: [] },
          { name: 'ratio', default: 0.5, min: 0, max: 1, integer: false, help: '', choices: [] },
        ],
      },
    ],
    experiments: [],
  };

  it('builds the default request from the list', () => {
    expect(defaultRequest(list)).toEqual(req('b', 1, { size: 64, ratio: 0.5 }));
    expect(defaultRequest(list, 'a', 9)).toEqual(req('a', 9, {}));
  });

  it('completes a request with the defaults it leaves out, keeping what it has', () => {
    expect(completeRequest(list, req('b', 3, { size: 7, bogus: 1 }))).toEqual(req('b', 3, { size: 7, ratio: 0.5, bogus: 1 }));
    const unknown = req('zzz', 3, { q: 1 });
    expect(completeRequest(list, unknown)).toBe(unknown);
  });

  it('checks values against a parameter', () => {
    const size = list.scenarios[1]!.params[0]!;
    expect(paramProblem(size, 64)).toBeNull();
    expect(paramProblem(size, 1.5)).toMatch(/whole/);
    expect(paramProblem(size, 0)).toBe('from 1 to 1,024');
    expect(paramProblem(size, Number.NaN)).toMatch(/number/);
  });
});

describe('formatting', () => {
  it('counts with a noun that is plural unless the count is 1', () => {
    expect(counted(1, 'sleep')).toBe('1 sleep');
    expect(counted(0, 'premature sleep')).toBe('0 premature sleeps');
    expect(counted(2048, 'page')).toBe('2,048 pages');
  });

  it('formats deltas, sizes and times', () => {
    expect(formatDelta(0)).toBe('0');
    expect(formatDelta(1234)).toBe('+1,234');
    expect(formatDelta(-5)).toBe('−5');
    expect(formatPages(2048)).toBe('8 MiB');
    expect(formatPages(1)).toBe('4 KiB');
    expect(formatPages(300)).toBe('1.2 MiB');
    expect(formatMs(12_345_678)).toBe('12.346 ms');
    expect(formatMs(999_999_000)).toBe('999.999 ms');
    expect(formatMs(1e9)).toBe('1.000 s');
    // In a column whose later rows are past 1 s: every row to the microsecond, so that they line up.
    expect(formatMs(800e6, true)).toBe('0.800000 s');
    expect(formatMs(14_990_240_000, true)).toBe('14.990240 s');
    expect(secondsColumn([800e6, 1e9])).toBe(true);
    expect(secondsColumn([800e6, 999_999_999])).toBe(false);
    expect(formatMs(1_010_250_000)).toBe('1.01025 s');
    expect(formatMs(9_999_999_000)).toBe('9.999999 s');
    expect(formatMs(20e9)).toBe('20.000 s');
    expect(formatMs(100e9)).toBe('100.000 s');
    expect(formatDuration(850)).toBe('850 ns');
    expect(formatDuration(12_500)).toBe('12.5 µs');
    expect(formatDuration(3_200_000)).toBe('3.20 ms');
    expect(formatDuration(1_250_000_000)).toBe('1.25 s');
  });
});

describe('events model', () => {
  const e = (fn: string, reason: string, timeNs: number) => ({ step: 3, timeNs, kind: 'eviction', function: fn, reason });

  it('merges identical decisions in order of first appearance', () => {
    const groups = groupEvents([
      e('evict_folios', 'oldest gen', 10),
      e('inc_max_seq', 'new gen', 11),
      e('evict_folios', 'oldest gen', 12),
      e('evict_folios', 'other reason', 13),
      e('evict_folios', 'oldest gen', 14),
    ]);
    expect(groups.map((g) => [g.function, g.reason, g.count, g.timeNs])).toEqual([
      ['evict_folios', 'oldest gen', 3, 10],
      ['inc_max_seq', 'new gen', 1, 11],
      ['evict_folios', 'other reason', 1, 13],
    ]);
  });

  it('keeps decisions of different kinds apart', () => {
    expect(groupEvents([e('f', 'r', 1), { ...e('f', 'r', 2), kind: 'refault' }])).toHaveLength(2);
  });
});

describe('timeTickFormat', () => {
  it('labels a time axis in the unit of its last time, with the decimals its ticks need', () => {
    // 1.2 s of run: seconds, not "1200 ms".
    const a = timeTickFormat([0, 2e8, 4e8, 6e8, 8e8, 1e9, 1.2e9], 1.2e9);
    expect([0, 2e8, 1.2e9].map(a)).toEqual(['0.0 s', '0.2 s', '1.2 s']);
    // Whole seconds apart: no decimals; zero labelled alike.
    const b = timeTickFormat([0, 5e9, 10e9], 12e9);
    expect([0, 5e9, 10e9].map(b)).toEqual(['0 s', '5 s', '10 s']);
    // 0.05 s apart: two decimals.
    expect(timeTickFormat([2.95e9, 3e9], 3e9)(2.95e9)).toBe('2.95 s');
    // Under a second: ms; under a millisecond: µs.
    expect(timeTickFormat([0, 1e8], 5e8)(1e8)).toBe('100 ms');
    expect(timeTickFormat([0, 2e5], 8e5)(2e5)).toBe('200 µs');
  });
});

describe('keepTogether', () => {
  it('joins a number to its unit and keeps -EAGAIN whole, leaving other spaces alone', () => {
    expect(keepTogether('101.6 ms (-42 %)')).toBe('101.6\u00a0ms (-42\u00a0%)');
    expect(keepTogether('105,174 (1 GiB), 13,742 (root, full)')).toBe('105,174 (1\u00a0GiB), 13,742 (root, full)');
    expect(keepTogether('ends in -EAGAIN (59 of 60 writes)')).toBe('ends in \u2011EAGAIN (59 of 60 writes)');
    // "s" only as a unit, not the start of a word.
    expect(keepTogether('2 seeds, 3 s')).toBe('2 seeds, 3\u00a0s');
  });
});

describe('pagesTicks', () => {
  it('writes every tick of an axis in one style: SI suffixes once the largest reaches 10,000', () => {
    const big = pagesTicks([0, 5000, 10000]);
    expect([0, 5000, 10000].map((t) => big(t))).toEqual(['0', '5k', '10k']);
    const small = pagesTicks([0, 500, 1000, 1500]);
    expect([0, 1000, 1500].map((t) => small(t))).toEqual(['0', '1,000', '1,500']);
    expect(pagesTicks([0, 200000, 400000])(250000)).toBe('250k');
  });
});
