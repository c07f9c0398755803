// An experiment's headlines checked across its parameter ranges: each
// parameter at the low and the high end of its range (the others at their
// defaults), on seeds 1 to 5. The points come from the engine (the ones
// `reclaim-sim sweep` checks), so the table is docs/experiments.md's
// "Across the parameter ranges" table, made in the browser.
import type { Comparison, ExperimentInfo } from '../../engine/pkg/reclaim_core';
import { seedTally, type SeedTally } from './model';

/** One parameter point and, per headline (in the experiment's order), its tally over the seeds. */
export interface RangeRow {
  point: string;
  tallies: (SeedTally | null)[];
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

/** How many comparisons a range check runs: every point on every seed. */
export function rangeRuns(experiment: ExperimentInfo, seeds: readonly number[]): number {
  return experiment.ranges.length * seeds.length;
}

/** What the check is at while it runs: the point and seed of the next run, from the runs done so far. */
export function rangeProgress(experiment: ExperimentInfo, done: number, seeds: readonly number[]): { point: string; seed: number; total: number } {
  const total = rangeRuns(experiment, seeds);
  const next = Math.min(done, total - 1);
  return { point: experiment.ranges[Math.floor(next / seeds.length)]?.point ?? '', seed: seeds[next % seeds.length] ?? 0, total };
}

/**
 * What is left of a running check, from the runs done so far and the time
 * they took: "about 3 min left", "under a minute left"; nothing before the
 * first run is done. Points differ in cost, so it is a rough guide.
 */
export function timeLeft(elapsedMs: number, done: number, total: number): string | null {
  if (done < 1 || done >= total || elapsedMs <= 0) return null;
  const left = (elapsedMs / done) * (total - done);
  if (left < 60_000) return 'under a minute left';
  return `about ${Math.round(left / 60_000)} min left`;
}
