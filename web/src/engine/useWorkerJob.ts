// A job for workers of its own (one, or a pool for a long batch of runs):
// started on the first request, so the stepped engine stays responsive while
// the job takes its seconds. A new request supersedes the one in flight: its
// workers are stopped (the engine cannot be interrupted mid-call) and fresh
// ones take the request.
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
  /** What the running job has to show so far, if it shows anything before it is done. */
  partial: T | null;
}

export interface JobRunner<T> {
  state: JobState<T>;
  run(request: ScenarioRequest): void;
  /** Stops the job in flight (its worker with it) and forgets it: the state goes back to idle. */
  cancel(): void;
}

/**
 * The work: answers `request` with `clients` (as many as the hook was asked
 * for, at least one), calling `progress` with the parts done so far and,
 * if it has one, the answer so far.
 */
export type Job<T> = (clients: readonly EngineClient[], request: ScenarioRequest, progress: (done: number, partial?: T) => void) => Promise<T>;

const IDLE = { status: 'idle', request: null, result: null, error: null, progress: 0, partial: null } as const;

function dispose(clients: readonly EngineClient[]): void {
  for (const c of clients) c.dispose();
}

/**
 * `job` should be stable (a module-level function): a new one makes a new
 * `run`. `workers` is how many engine workers it gets (they start on the
 * first request and are kept for the next).
 */
export function useWorkerJob<T>(job: Job<T>, workers = 1): JobRunner<T> {
  const [state, setState] = useState<JobState<T>>(IDLE);
  const clientsRef = useRef<EngineClient[] | null>(null);
  const busyRef = useRef(false);
  const epochRef = useRef(0);

  useEffect(
    () => () => {
      epochRef.current++;
      dispose(clientsRef.current ?? []);
      clientsRef.current = null;
    },
    [],
  );

  /** Makes the job in flight stale (its answer is dropped) and stops its workers; returns the new epoch. */
  const supersede = useCallback(() => {
    if (busyRef.current && clientsRef.current) {
      dispose(clientsRef.current);
      clientsRef.current = null;
    }
    busyRef.current = false;
    return ++epochRef.current;
  }, []);

  const run = useCallback((asked: ScenarioRequest) => {
    const request = withoutVariant(asked);
    // A worker answers in order: a stale job would hold this one up. Stop it.
    const epoch = supersede();
    const clients = (clientsRef.current ??= Array.from({ length: Math.max(1, workers) }, () => EngineClient.start()));
    busyRef.current = true;
    setState((s) => ({ ...s, status: 'running', request, error: null, progress: 0, partial: null }));
    const progress = (done: number, partial?: T) => {
      if (epochRef.current === epoch) setState((s) => ({ ...s, progress: done, partial: partial ?? null }));
    };
    Promise.all(clients.map((c) => c.ready))
      .then(() => job(clients, request, progress))
      .then(
        (result) => {
          if (epochRef.current !== epoch) return;
          busyRef.current = false;
          setState({ status: 'done', request, result, error: null, progress: 0, partial: null });
        },
        (error: unknown) => {
          if (epochRef.current !== epoch) return;
          busyRef.current = false;
          // A worker that failed (to load, or mid-run) is no use for the next request either.
          if (clientsRef.current === clients) {
            dispose(clients);
            clientsRef.current = null;
          }
          setState((s) => ({ ...s, status: 'failed', request, error: errorMessage(error), progress: 0, partial: null }));
        },
      );
  }, [job, workers, supersede]);

  const cancel = useCallback(() => {
    supersede();
    setState(IDLE);
  }, [supersede]);

  return useMemo(() => ({ state, run, cancel }), [state, run, cancel]);
}
