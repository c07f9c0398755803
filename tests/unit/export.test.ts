// What Export CSV and Export JSON write (web/src/export/tables.ts), without a browser.
import { csvParseRows } from 'd3';
import { describe, expect, it } from 'vitest';
import type { Comparison, Counter, ExperimentInfo, MemcgView, ReclaimView } from '../../web/src/engine/pkg/reclaim_core';
import { compareCountersCsv, compareJson, compareMemcgsCsv, comparisonCsv, countersCsv, exportFileName, exportJson, memcgsCsv, rangesCsv, type ExportedRun, type ExportedSide } from '../../web/src/export/tables';
import { makeRequest } from '../../web/src/scenario/params';
import { comparisonTable, withSeedCheck } from '../../web/src/views/comparison/model';

const counters = (values: Record<string, number>): Counter[] => Object.entries(values).map(([name, value]) => ({ name, value }));

const run: ExportedRun = {
  request: makeRequest('mglru-basic', 4, { memory_max: 2048, file_pages: 64 }),
  step: 12,
  timeNs: 120_000_000,
  counters: counters({ nr_free_pages: 900, pgscan_kswapd: 40, workingset_refault_file: 0 }),
  previous: { step: 11, counters: counters({ nr_free_pages: 1000, pgscan_kswapd: 32, workingset_refault_file: 0 }) },
};

const experiment: ExperimentInfo = {
  metrics: [],
  name: 'kswapd-classzone',
  title: 'kswapd',
  patch: '',
  description: '',
  params: [],
  variants: [
    { name: 'before', description: 'v4.11' },
    { name: 'after', description: 'v4.12' },
  ],
  limits: 'Direct reclaim does not move.',
  headlines: [{ metric: 'pgscan_direct', direction: 'lower', baseline: 'before', authorBefore: '6,579,706', authorAfter: '6,256,811' }],
  ranges: [{ point: 'defaults', params: new Map() }],
};

const comparison: Comparison = {
  experiment: 'kswapd-classzone',
  params: new Map([['bursts', 10]]),
  seed: 1,
  variants: [
    { variant: 'before', metrics: [['pgscan_direct', 29961], ['alloc_latency_p95', 0.125]] },
    { variant: 'after', metrics: [['pgscan_direct', 31926]] },
  ],
};

describe('export file names', () => {
  it('are scenario-seed-step, with an experiment\'s variant after its name', () => {
    expect(exportFileName(makeRequest('mglru-basic', 4), 12, 'svg')).toBe('mglru-basic-4-12.svg');
    expect(exportFileName(makeRequest('kswapd-classzone', 1, {}, 'before'), 0, 'png')).toBe('kswapd-classzone-before-1-0.png');
    expect(exportFileName(makeRequest('kswapd-classzone', 1, {}, 'after'), 'comparison', 'csv')).toBe(
      'kswapd-classzone-after-1-comparison.csv',
    );
  });
});

describe('counters CSV', () => {
  it('has a header, then each counter by its /proc/vmstat name, in order, with its delta', () => {
    expect(countersCsv(run)).toBe('name,value,delta,since_step\nnr_free_pages,900,-100,11\npgscan_kswapd,40,8,11\nworkingset_refault_file,0,0,11\n');
  });

  it('leaves the delta empty without a previous frame', () => {
    expect(countersCsv({ ...run, previous: null }).split('\n')[1]).toBe('nr_free_pages,900,,');
  });
});

