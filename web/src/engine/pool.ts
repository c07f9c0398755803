// Many independent engine runs over a few workers: each worker takes the
// next task as soon as it is free, so a long run on one does not hold up the
// other. Results come back in the tasks' order whatever order they finish
// in; the engine is deterministic, so which worker ran a task does not
// change its answer.

/** How many workers a long batch of runs gets: one per core, at most `max` (no core is kept for the stepped engine, which idles while a check runs). */
export function poolSize(cores: number | undefined, max = 4): number {
  return Math.max(1, Math.min(max, Math.floor(cores ?? 1) || 1));
}

/**
 * Runs `run(worker, task)` for every task, at most one task per worker at a
 * time, taking tasks in order. `done` is called after each task finishes
 * with the results so far (by task index; unfinished ones are undefined) and
 * how many have finished. The first failure rejects the whole batch, and no
 * further task is started.
 */
export async function runPooled<W, T, R>(
  workers: readonly W[],
  tasks: readonly T[],
  run: (worker: W, task: T) => Promise<R>,
  done: (results: readonly (R | undefined)[], finished: number) => void = () => {},
): Promise<R[]> {
  if (workers.length === 0) throw new Error('runPooled needs at least one worker');
  const results = new Array<R | undefined>(tasks.length).fill(undefined);
  let next = 0;
  let finished = 0;
  let failed = false;
  const drain = async (worker: W) => {
    while (!failed && next < tasks.length) {
      const i = next++;
      try {
        results[i] = await run(worker, tasks[i] as T);
      } catch (error) {
        failed = true;
        throw error;
      }
      done(results, ++finished);
    }
  };
  await Promise.all(workers.map(drain));
  return results as R[];
}
