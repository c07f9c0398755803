// Experiments in the app, without the engine: the comparison table's model
// (rows, columns, change against the baseline, the headline verdicts, number
// formatting), the patch label, and requests completed with a variant.
import { describe, expect, it } from 'vitest';
import type { Comparison, ExperimentInfo, ScenarioList } from '../../web/src/engine/pkg/reclaim_core';
import { makeRequest } from '../../web/src/scenario/params';
import { completeRequest, defaultRequest, defaultVariant, findExperiment, findScenario } from '../../web/src/scenario/presets';
import {
  compareCommand,
  comparisonParams,
  comparisonTable,
  formatChange,
  formatMetric,
  formatPointsChange,
  formatTally,
  patchLabel,
  relativeChange,
  seedTally,
  verdictOf,
  verdictText,
  limitsParagraphs,
  whyParagraph,
} from '../../web/src/views/comparison/model';
import { formatElapsed, rangeRow, rangeRows, rangeRunWork, rangeShortfalls, recordedRangeResult, shortfallSentence, timeLeft, withRecordedSeeds } from '../../web/src/views/comparison/ranges';

const batching: ExperimentInfo = {
  metrics: [],
  name: 'batching',
  title: 'Batch sizes',
  patch: '003_04f791f1dd4aa672.txt: mm: memcg: use larger batches for proactive reclaim (T.J. Mercier, 2024)',
  description: 'Two writes to memory.reclaim.',
  limits: '',
  params: [
    { name: 'request', default: 16384, min: 256, max: 1048576, integer: true, help: '', choices: [] },
    { name: 'children', default: 64, min: 2, max: 256, integer: true, help: '', choices: [] },
  ],
  variants: [
    { name: 'before', description: '32 pages a round' },
    { name: 'after', description: 'a quarter of the remainder' },
    { name: 'whole', description: 'the whole remainder' },
  ],
  headlines: [
    { metric: 'pages_per_sec', direction: 'higher', baseline: 'before', authorBefore: '105174', authorAfter: '233396' },
    { metric: 'overreclaim_pages', direction: 'lower', baseline: 'whole', authorBefore: '107.8 MiB (whole)', authorAfter: '-7.4 MiB' },
    { metric: 'time_s', direction: 'lower', baseline: 'before', authorBefore: '', authorAfter: '' },
    { metric: 'not_reported', direction: 'higher', baseline: 'before', authorBefore: 'x', authorAfter: 'y' },
  ],
  ranges: [
    { point: 'defaults', params: new Map() },
    { point: 'request=256', params: new Map([['request', 256]]) },
    { point: 'children=2', params: new Map([['children', 2]]) },
  ],
};

const result: Comparison = {
  experiment: 'batching',
  params: new Map([
    ['request', 16384],
    ['children', 32],
  ]),
  seed: 7,
  variants: [
    {
      variant: 'before',
      metrics: [
        ['pages_per_sec', 37831.18286650987],
        ['time_s', 3.0309388],
        ['full_reclaim_rounds', 1803],
        ['overreclaim_pages', 0],
        ['swapped', 0],
      ],
    },
    {
      variant: 'after',
      metrics: [
        ['pages_per_sec', 84457.46625538853],
        ['time_s', 3.0309388],
        ['full_reclaim_rounds', 26],
        ['overreclaim_pages', 0],
        ['swapped', 2048],
      ],
    },
    {
      variant: 'whole',
      metrics: [
        ['pages_per_sec', 83111.11510156195],
        ['time_s', 1.336524],
        ['full_reclaim_rounds', 3],
        ['overreclaim_pages', 3584],
        // A metric only one variant reports still gets a row.
        ['whole_only', 1],
      ],
    },
  ],
};

