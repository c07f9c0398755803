// An experiment's headlines checked across its parameter ranges: each
// parameter at the low and the high end of its range (the others at their
// defaults), on seeds 1 to 5. The points come from the engine (the ones
// `reclaim-sim sweep` checks), so the table is docs/experiments.md's
// "Across the parameter ranges" table, made in the browser.
import type { Comparison, ExperimentInfo, RecordedRanges } from '../../engine/pkg/reclaim_core';
import { formatCount } from '../../util/format';
import { paramsOffDefaults, seedTally, withSeedTallies, type ComparisonTable, type SeedTally } from './model';

/** One parameter point and, per headline (in the experiment's order), its tally over the seeds. */
export interface RangeRow {
  point: string;
  tallies: (SeedTally | null)[];
  /** While the check runs: some of this point's seeds are not done, so it has no tallies yet. */
  pending?: boolean;
  /** In a recorded table: the work of the point's runs (the engine's accesses and scans, SweepRecordRow.work). */
  work?: number;
}

export interface RangeCheckResult {
  experiment: string;
  rows: RangeRow[];
}

/** The row of one point from its comparisons on each seed. */
export function rangeRow(experiment: ExperimentInfo, point: string, results: Comparison[]): RangeRow {
  const tally = seedTally(experiment, results);
  return { point, tallies: experiment.headlines.map((h) => tally.get(h.metric) ?? null) };
}

/** How many cells fell short of every seed, and how many of those were ties on every seed they missed. */
export function rangeShortfalls(result: RangeCheckResult): { cells: number; short: number; tiesOnly: number } {
  let cells = 0;
  let short = 0;
  let tiesOnly = 0;
  for (const row of result.rows) {
    for (const t of row.tallies) {
      if (!t) continue;
      cells++;
      if (t.held === t.seeds) continue;
      short++;
      if (t.held + t.tied === t.seeds) tiesOnly++;
    }
  }
  return { cells, short, tiesOnly };
}

/**
 * What the cells that did not hold on every seed did where they missed: tie
 * (no effect either way) or go the opposite way, in a sentence; empty when
 * every cell held.
 */
export function shortfallSentence({ short, tiesOnly }: { short: number; tiesOnly: number }): string {
  if (short === 0) return '';
  const opposite = short - tiesOnly;
  if (short === 1) return `One cell did not hold on every seed: ${tiesOnly === 1 ? 'where it missed, before and after tied (no effect either way)' : 'on some seed the effect went the opposite way'}.`;
  const what =
    tiesOnly === 0
      ? 'in each, on some seed the effect went the opposite way'
      : opposite === 0
        ? 'in each, before and after tied where it missed (no effect either way)'
        : `in ${formatCount(tiesOnly)}, before and after only tied where they missed (no effect either way); in ${formatCount(opposite)}, on some seed the effect went the opposite way`;
  return `${formatCount(short)} cells did not hold on every seed: ${what}.`;
}

/**
 * The range table `npm run experiments` recorded for `experiment` (the
 * native `reclaim-sim sweep` on the same seeds), or null when the record has
 * no sweep of it or one of other points, headlines or seeds: a record left
 * from another version of the experiment is not shown as this one's.
 */
export function recordedRangeResult(experiment: ExperimentInfo, recorded: RecordedRanges, seeds: readonly number[]): RangeCheckResult | null {
  const sweep = recorded.sweeps.find((s) => s.experiment === experiment.name);
  if (!sweep) return null;
  const metrics = experiment.headlines.map((h) => h.metric);
  const same = (a: readonly unknown[], b: readonly unknown[]) => a.length === b.length && a.every((x, i) => x === b[i]);
  if (!same(sweep.headlines, metrics) || !same(sweep.seeds, seeds)) return null;
  if (!same(sweep.rows.map((r) => r.point), experiment.ranges.map((r) => r.point))) return null;
  if (sweep.rows.some((r) => r.held.length !== metrics.length || r.tied.length !== metrics.length)) return null;
  return {
    experiment: experiment.name,
    rows: sweep.rows.map((r) => ({
      point: r.point,
      tallies: r.held.map((held, i) => ({ held, tied: r.tied[i] ?? 0, seeds: seeds.length })),
      work: r.work,
    })),
  };
}

