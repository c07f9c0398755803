// An experiment's comparison (every variant run to the end on one seed), and
// the check of its headlines over seeds 1 to 5 (what docs/experiments.md's
// "held for seeds 1-5" column says). Each runs in a worker of its own.
import type { Comparison } from './engine/pkg/reclaim_core';
import { useWorkerJob, type Job, type JobRunner, type JobState } from './engine/useWorkerJob';

export type ComparisonState = JobState<Comparison>;
export type ComparisonRunner = JobRunner<Comparison>;

const compareOnce: Job<Comparison> = (client, request) => client.compare(request);

export function useComparison(): ComparisonRunner {
  return useWorkerJob(compareOnce);
}

/** The seeds the experiments' documentation checks every headline on. */
export const CHECK_SEEDS = [1, 2, 3, 4, 5] as const;

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