describe('comparison table', () => {
  const table = comparisonTable(batching, result);
  const row = (metric: string) => {
    const r = table.rows.find((x) => x.metric === metric);
    if (!r) throw new Error(`no row ${metric}`);
    return r;
  };

  it('has one column per variant, in the engine order, with their descriptions', () => {
    expect(table.columns).toEqual([
      { variant: 'before', description: '32 pages a round' },
      { variant: 'after', description: 'a quarter of the remainder' },
      { variant: 'whole', description: 'the whole remainder' },
    ]);
  });

  it('has one row per metric in the order reported, then headlines nobody reported', () => {
    expect(table.rows.map((r) => r.metric)).toEqual([
      'pages_per_sec',
      'time_s',
      'full_reclaim_rounds',
      'overreclaim_pages',
      'swapped',
      'whole_only',
      'not_reported',
    ]);
    expect(row('full_reclaim_rounds').values).toEqual([1803, 26, 3]);
    expect(row('whole_only').values).toEqual([null, null, 1]);
    expect(row('not_reported').values).toEqual([null, null, null]);
  });

  it('changes after against before, or against the baseline the headline names', () => {
    expect(row('pages_per_sec').baseline).toBe('before');
    expect(row('pages_per_sec').change).toBeCloseTo(84457.46625538853 / 37831.18286650987 - 1, 12);
    expect(row('pages_per_sec').changeText).toBe('+123 %');
    expect(row('full_reclaim_rounds').changeText).toBe('−98.6 %');
    // overreclaim is judged against `whole`: 3584 -> 0.
    expect(row('overreclaim_pages').baseline).toBe('whole');
    expect(row('overreclaim_pages').change).toBe(-1);
    expect(row('overreclaim_pages').changeText).toBe('−100 %');
    expect(row('time_s').changeText).toBe('0 %');
    // From 0 there is no percentage.
    expect(row('swapped').change).toBeNull();
    expect(row('swapped').changeText).toBe('from 0');
    expect(row('whole_only').changeText).toBe('—');
  });

  it('marks the headline rows with the author figures and whether we moved the expected way', () => {
    expect(row('pages_per_sec').headline).toEqual({
      direction: 'higher',
      baseline: 'before',
      authorBefore: '105174',
      authorAfter: '233396',
      verdict: 'held',
      tied: false,
      verdictText: '✓ higher',
    });
    expect(row('overreclaim_pages').headline).toMatchObject({ verdict: 'held', verdictText: '✓ lower', baseline: 'whole' });
    // Equal is not lower: no change, said as such.
    expect(row('time_s').headline).toMatchObject({ verdict: 'not-held', tied: true, verdictText: '✗ no change' });
    expect(row('not_reported').headline).toMatchObject({ verdict: 'unknown', authorBefore: 'x', authorAfter: 'y' });
    expect(row('full_reclaim_rounds').headline).toBeNull();
    expect([table.held, table.notHeld]).toEqual([2, 1]);
  });

  it('tells a tie from a move the other way', () => {
    expect(verdictText('not-held', 'lower', true)).toBe('✗ no change');
    expect(verdictText('not-held', 'lower')).toBe('✗ not lower');
    expect(verdictText('not-held', 'higher')).toBe('✗ not higher');
    expect(verdictText('held', 'higher')).toBe('✓ higher');
    expect(verdictText('unknown', 'higher')).toBe('? no value');
  });

  it('tallies each headline over several seeds: held, tied, or neither', () => {
    // A second seed where after is slower than before and overreclaims like whole.
    const worse: Comparison = {
      ...result,
      seed: 8,
      variants: result.variants.map((v) =>
        v.variant === 'after'
          ? { ...v, metrics: v.metrics.map(([k, x]) => [k, k === 'pages_per_sec' ? 1 : k === 'overreclaim_pages' ? 3584 : x] as [string, number]) }
          : v,
      ),
    };
    const tally = seedTally(batching, [result, worse, result]);
    expect(tally.get('pages_per_sec')).toEqual({ held: 2, tied: 0, seeds: 3 });
    expect(tally.get('overreclaim_pages')).toEqual({ held: 2, tied: 1, seeds: 3 });
    expect(tally.get('time_s')).toEqual({ held: 0, tied: 3, seeds: 3 });
    // A headline no variant reports is neither held nor tied; one both report as n/a (NaN: nothing to measure) ties.
    expect(tally.get('not_reported')).toEqual({ held: 0, tied: 0, seeds: 3 });
    const undefinedBoth: Comparison = {
      ...result,
      variants: result.variants.map((v) => ({ ...v, metrics: v.metrics.map(([k, x]) => [k, k === 'time_s' ? Number.NaN : x] as [string, number]) })),
    };
    expect(seedTally(batching, [undefinedBoth]).get('time_s')).toEqual({ held: 0, tied: 1, seeds: 1 });
    expect(tally.has('full_reclaim_rounds')).toBe(false);
    expect(formatTally({ held: 5, tied: 0, seeds: 5 })).toBe('5/5');
    expect(formatTally({ held: 3, tied: 0, seeds: 5 })).toBe('3/5');
    expect(formatTally({ held: 0, tied: 5, seeds: 5 })).toBe('0/5 (5 tied)');
    expect(formatTally({ held: 2, tied: 1, seeds: 5 })).toBe('2/5 (1 tied)');
  });

  it('makes a row of the range check per point: each headline tallied over its seeds, in the experiment order', () => {
    const worse: Comparison = {
      ...result,
      variants: result.variants.map((v) =>
        v.variant === 'after' ? { ...v, metrics: v.metrics.map(([k, x]) => [k, k === 'pages_per_sec' ? 1 : x] as [string, number]) } : v,
      ),
    };
    const good = rangeRow(batching, 'defaults', [result, result]);
    const mixed = rangeRow(batching, 'request=256', [result, worse]);
    expect(good.point).toBe('defaults');
    expect(good.tallies).toEqual([
      { held: 2, tied: 0, seeds: 2 },
      { held: 2, tied: 0, seeds: 2 },
      { held: 0, tied: 2, seeds: 2 },
      { held: 0, tied: 0, seeds: 2 },
    ]);
    expect(mixed.tallies[0]).toEqual({ held: 1, tied: 0, seeds: 2 });
    // Four headline cells a row: time_s ties on every seed, not_reported neither holds nor ties.
    expect(rangeShortfalls({ experiment: 'batching', rows: [good, mixed] })).toEqual({ cells: 8, short: 5, tiesOnly: 2 });
  });

  it('fills the range table in point by point while the runs come back, in any order', () => {
    const seeds = [1, 2];
    const none = rangeRows(batching, seeds, new Array(6).fill(undefined));
    expect(none.map((r) => [r.point, r.pending])).toEqual([
      ['defaults', true],
      ['request=256', true],
      ['children=2', true],
    ]);
    expect(none[0]!.tallies).toEqual([null, null, null, null]);
    // The second point's two runs are back, the first point's second is not (a pool finishes out of order).
    const some = rangeRows(batching, seeds, [result, undefined, result, result, undefined, undefined]);
    expect(some.map((r) => r.pending ?? false)).toEqual([true, false, true]);
    expect(some[1]).toEqual(rangeRow(batching, 'request=256', [result, result]));
    // All back: every row is what rangeRow makes of its seeds, and none is pending.
    const all = rangeRows(batching, seeds, new Array(6).fill(result));
    expect(all).toEqual(batching.ranges.map(({ point }) => rangeRow(batching, point, [result, result])));
    expect(rangeShortfalls({ experiment: 'batching', rows: some }).cells).toBe(4);
  });

  it('shows a recorded sweep as the range table only when it is of the same points, headlines and seeds', () => {
    const metrics = batching.headlines.map((h) => h.metric);
    const sweep = {
      experiment: 'batching',
      seeds: [1, 2, 3, 4, 5],
      headlines: metrics,
      rows: [
        { point: 'defaults', held: [5, 5, 0, 0], tied: [0, 0, 5, 0], work: 500 },
        { point: 'request=256', held: [5, 0, 0, 2], tied: [0, 5, 5, 1], work: 5000 },
        { point: 'children=2', held: [4, 5, 0, 0], tied: [0, 0, 5, 0], work: 50 },
      ],
    };
    const recorded = { generatedBy: 'npm run experiments', sweeps: [{ ...sweep, experiment: 'other' }, sweep] };
    const result = recordedRangeResult(batching, recorded, [1, 2, 3, 4, 5]);
    expect(result?.experiment).toBe('batching');
    expect(result?.rows.map((r) => r.point)).toEqual(['defaults', 'request=256', 'children=2']);
    expect(result?.rows[1]!.tallies).toEqual([
      { held: 5, tied: 0, seeds: 5 },
      { held: 0, tied: 5, seeds: 5 },
      { held: 0, tied: 5, seeds: 5 },
      { held: 2, tied: 1, seeds: 5 },
    ]);
    expect(rangeShortfalls(result!)).toEqual({ cells: 12, short: 8, tiesOnly: 4 });
    expect(shortfallSentence(rangeShortfalls(result!))).toBe(
      '8 cells did not hold on every seed: in 4, before and after only tied where they missed (no effect either way); in 4, on some seed the effect went the opposite way.',
    );
    expect(shortfallSentence({ short: 13, tiesOnly: 0 })).toBe('13 cells did not hold on every seed: in each, on some seed the effect went the opposite way.');
    expect(shortfallSentence({ short: 2, tiesOnly: 2 })).toBe('2 cells did not hold on every seed: in each, before and after tied where it missed (no effect either way).');
    expect(shortfallSentence({ short: 1, tiesOnly: 0 })).toBe('One cell did not hold on every seed: on some seed the effect went the opposite way.');
    expect(shortfallSentence({ short: 0, tiesOnly: 0 })).toBe('');
    // Each run's share of the work, in the check's order: a point's five seeds share its work.
    expect(rangeRunWork(result, 5)).toEqual([...Array(5).fill(100), ...Array(5).fill(1000), ...Array(5).fill(10)]);
    // A record without work (written before it was counted) weighs nothing.
    const old = recordedRangeResult(batching, { generatedBy: '', sweeps: [{ ...sweep, rows: sweep.rows.map(({ work: _, ...r }) => r) }] }, [1, 2, 3, 4, 5]);
    expect(old?.rows.length).toBe(3);
    expect(rangeRunWork(old, 5)).toBeNull();
    expect(rangeRunWork(null, 5)).toBeNull();
    // A record of another version of the experiment, or of other seeds, is not this one's table.
    const without = (change: Partial<typeof sweep>) => recordedRangeResult(batching, { generatedBy: '', sweeps: [{ ...sweep, ...change }] }, [1, 2, 3, 4, 5]);
    expect(without({ experiment: 'batching2' })).toBeNull();
    expect(without({ headlines: metrics.slice(1) })).toBeNull();
    expect(without({ seeds: [1, 2, 3] })).toBeNull();
    expect(without({ rows: sweep.rows.slice(0, 2) })).toBeNull();
    expect(without({ rows: [sweep.rows[1]!, sweep.rows[0]!, sweep.rows[2]!] })).toBeNull();
    expect(without({ rows: [{ point: 'defaults', held: [5], tied: [0], work: 1 }, sweep.rows[1]!, sweep.rows[2]!] })).toBeNull();
    expect(recordedRangeResult(batching, recorded, [1, 2])).toBeNull();
  });

  it('gives a table at the default parameters the recorded count over seeds 1 to 5, unless a check here already counts it', () => {
    const tallies = [
      { held: 5, tied: 0, seeds: 5 },
      { held: 0, tied: 5, seeds: 5 },
      { held: 5, tied: 0, seeds: 5 },
      { held: 2, tied: 1, seeds: 5 },
    ];
    const recorded = { experiment: 'batching', rows: [{ point: 'defaults', tallies }, { point: 'children=2', tallies: tallies.slice().reverse() }] };
    const atDefaults = comparisonTable(batching, { ...result, params: new Map([['request', 16384], ['children', 64]]) });
    const withSeeds = withRecordedSeeds(batching, atDefaults, recorded);
    expect(withSeeds.seedsChecked).toBe(true);
    expect(withSeeds.seedsRecorded).toBe(true);
    // Headline rows get the defaults row's tally; the others none.
    expect(withSeeds.rows.find((r) => r.metric === 'overreclaim_pages')?.seeds).toEqual({ held: 0, tied: 5, seeds: 5 });
    expect(withSeeds.rows.filter((r) => !r.headline).every((r) => r.seeds === null)).toBe(true);
    // Off the defaults (children 32), with no record, or with a check done here: the table as it is.
    expect(withRecordedSeeds(batching, table, recorded)).toBe(table);
    expect(withRecordedSeeds(batching, atDefaults, null)).toBe(atDefaults);
    const checked = { ...atDefaults, seedsChecked: true };
    expect(withRecordedSeeds(batching, checked, recorded)).toBe(checked);
  });

  it('estimates what is left of a range check from the runs done', () => {
    expect(timeLeft(5_000, 0, 65)).toBeNull();
    expect(timeLeft(10_000, 5, 65)).toBe('about 2 min left');
    expect(timeLeft(10_000, 60, 65)).toBe('under a minute left');
    expect(timeLeft(10_000, 65, 65)).toBeNull();
    // Weighed by work: 10 s for the first 5 of 15 runs, a tenth of the work,
    // leaves 90 s for the costly point and the cheap one after it, where
    // counting runs would say 20 s.
    const work = [...Array(5).fill(100), ...Array(5).fill(1000), ...Array(5).fill(10)];
    expect(timeLeft(10_000, 5, 15)).toBe('under a minute left');
    expect(timeLeft(10_000, 5, 15, work)).toBe('about 2 min left');
    // After the costly point, little is left.
    expect(timeLeft(110_000, 10, 15, work)).toBe('under a minute left');
    // Work that does not match the runs is not used.
    expect(timeLeft(10_000, 5, 15, work.slice(1))).toBe('under a minute left');
    // The time so far, which the range check shows next to it and moves on every second.
    expect(formatElapsed(8_400)).toBe('8 s');
    expect(formatElapsed(72_000)).toBe('1 min 12 s');
    expect(formatElapsed(-5)).toBe('0 s');
  });

  it('keeps the seed and the effective parameters, sorted', () => {
    expect(table.seed).toBe(7);
    expect(table.params).toEqual([
      ['children', 32],
      ['request', 16384],
    ]);
    // The bindings hand over a Map; a plain object reads the same.
    expect(comparisonParams({ params: { b: 2, a: 1 } as unknown as Map<string, number> })).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
  });

  it('gives the command line that prints the same numbers, naming only parameters off their defaults', () => {
    expect(compareCommand(batching, table.seed, table.params)).toBe('npm run sim -- compare batching --seed 7 --param children=32');
    expect(compareCommand(batching, 1, [['children', 64]])).toBe('npm run sim -- compare batching --seed 1');
  });
});