describe('memcgs CSV', () => {
  const memcg = (path: string, extra: Partial<MemcgView>): MemcgView => ({
    path, usage: 0, max: undefined, high: undefined, low: 0, min: 0, swapUsage: 0, pgscan: 0, pgsteal: 0,
    eventsLow: 0, eventsHigh: 0, eventsMax: 0, eventsOom: 0, eventsOomKill: 0, leaf: true, ...extra,
  });
  it('writes a row per memcg in tree order, with the cgroup files\' names, limits empty when unlimited', () => {
    const csv = memcgsCsv([
      memcg('/', { leaf: false, usage: 300, pgscan: 90, pgsteal: 60, swapUsage: 12 }),
      memcg('/a,b', { usage: 200, max: 256, low: 64, pgscan: 50, pgsteal: 40, eventsMax: 3 }),
      memcg('/c', { usage: 100, high: 128, min: 8, pgscan: 40, pgsteal: 20, eventsOom: 1, eventsOomKill: 1, eventsLow: 2, eventsHigh: 5 }),
    ]);
    const rows = csvParseRows(csv.trimEnd());
    expect(rows[0]).toEqual([
      'memcg',
      'leaf',
      'memory.current_pages',
      'memory.max_pages',
      'memory.high_pages',
      'memory.low_pages',
      'memory.min_pages',
      'memory.swap.current_pages',
      'pgscan',
      'pgsteal',
      'events_low',
      'events_high',
      'events_max',
      'events_oom',
      'events_oom_kill',
    ]);
    expect(rows.slice(1)).toEqual([
      ['/', '0', '300', '', '', '0', '0', '12', '90', '60', '0', '0', '0', '0', '0'],
      // A path with a comma stays one field.
      ['/a,b', '1', '200', '256', '', '64', '0', '0', '50', '40', '0', '0', '3', '0', '0'],
      ['/c', '1', '100', '', '128', '0', '8', '0', '40', '20', '2', '5', '0', '1', '1'],
    ]);
    expect(csv.endsWith('\n')).toBe(true);
  });

  it('side by side: each side\'s rows after a column naming its variant', () => {
    const csv = compareMemcgsCsv([
      { variant: 'before', step: 3, counters: [], memcgs: [memcg('/a', { pgsteal: 7 })] },
      { variant: 'after', step: 3, counters: [], memcgs: [memcg('/a', { pgsteal: 9 })] },
    ]);
    const rows = csvParseRows(csv.trimEnd());
    expect(rows[0]!.slice(0, 3)).toEqual(['variant', 'memcg', 'leaf']);
    const pgsteal = rows[0]!.indexOf('pgsteal');
    expect(rows.slice(1).map((r) => [r[0], r[1], r[pgsteal]])).toEqual([
      ['before', '/a', '7'],
      ['after', '/a', '9'],
    ]);
  });
});

describe('comparison CSV', () => {
  const table = comparisonTable(experiment, comparison);
  const rows = csvParseRows(comparisonCsv(table).trimEnd());

  it('has a column per variant, then the change and the headline', () => {
    expect(rows[0]).toEqual(['metric', 'before', 'after', 'baseline', 'change', 'change_shown', 'headline_direction', 'author_before', 'author_after', 'verdict']);
  });

  it('writes numbers unformatted and quotes the author figures that hold commas', () => {
    expect(comparisonCsv(table)).toContain('"6,579,706"');
    expect(rows[1]).toEqual(['pgscan_direct', '29961', '31926', 'before', String((31926 - 29961) / 29961), '+6.56 %', 'lower', '6,579,706', '6,256,811', 'not-held']);
    // A metric one variant did not report: an empty cell, no change.
    expect(rows[2]).toEqual(['alloc_latency_p95', '0.125', '', 'before', '', '—', '', '', '', '']);
  });

  it('gives a share\'s change as the table shows it, in percentage points, next to the relative change', () => {
    const shares: Comparison = {
      ...comparison,
      variants: [
        { variant: 'before', metrics: [['hit_ratio', 0.415]] },
        { variant: 'after', metrics: [['hit_ratio', 0.564]] },
      ],
    };
    const row = csvParseRows(comparisonCsv(comparisonTable(experiment, shares)).trimEnd()).find((r) => r[0] === 'hit_ratio')!;
    expect(Number(row[4])).toBeCloseTo(0.564 / 0.415 - 1, 12);
    expect(row[5]).toBe('+14.9 pp');
  });

  it('leaves a value the run does not define (NaN) empty, with no change, and writes it as null in JSON', () => {
    const undefinedEfficiency: Comparison = {
      ...comparison,
      variants: [
        { variant: 'before', metrics: [['kswapd_efficiency', NaN]] },
        { variant: 'after', metrics: [['kswapd_efficiency', NaN]] },
      ],
    };
    const t = comparisonTable(experiment, undefinedEfficiency);
    const row = t.rows.find((r) => r.metric === 'kswapd_efficiency')!;
    expect(row.changeText).toBe('—');
    expect(csvParseRows(comparisonCsv(t).trimEnd()).find((r) => r[0] === 'kswapd_efficiency')).toEqual(['kswapd_efficiency', '', '', 'before', '', '—', '', '', '', '']);
    const exported = JSON.parse(exportJson(run, t)).comparison;
    expect(exported.variants.before.metrics.kswapd_efficiency).toBeNull();
    expect(exported.variants.after.metrics.kswapd_efficiency).toBeNull();
    expect(exported.changes.kswapd_efficiency).toEqual({ baseline: 'before', change: null, change_shown: '—' });
  });
});

