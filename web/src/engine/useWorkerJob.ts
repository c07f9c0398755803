// A job for a worker of its own: started on the first request, so the
// stepped engine stays responsive while the job takes its seconds. A new
// request supersedes the one in flight: that worker is stopped (the engine
// cannot be interrupted mid-call) and a fresh one takes the request.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { EngineClient } from './client';
import { errorMessage } from './host';
import type { ScenarioRequest } from './pkg/reclaim_core';
import { withoutVariant } from '../scenario/params';

export interface JobState<T> {
  /** idle: never asked; running: `request` is being worked on; done: `result` is its answer; failed: `error` says why. */
  status: 'idle' | 'running' | 'done' | 'failed';
  /** The last request asked for (without a variant). */
  request: ScenarioRequest | null;
  /** The last result that finished (kept while a newer one runs). */
  result: T | null;
  error: string | null;
  /** How many parts of the running job are done (a job of one part leaves it at 0). */
  progress: number;
}

export interface JobRunner<T> {
  state: JobState<T>;
  run(request: ScenarioRequest): void;
  /** Stops the job in flight (its worker with it) and forgets it: the state goes back to idle. */
  cancel(): void;
}

/** The work: answers `request` with `client`, calling `progress` with the parts done so far. */
export type Job<T> = (client: EngineClient, request: ScenarioRequest, progress: (done: number) => void) => Promise<T>;

/** `job` should be stable (a module-level function): a new one makes a new `run`. */
export function useWorkerJob<T>(job: Job<T>): JobRunner<T> {
  const [state, setState] = useState<JobState<T>>({ status: 'idle', request: null, result: null, error: null, progress: 0 });
  const clientRef = useRef<EngineClient | null>(null);
  const busyRef = useRef(false);
  const epochRef = useRef(0);

  useEffect(
    () => () => {
      epochRef.current++;
      clientRef.current?.dispose();
      clientRef.current = null;
    },
    [],
  );

  /** Makes the job in flight stale (its answer is dropped) and stops its worker; returns the new epoch. */
  const supersede = useCallback(() => {
    if (busyRef.current && clientRef.current) {
      clientRef.current.dispose();
      clientRef.current = null;
    }
    busyRef.current = false;
    return ++epochRef.current;
  }, []);

  const run = useCallback((asked: ScenarioRequest) => {
    const request = withoutVariant(asked);
    // The worker answers in order: a stale job would hold this one up. Stop it.
    const epoch = supersede();
    const client = (clientRef.current ??= EngineClient.start());
    busyRef.current = true;
    setState((s) => ({ ...s, status: 'running', request, error: null, progress: 0 }));
    const progress = (done: number) => {
      if (epochRef.current === epoch) setState((s) => ({ ...s, progress: done }));
    };
    client.ready
      .then(() => job(client, request, progress))
      .then(
        (result) => {
          if (epochRef.current !== epoch) return;
          busyRef.current = false;
          setState({ status: 'done', request, result, error: null, progress: 0 });
        },
        (error: unknown) => {
          if (epochRef.current !== epoch) return;
          busyRef.current = false;
          // A worker that failed to load is no use for the next request either.
          if (clientRef.current === client) {
            client.dispose();
            clientRef.current = null;
          }
          setState((s) => ({ ...s, status: 'failed', request, error: errorMessage(error), progress: 0 }));
        },
      );
  }, [job, supersede]);

  const cancel = useCallback(() => {
    supersede();
    setState({ status: 'idle', request: null, result: null, error: null, progress: 0 });
  }, [supersede]);

  return useMemo(() => ({ state, run, cancel }), [state, run, cancel]);
}