describe('verdicts and changes', () => {
  it('needs a strict move in the expected direction', () => {
    expect(verdictOf('lower', 1, 2)).toBe('held');
    expect(verdictOf('lower', 2, 2)).toBe('not-held');
    expect(verdictOf('lower', 3, 2)).toBe('not-held');
    expect(verdictOf('higher', 3, 2)).toBe('held');
    expect(verdictOf('higher', null, 2)).toBe('unknown');
    expect(verdictOf('higher', 1, Number.NaN)).toBe('unknown');
  });

  it('measures the change against the size of the baseline', () => {
    expect(relativeChange(5, 10)).toBe(-0.5);
    expect(relativeChange(-5, -10)).toBe(0.5);
    expect(relativeChange(0, 0)).toBe(0);
    expect(relativeChange(1, 0)).toBeNull();
    expect(relativeChange(null, 1)).toBeNull();
  });
});

describe('number formatting', () => {
  it('formats changes as signed percentages with 3 significant digits', () => {
    expect(formatChange(0.1234)).toBe('+12.3 %');
    expect(formatChange(-1)).toBe('−100 %');
    expect(formatChange(0)).toBe('0 %');
    expect(formatChange(15.13)).toBe('+1,513 %');
    expect(formatChange(-0.000138)).toBe('−0.0138 %');
    expect(formatChange(1.2345)).toBe('+123 %');
  });

  it('changes a share (a ratio, a CV, an efficiency) in percentage points', () => {
    expect(formatPointsChange(0.21, 0.013)).toBe('+19.7 pp');
    expect(formatPointsChange(1.04, 5.04)).toBe('−400 pp');
    expect(formatPointsChange(0.5, 0.5)).toBe('0 pp');
    const shares = comparisonTable(
      { ...batching, headlines: [{ metric: 'pgsteal_cv', direction: 'lower', baseline: 'before', authorBefore: '75 %', authorAfter: '20 %' }] },
      { ...result, variants: [{ variant: 'before', metrics: [['pgsteal_cv', 0.013], ['kswapd_efficiency', 0.98]] }, { variant: 'after', metrics: [['pgsteal_cv', 0.21], ['kswapd_efficiency', 0.98]] }] },
    );
    expect(shares.rows.map((r) => [r.metric, r.changeText])).toEqual([
      ['pgsteal_cv', '+19.7 pp'],
      ['kswapd_efficiency', '0 pp'],
    ]);
    // The exports keep the relative change.
    expect(shares.rows[0]!.change).toBeCloseTo(0.21 / 0.013 - 1, 12);
  });

  it('formats whole numbers in full and fractions to 3 significant digits', () => {
    expect(formatMetric(1921921)).toBe('1,921,921');
    expect(formatMetric(0)).toBe('0');
    expect(formatMetric(109866.6129032258)).toBe('109,867');
    expect(formatMetric(0.4815062518780675)).toBe('0.482');
    // Trailing zeros kept: every fraction shows its 3 digits (0.0130 next to 0.511).
    expect(formatMetric(0.013022848823039005)).toBe('0.0130');
    expect(formatMetric(3.0000001)).toBe('3.00');
    expect(formatMetric(5.044075520833333)).toBe('5.04');
    expect(formatMetric(512.5)).toBe('513');
    expect(formatMetric(-7.25)).toBe('−7.25');
    expect(formatMetric(-2500)).toBe('−2,500');
    expect(formatMetric(null)).toBe('—');
  });

  it('shows a share (a ratio, a CV, an efficiency) as a percentage, as the authors give them', () => {
    expect(formatMetric(0.013022848823039005, 'pgsteal_cv')).toBe('1.30 %');
    expect(formatMetric(5.044075520833333, 'reclaim_ratio')).toBe('504 %');
    expect(formatMetric(0.98, 'kswapd_efficiency')).toBe('98.0 %');
    expect(formatMetric(0.21, 'pgsteal_cv')).toBe('21.0 %');
    expect(formatMetric(1, 'hit_ratio')).toBe('100 %');
    expect(formatMetric(0.4815, 'hit_ratio')).toBe('48.2 %');
    expect(formatMetric(0.00005, 'pgsteal_cv')).toBe('0.00500 %');
    expect(formatMetric(0, 'reclaim_ratio')).toBe('0.00 %');
    // Other metrics as they are.
    expect(formatMetric(0.1, 'refill_us')).toBe('0.100 µs');
    expect(formatMetric(3.9522, 'alloc_latency_p95')).toBe('3.95 ms');
    expect(formatMetric(4103.2, 'alloc_latency_p99')).toBe('4,103 ms');
    expect(formatMetric(1.3569, 'time_s')).toBe('1.36 s');
    expect(formatMetric(3587, 'overreclaim_pages')).toBe('3,587');
    // Rates in the units the authors give them.
    expect(formatMetric(475020.4, 'anon_ops_per_sec')).toBe('475,020 ops/s');
    expect(formatMetric(108254, 'file_iops')).toBe('108,254 IOPS');
    expect(formatMetric(84457.46, 'uid0_pages_per_sec')).toBe('84,457 pages/s');
    expect(formatMetric(NaN, 'file_iops')).toBe('n/a');
    expect(formatMetric(null, 'pgsteal_cv')).toBe('—');
    // NaN: not defined in this run (kswapd's efficiency when it scanned nothing).
    expect(formatMetric(NaN, 'kswapd_efficiency')).toBe('n/a');
    expect(formatMetric(NaN)).toBe('n/a');
  });
});