describe('after a check over seeds 1-5', () => {
  // Seed 2 with the same parameters: after below before, so the headline held there.
  const seed2: Comparison = {
    ...comparison,
    seed: 2,
    variants: [
      { variant: 'before', metrics: [['pgscan_direct', 30000]] },
      { variant: 'after', metrics: [['pgscan_direct', 29000]] },
    ],
  };
  const check = {
    status: 'done' as const,
    request: makeRequest('kswapd-classzone', 1, { bursts: 10 }),
    result: [comparison, seed2, seed2],
    error: null,
    progress: 0,
    partial: null,
  };
  const table = withSeedCheck(experiment, comparisonTable(experiment, comparison), check);

  it('marks the table checked and gives each headline row its count', () => {
    expect(table.seedsChecked).toBe(true);
    expect(table.rows[0]!.seeds).toEqual({ held: 2, tied: 0, seeds: 3 });
    expect(table.rows[1]!.seeds).toBeNull();
  });

  it('leaves the table alone for a check of other parameters, one still running, or none', () => {
    const plain = comparisonTable(experiment, comparison);
    expect(withSeedCheck(experiment, plain, { ...check, request: makeRequest('kswapd-classzone', 1, { bursts: 4 }) })).toBe(plain);
    expect(withSeedCheck(experiment, plain, { ...check, status: 'running' })).toBe(plain);
    expect(withSeedCheck(experiment, plain, undefined)).toBe(plain);
    expect(plain.rows[0]!.seeds).toBeNull();
  });

  it('adds the counts to the CSV and the JSON', () => {
    const rows = csvParseRows(comparisonCsv(table).trimEnd());
    expect(rows[0]!.slice(-4)).toEqual(['seeds_held', 'seeds_tied', 'seeds', 'seeds_source']);
    expect(rows[1]!.slice(-4)).toEqual(['2', '0', '3', 'checked']);
    expect(rows[2]!.slice(-4)).toEqual(['', '', '', '']);
    // The recorded counts say so.
    const recorded = csvParseRows(comparisonCsv({ ...table, seedsRecorded: true }).trimEnd());
    expect(recorded[1]!.slice(-4)).toEqual(['2', '0', '3', 'recorded']);
    const data = JSON.parse(exportJson(run, table));
    expect(data.comparison.seeds).toEqual({ source: 'checked', headlines: { pgscan_direct: { held: 2, tied: 0, of: 3 } } });
  });
});

