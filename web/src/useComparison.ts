// An experiment's comparison (every variant run to the end on one seed), the
// check of its headlines over seeds 1 to 5 (what docs/experiments.md's "held
// for seeds 1-5" column says), and the same check at each end of each
// parameter's range (its "Across the parameter ranges" table). Each runs in
// a worker of its own.
import { useMemo } from 'react';
import type { Comparison, ExperimentInfo, ScenarioRequest } from './engine/pkg/reclaim_core';
import { useWorkerJob, type Job, type JobRunner, type JobState } from './engine/useWorkerJob';
import { makeRequest, paramRecord } from './scenario/params';
import { rangeRow, type RangeCheckResult, type RangeRow } from './views/comparison/ranges';

export type ComparisonState = JobState<Comparison>;
export type ComparisonRunner = JobRunner<Comparison>;

const compareOnce: Job<Comparison> = (client, request) => client.compare(request);

export function useComparison(): ComparisonRunner {
  return useWorkerJob(compareOnce);
}

/** The seeds the experiments' documentation checks every headline on. */
export const CHECK_SEEDS = [1, 2, 3, 4, 5] as const;
/** Those seeds as the page names them: "1–5". */
export const SEED_RANGE = `${CHECK_SEEDS[0]}–${CHECK_SEEDS[CHECK_SEEDS.length - 1]}`;

export type SeedCheckState = JobState<Comparison[]>;
export type SeedCheckRunner = JobRunner<Comparison[]>;

const compareEachSeed: Job<Comparison[]> = async (client, request, progress) => {
  const out: Comparison[] = [];
  for (const seed of CHECK_SEEDS) {
    out.push(await client.compare({ ...request, seed }));
    progress(out.length);
  }
  return out;
};

/** The comparison on each of seeds 1 to 5, one after the other. */
export function useSeedCheck(): SeedCheckRunner {
  return useWorkerJob(compareEachSeed);
}

export type RangeCheckState = JobState<RangeCheckResult>;
export type RangeCheckRunner = JobRunner<RangeCheckResult>;

/** The request a range check runs with: the experiment at its defaults (each point sets its own parameters and seeds). */
export function rangeCheckRequest(name: string): ScenarioRequest {
  return makeRequest(name, CHECK_SEEDS[0]);
}

/**
 * The experiment's range check: every point the engine lists (the defaults,
 * then each parameter at each end of its range) on seeds 1 to 5, one
 * comparison after the other. Run it with the experiment's request; the
 * points replace its parameters.
 */
export function useRangeCheck(experiment: ExperimentInfo | undefined): RangeCheckRunner {
  const job = useMemo<Job<RangeCheckResult>>(
    () => async (client, request, progress) => {
      if (!experiment || experiment.name !== request.name) throw new Error(`${request.name} is not an experiment with parameter ranges`);
      const rows: RangeRow[] = [];
      let done = 0;
      for (const { point, params } of experiment.ranges) {
        const results: Comparison[] = [];
        for (const seed of CHECK_SEEDS) {
          results.push(await client.compare(makeRequest(experiment.name, seed, paramRecord({ params }))));
          progress(++done);
        }
        rows.push(rangeRow(experiment, point, results));
      }
      return { experiment: experiment.name, rows };
    },
    [experiment],
  );
  return useWorkerJob(job);
}
