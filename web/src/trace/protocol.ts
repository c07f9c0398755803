// Messages between the trace page and its replay worker (worker.ts).
import type { ReplayOptions, ReplayProgress, ReplayReport } from '../engine/pkg/reclaim_core';

/** Page -> worker. */
export type TraceCommand =
  | { type: 'start'; id: number; file: Blob; options: ReplayOptions }
  | { type: 'cancel'; id: number };

/** Worker -> page; `id` is the start command's. */
export type TraceReply =
  | { type: 'progress'; id: number; bytesRead: number; totalBytes: number; progress: ReplayProgress }
  | { type: 'done'; id: number; report: ReplayReport; seconds: number }
  /** `fatal`: the wasm instance trapped (out of memory, say): the worker is gone. */
  | { type: 'error'; id: number; message: string; fatal: boolean }
  | { type: 'cancelled'; id: number };