describe('JSON export', () => {
  it('carries the memcgs and the memory.reclaim writes the Memcgs view shows, when there are any', () => {
    const memcg = { path: '/a', usage: 10, max: 100, high: undefined, low: 0, min: 0, swapUsage: 0, pgscan: 5, pgsteal: 4, eventsLow: 0, eventsHigh: 0, eventsMax: 0, eventsOom: 0, eventsOomKill: 0, leaf: true };
    const write: ReclaimView = { memcg: '/', requested: 32, reclaimed: 40, overreclaim: 8, ok: true, startNs: 1e8, durationNs: 2e5, rounds: [{ batch: 32, reclaimed: 40 }] };
    const data = JSON.parse(exportJson({ ...run, memcgs: [memcg] as never, reclaims: [write] }, null));
    // Keyed as `reclaim-sim run --json` keys its memcgs, sizes in bytes as the cgroup files hold them, an unlimited memory.high as null.
    expect(data.memcgs).toEqual([
      {
        path: '/a',
        leaf: true,
        memory_current: 10 * 4096,
        memory_max: 100 * 4096,
        memory_high: null,
        memory_low: 0,
        memory_min: 0,
        memory_swap_current: 0,
        memory_stat: { pgscan: 5, pgsteal: 4 },
        memory_events: { low: 0, high: 0, max: 0, oom: 0, oom_kill: 0 },
      },
    ]);
    expect(data.memory_reclaim).toEqual([
      { memcg: '/', requested: 32, reclaimed: 40, overreclaim: 8, ok: true, start_ns: 1e8, duration_ns: 2e5, rounds: [{ batch: 32, reclaimed: 40 }] },
    ]);
    // None: no keys.
    const none = JSON.parse(exportJson({ ...run, memcgs: [], reclaims: [] }, null));
    expect(none).not.toHaveProperty('memcgs');
    expect(none).not.toHaveProperty('memory_reclaim');
  });

  it('names the run, its counters by /proc/vmstat name and their deltas, under the names of `reclaim-sim run --json`', () => {
    const data = JSON.parse(exportJson(run, null));
    expect(data).toEqual({
      scenario: 'mglru-basic',
      seed: 4,
      params: { file_pages: 64, memory_max: 2048 },
      steps: 12,
      time_ns: 120_000_000,
      vmstat: { nr_free_pages: 900, pgscan_kswapd: 40, workingset_refault_file: 0 },
      vmstat_delta: { since_step: 11, values: { nr_free_pages: -100, pgscan_kswapd: 8, workingset_refault_file: 0 } },
      comparison: null,
    });
    expect(Object.keys(data.vmstat)).toEqual(['nr_free_pages', 'pgscan_kswapd', 'workingset_refault_file']);
  });

  it('carries the variant and the comparison as `reclaim-sim compare --json` lays it out, with the table\'s changes', () => {
    const data = JSON.parse(exportJson({ ...run, request: makeRequest('kswapd-classzone', 1, { bursts: 10 }, 'after') }, comparisonTable(experiment, comparison)));
    expect(data.variant).toBe('after');
    expect(data.comparison).toEqual({
      experiment: 'kswapd-classzone',
      params: { bursts: 10 },
      seed: 1,
      variants: {
        before: { metrics: { pgscan_direct: 29961, alloc_latency_p95: 0.125 } },
        after: { metrics: { pgscan_direct: 31926, alloc_latency_p95: null } },
      },
      headlines: [
        {
          metric: 'pgscan_direct',
          expected: 'after lower than before',
          baseline: 'before',
          baseline_value: 29961,
          after_value: 31926,
          held: false,
          tied: false,
          author_before: '6,579,706',
          author_after: '6,256,811',
        },
      ],
      changes: {
        pgscan_direct: { baseline: 'before', change: (31926 - 29961) / 29961, change_shown: '+6.56 %' },
        alloc_latency_p95: { baseline: 'before', change: null, change_shown: '—' },
      },
    });
    expect(data.ranges).toBeUndefined();
    // A table with the recorded seeds column says so.
    const table = comparisonTable(experiment, comparison);
    const tally = { held: 4, tied: 0, seeds: 5 };
    const recorded = { ...table, seedsChecked: true, seedsRecorded: true, rows: table.rows.map((r) => ({ ...r, seeds: r.headline ? tally : null })) };
    const withSeeds = JSON.parse(exportJson(run, recorded));
    expect(withSeeds.comparison.seeds).toEqual({ source: 'recorded', headlines: { pgscan_direct: { held: 4, tied: 0, of: 5 } } });
  });

  it("carries a finished range check: per point, each headline's seeds held and tied", () => {
    const result = {
      experiment: 'kswapd-classzone',
      rows: [
        { point: 'defaults', tallies: [{ held: 4, tied: 0, seeds: 5 }] },
        { point: 'readers=1', tallies: [null] },
      ],
    };
    const data = JSON.parse(exportJson(run, null, { headlines: ['pgscan_direct'], result }));
    // As `reclaim-sim sweep --json` lays it out.
    expect(data.ranges).toEqual({
      experiment: 'kswapd-classzone',
      seeds: [1, 2, 3, 4, 5],
      headlines: ['pgscan_direct'],
      rows: [
        { point: 'defaults', held: [4], tied: [0] },
        { point: 'readers=1', held: [null], tied: [null] },
      ],
    });
    // The recorded table the page shows before a check is marked as such.
    const recorded = JSON.parse(exportJson(run, null, { headlines: ['pgscan_direct'], result, recorded: true }));
    expect(recorded.ranges).toEqual({ ...data.ranges, recorded: true });
  });
});

