// An experiment's comparison (every variant run to the end on one seed), the
// check of its headlines over seeds 1 to 5 (what docs/experiments.md's "held
// for seeds 1-5" column says), and the same check at each end of each
// parameter's range (its "Across the parameter ranges" table). Each runs in
// workers of its own: the comparison in one, the checks in one per core.
import { useMemo } from 'react';
import type { Comparison, ExperimentInfo, ScenarioRequest } from './engine/pkg/reclaim_core';
import { poolSize, runPooled } from './engine/pool';
import { useWorkerJob, type Job, type JobRunner, type JobState } from './engine/useWorkerJob';
import { makeRequest, paramRecord } from './scenario/params';
import { rangeRows, type RangeCheckResult } from './views/comparison/ranges';

export type ComparisonState = JobState<Comparison>;
export type ComparisonRunner = JobRunner<Comparison>;

const compareOnce: Job<Comparison> = ([client], request) => client!.compare(request);

export function useComparison(): ComparisonRunner {
  return useWorkerJob(compareOnce);
}

/** The seeds the experiments' documentation checks every headline on. */
export const CHECK_SEEDS = [1, 2, 3, 4, 5] as const;
/** Those seeds as the page names them: "1–5". */
export const SEED_RANGE = `${CHECK_SEEDS[0]}–${CHECK_SEEDS[CHECK_SEEDS.length - 1]}`;

export type SeedCheckState = JobState<Comparison[]>;
export type SeedCheckRunner = JobRunner<Comparison[]>;

/** How many workers each check runs on: one per core the browser reports, at most four. */
export const CHECK_WORKERS = poolSize(globalThis.navigator?.hardwareConcurrency);
/** How a check's runs go, as the page says it: "2 at a time", or "one after the other". */
export const CHECK_PACE = CHECK_WORKERS > 1 ? `${CHECK_WORKERS} at a time` : 'one after the other';

const compareEachSeed: Job<Comparison[]> = (clients, request, progress) =>
  runPooled(clients, CHECK_SEEDS, (client, seed) => client.compare({ ...request, seed }), (_sofar, done) => progress(done));

/** The comparison on each of seeds 1 to 5, CHECK_WORKERS at a time. */
export function useSeedCheck(): SeedCheckRunner {
  return useWorkerJob(compareEachSeed, CHECK_WORKERS);
}

export type RangeCheckState = JobState<RangeCheckResult>;
export type RangeCheckRunner = JobRunner<RangeCheckResult>;

/** The request a range check runs with: the experiment at its defaults (each point sets its own parameters and seeds). */
export function rangeCheckRequest(name: string): ScenarioRequest {
  return makeRequest(name, CHECK_SEEDS[0]);
}

/** The experiment at one range point: the point's parameters, the others at their defaults. */
export function pointRequest(name: string, params: Map<string, number>, seed: number, variant?: string): ScenarioRequest {
  return makeRequest(name, seed, paramRecord({ params }), variant);
}

/**
 * The experiment's range check: every point the engine lists (the defaults,
 * then each parameter at each end of its range) on seeds 1 to 5, as
 * `reclaim-sim sweep` runs them, CHECK_WORKERS comparisons at a time, taken
 * in the table's order. Run it with the experiment's request; the points
 * replace its parameters.
 */
export function useRangeCheck(experiment: ExperimentInfo | undefined): RangeCheckRunner {
  const job = useMemo<Job<RangeCheckResult>>(
    () => async (clients, request, progress) => {
      if (!experiment || experiment.name !== request.name) throw new Error(`${request.name} is not an experiment with parameter ranges`);
      const runs = experiment.ranges.flatMap(({ params }) => CHECK_SEEDS.map((seed) => pointRequest(experiment.name, params, seed)));
      const table = (results: readonly (Comparison | undefined)[]) => ({ experiment: experiment.name, rows: rangeRows(experiment, CHECK_SEEDS, results) });
      const results = await runPooled(clients, runs, (client, run) => client.compare(run, { headlinesOnly: true }), (sofar, done) => progress(done, table(sofar)));
      return table(results);
    },
    [experiment],
  );
  return useWorkerJob(job, CHECK_WORKERS);
}