/**
 * The table with the count over seeds 1 to 5 that the recorded sweep has at
 * the defaults (its "defaults" row), when the table ran the experiment's
 * default parameters and no check run here already counts it; else the
 * table as it is. The seed the table ran does not matter, as for a check.
 */
export function withRecordedSeeds(experiment: ExperimentInfo, table: ComparisonTable, recorded: RangeCheckResult | null): ComparisonTable {
  if (table.seedsChecked || !recorded) return table;
  const defaults = recorded.rows.find((r) => r.point === 'defaults');
  if (!defaults) return table;
  const atDefaults = table.params.length === experiment.params.length && paramsOffDefaults(experiment, table.params).length === 0;
  if (!atDefaults) return table;
  return withSeedTallies(table, new Map(experiment.headlines.map((h, i) => [h.metric, defaults.tallies[i] ?? null])), true);
}

/** How many comparisons a range check runs: every point on every seed. */
export function rangeRuns(experiment: ExperimentInfo, seeds: readonly number[]): number {
  return experiment.ranges.length * seeds.length;
}

/**
 * The table from the comparisons done so far, given point by point and seed
 * by seed (`seeds.length` results a point, in `experiment.ranges`' order,
 * undefined where a run is not done): a point whose seeds are all done gets
 * its tallies, the others are pending.
 */
export function rangeRows(experiment: ExperimentInfo, seeds: readonly number[], results: readonly (Comparison | undefined)[]): RangeRow[] {
  return experiment.ranges.map(({ point }, i) => {
    const mine = results.slice(i * seeds.length, (i + 1) * seeds.length);
    const done = mine.filter((r): r is Comparison => r !== undefined);
    if (done.length === seeds.length) return rangeRow(experiment, point, done);
    return { point, tallies: experiment.headlines.map(() => null), pending: true };
  });
}

/**
 * Each run's work in a range check, in the order the check takes them (a
 * point's `seeds` runs together), from the work the recorded sweep counted
 * at each point: null when there is no record, or one without work.
 */
export function rangeRunWork(recorded: RangeCheckResult | null, seeds: number): number[] | null {
  if (!recorded || recorded.rows.some((r) => !r.work)) return null;
  return recorded.rows.flatMap((r) => Array.from({ length: seeds }, () => (r.work ?? 0) / seeds));
}

/**
 * What is left of a running check, from the runs done so far and the time
 * they took: "about 3 min left", "under a minute left"; nothing before the
 * first run is done. Points differ in cost by a thousand times (a long
 * run's point can take a minute where others take a tenth of a second), so
 * with `work` (rangeRunWork: each run's work as the recorded sweep counted
 * it) the time so far is scaled by the share of the work done rather than
 * of the runs; the work follows time within a few times, so it is still a
 * rough guide, which the caller recomputes as time passes.
 */
export function timeLeft(elapsedMs: number, done: number, total: number, work?: readonly number[] | null): string | null {
  if (done < 1 || done >= total || elapsedMs <= 0) return null;
  const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
  const weighed = work && work.length === total && work.every((w) => w > 0);
  const share = weighed ? sum(work.slice(0, done)) / sum(work) : done / total;
  const left = (elapsedMs * (1 - share)) / share;
  if (left < 60_000) return 'under a minute left';
  return `about ${Math.round(left / 60_000)} min left`;
}

/** Wall-clock time so far: "8 s", "1 min 12 s". */
export function formatElapsed(ms: number): string {
  const s = Math.floor(Math.max(0, ms) / 1000);
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
}
