// The trace page's side of the replay worker: start a replay of a file,
// follow its progress, cancel it. The worker is created on the first start
// and replaced if it dies, so a crash ends one replay, not the page.
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ReplayOptions, ReplayProgress, ReplayReport } from '../engine/pkg/reclaim_core';
import type { TraceCommand, TraceReply } from './protocol';

export type ReplayState =
  | { phase: 'idle' }
  | { phase: 'running'; file: string; bytesRead: number; totalBytes: number; progress: ReplayProgress | null }
  | { phase: 'done'; file: string; report: ReplayReport; seconds: number }
  | { phase: 'failed'; file: string; message: string; progress: ReplayProgress | null }
  | { phase: 'cancelled'; file: string; progress: ReplayProgress | null };

export interface TraceReplayApi {
  state: ReplayState;
  start(file: File, options: ReplayOptions): void;
  cancel(): void;
}

function lastProgress(state: ReplayState): ReplayProgress | null {
  return state.phase === 'running' || state.phase === 'failed' || state.phase === 'cancelled' ? state.progress : null;
}

export function useTraceReplay(): TraceReplayApi {
  const [state, setState] = useState<ReplayState>({ phase: 'idle' });
  const workerRef = useRef<Worker | null>(null);
  const idRef = useRef(0);

  useEffect(
    () => () => {
      workerRef.current?.terminate();
      workerRef.current = null;
    },
    [],
  );

  const worker = useCallback((): Worker => {
    if (workerRef.current) return workerRef.current;
    const w = new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'reclaim-trace' });
    w.addEventListener('message', (event: MessageEvent<TraceReply>) => {
      const reply = event.data;
      if (reply.type === 'error' && reply.fatal) {
        w.terminate();
        if (workerRef.current === w) workerRef.current = null;
      }
      if (reply.id !== idRef.current) return;
      setState((s) => {
        const file = s.phase === 'idle' ? '' : s.file;
        switch (reply.type) {
          case 'progress':
            return { phase: 'running', file, bytesRead: reply.bytesRead, totalBytes: reply.totalBytes, progress: reply.progress };
          case 'done':
            return { phase: 'done', file, report: reply.report, seconds: reply.seconds };
          case 'error':
            return { phase: 'failed', file, message: reply.message, progress: lastProgress(s) };
          case 'cancelled':
            return { phase: 'cancelled', file, progress: lastProgress(s) };
        }
      });
    });
    w.addEventListener('error', (event) => {
      // The worker itself died (out of memory, say): say so, start afresh next time.
      event.preventDefault();
      w.terminate();
      workerRef.current = null;
      setState((s) => ({
        phase: 'failed',
        file: s.phase === 'idle' ? '' : s.file,
        message: `the replay stopped: ${event.message || 'the worker failed'}`,
        progress: lastProgress(s),
      }));
    });
    workerRef.current = w;
    return w;
  }, []);

  const start = useCallback(
    (file: File, options: ReplayOptions) => {
      idRef.current += 1;
      const command: TraceCommand = { type: 'start', id: idRef.current, file, options };
      setState({ phase: 'running', file: file.name, bytesRead: 0, totalBytes: file.size, progress: null });
      worker().postMessage(command);
    },
    [worker],
  );

  const cancel = useCallback(() => {
    const w = workerRef.current;
    if (!w) return;
    const command: TraceCommand = { type: 'cancel', id: idRef.current };
    w.postMessage(command);
  }, []);

  return { state, start, cancel };
}