describe('range check CSV', () => {
  it('has a row per point and headline, in the table order, with the seeds held, tied and checked', () => {
    const result = {
      experiment: 'kswapd-classzone',
      rows: [
        { point: 'defaults', tallies: [{ held: 4, tied: 0, seeds: 5 }, { held: 0, tied: 5, seeds: 5 }] },
        { point: 'readers=1', tallies: [null, { held: 5, tied: 0, seeds: 5 }] },
      ],
    };
    const headlines = ['pgscan_direct', 'alloc_latency_p99'];
    const rows = csvParseRows(rangesCsv({ headlines, result }));
    expect(rows).toEqual([
      ['point', 'headline', 'held', 'tied', 'seeds', 'source'],
      ['defaults', 'pgscan_direct', '4', '0', '5', 'checked'],
      ['defaults', 'alloc_latency_p99', '0', '5', '5', 'checked'],
      ['readers=1', 'pgscan_direct', '', '', '', 'checked'],
      ['readers=1', 'alloc_latency_p99', '5', '0', '5', 'checked'],
    ]);
    // The table npm run experiments recorded says so on every row.
    const recorded = csvParseRows(rangesCsv({ headlines, result, recorded: true }));
    expect(recorded.slice(1).map((r) => r[5])).toEqual(['recorded', 'recorded', 'recorded', 'recorded']);
  });
});

describe('side by side exports', () => {
  const sides: ExportedSide[] = [
    { variant: 'before', step: 7, counters: counters({ nr_free_pages: 10, pswpout: 3 }) },
    { variant: 'after', step: 7, counters: counters({ nr_free_pages: 12, pswpout: 0 }) },
  ];

  it('writes a CSV row per counter, in kernel order, with a column per side', () => {
    expect(csvParseRows(compareCountersCsv(sides))).toEqual([
      ['name', 'before', 'after'],
      ['nr_free_pages', '10', '12'],
      ['pswpout', '3', '0'],
    ]);
  });

  it('writes each side\'s variant, steps and vmstat to JSON, with the comparison table', () => {
    const request = makeRequest('kswapd-classzone', 1, {});
    const data = JSON.parse(compareJson(request, sides, comparisonTable(experiment, comparison))) as {
      scenario: string;
      seed: number;
      sides: { variant: string; steps: number; vmstat: Record<string, number> }[];
      comparison: unknown;
    };
    expect(data.scenario).toBe('kswapd-classzone');
    expect(data.seed).toBe(1);
    expect(data.sides).toEqual([
      { variant: 'before', steps: 7, vmstat: { nr_free_pages: 10, pswpout: 3 } },
      { variant: 'after', steps: 7, vmstat: { nr_free_pages: 12, pswpout: 0 } },
    ]);
    expect(data.comparison).not.toBeNull();
  });

  it("writes each side's memcgs to JSON as the single-run export does, where the side has any", () => {
    const memcg: MemcgView = {
      path: '/a', usage: 10, max: undefined, high: undefined, low: 0, min: 0, swapUsage: 2, pgscan: 5, pgsteal: 4,
      eventsLow: 0, eventsHigh: 0, eventsMax: 0, eventsOom: 0, eventsOomKill: 0, leaf: true,
    };
    const withMemcgs: ExportedSide[] = [{ ...sides[0]!, memcgs: [memcg] }, { ...sides[1]!, memcgs: [] }];
    const data = JSON.parse(compareJson(makeRequest('kswapd-classzone', 1, {}), withMemcgs, null));
    const single = JSON.parse(exportJson({ ...run, memcgs: [memcg] }, null));
    expect(data.sides[0].memcgs).toEqual(single.memcgs);
    expect(data.sides[0].memcgs[0].memory_swap_current).toBe(2 * 4096);
    expect(data.sides[1]).not.toHaveProperty('memcgs');
  });
});