describe('patch label', () => {
  it('splits the file, the subject and the author', () => {
    expect(patchLabel(batching.patch)).toEqual({
      file: '003_04f791f1dd4aa672.txt',
      subject: 'mm: memcg: use larger batches for proactive reclaim',
      byline: 'T.J. Mercier, 2024',
    });
    expect(
      patchLabel('002_f511d3b6a19ec428.txt: mm, vmscan: prevent kswapd sleeping prematurely due to mismatched classzone_idx (Mel Gorman, 2017)'),
    ).toMatchObject({ subject: 'mm, vmscan: prevent kswapd sleeping prematurely due to mismatched classzone_idx', byline: 'Mel Gorman, 2017' });
  });

  it('keeps a string of another shape whole', () => {
    expect(patchLabel('a patch with no file')).toEqual({ file: '', subject: 'a patch with no file', byline: '' });
  });
});

describe('requests for experiments', () => {
  const list: ScenarioList = {
    defaultScenario: 'basic',
    scenarios: [{ name: 'basic', title: 'Basic', description: '', params: [{ name: 'x', default: 1, min: 0, max: 9, integer: true, help: '', choices: [] }] }],
    experiments: [batching, { ...batching, name: 'no-after', variants: [{ name: 'old', description: '' }, { name: 'new', description: '' }] }],
  };

  it('finds an experiment as a scenario too', () => {
    expect(findScenario(list, 'batching')?.title).toBe('Batch sizes');
    expect(findExperiment(list, 'batching')).toBe(batching);
    expect(findExperiment(list, 'basic')).toBeUndefined();
  });

  it('opens an experiment on the engine default variant, "after", when it has one', () => {
    expect(defaultVariant(batching)).toBe('after');
    expect(defaultVariant(list.experiments[1]!)).toBe('old');
    expect(defaultRequest(list, 'batching', 3)).toEqual(makeRequest('batching', 3, { request: 16384, children: 64 }, 'after'));
    expect(defaultRequest(list).variant).toBeUndefined();
  });

  it('completes a request with the default variant and keeps one given (the engine judges it)', () => {
    expect(completeRequest(list, makeRequest('batching', 1, { children: 8 }))).toEqual(
      makeRequest('batching', 1, { request: 16384, children: 8 }, 'after'),
    );
    expect(completeRequest(list, makeRequest('batching', 1, {}, 'bogus')).variant).toBe('bogus');
    const basic = completeRequest(list, makeRequest('basic', 1, {}));
    expect(basic).toEqual(makeRequest('basic', 1, { x: 1 }));
    expect('variant' in basic).toBe(false);
  });
});

describe('why? beside a headline that did not hold', () => {
  const limits = 'pgsteal_cv does not reproduce.\n\nreclaim_ratio holds but at request=65536.\n\n\nThe pswpout_rate is not pswpout, which a later paragraph names.\n\npswpout comes last.';
  it('splits the text at its blank lines', () => {
    expect(limitsParagraphs(limits)).toHaveLength(4);
    expect(limitsParagraphs('')).toEqual([]);
  });
  it('leads to the first paragraph that names the metric as a word', () => {
    const p = limitsParagraphs(limits);
    expect(whyParagraph(p, 'pgsteal_cv')).toBe(0);
    expect(whyParagraph(p, 'reclaim_ratio')).toBe(1);
    // Not inside a longer name; "pswpout," ends the word.
    expect(whyParagraph(p, 'pswpout')).toBe(2);
    expect(whyParagraph(p, 'pswpout_rate')).toBe(2);
    expect(whyParagraph(p.slice(0, 2).concat('The pswpout_rate only.', 'pswpout here.'), 'pswpout')).toBe(3);
  });
  it('falls back to the first paragraph when none names it', () => {
    expect(whyParagraph(limitsParagraphs(limits), 'file_iops')).toBe(0);
  });
});
