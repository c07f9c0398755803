// An experiment's comparison (every variant run to the end on one seed). It
// runs in a worker of its own, started on the first request, so the stepped
// engine stays responsive while a comparison takes its second or three. A
// new request supersedes the one in flight: that worker is stopped (the
// engine cannot be interrupted mid-call) and a fresh one takes the request.
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { EngineClient } from './engine/client';
import { errorMessage } from './engine/host';
import type { Comparison, ScenarioRequest } from './engine/pkg/reclaim_core';
import { withoutVariant } from './scenario/params';

export interface ComparisonState {
  /** idle: never asked; running: `request` is being compared; done: `result` is its answer; failed: `error` says why. */
  status: 'idle' | 'running' | 'done' | 'failed';
  /** The last request asked for (without a variant). */
  request: ScenarioRequest | null;
  /** The last comparison that finished (kept while a newer one runs). */
  result: Comparison | null;
  error: string | null;
}

export interface ComparisonRunner {
  state: ComparisonState;
  run(request: ScenarioRequest): void;
}

const IDLE: ComparisonState = { status: 'idle', request: null, result: null, error: null };

export function useComparison(): ComparisonRunner {
  const [state, setState] = useState<ComparisonState>(IDLE);
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

  const run = useCallback((asked: ScenarioRequest) => {
    const request = withoutVariant(asked);
    const epoch = ++epochRef.current;
    // The worker answers in order: a stale comparison would hold this one up. Stop it.
    if (busyRef.current && clientRef.current) {
      clientRef.current.dispose();
      clientRef.current = null;
    }
    const client = (clientRef.current ??= EngineClient.start());
    busyRef.current = true;
    setState((s) => ({ ...s, status: 'running', request, error: null }));
    client.ready
      .then(() => client.compare(request))
      .then(
        (result) => {
          if (epochRef.current !== epoch) return;
          busyRef.current = false;
          setState({ status: 'done', request, result, error: null });
        },
        (error: unknown) => {
          if (epochRef.current !== epoch) return;
          busyRef.current = false;
          // A worker that failed to load is no use for the next request either.
          if (clientRef.current === client) {
            client.dispose();
            clientRef.current = null;
          }
          setState((s) => ({ ...s, status: 'failed', request, error: errorMessage(error) }));
        },
      );
  }, []);

  return useMemo(() => ({ state, run }), [state, run]);
}
