// A trace replay over a stream of chunks, apart from the worker global so
// that it runs (and is tested) under Node against the same wasm module.
import type { ReplayOptions, ReplayProgress, ReplayReport } from '../engine/pkg/reclaim_core';

/** What the replay needs of the wasm bindings (the generated `TraceReplay` class). */
export interface ReplayBindings {
  TraceReplay: new (options: ReplayOptions) => ReplayHandle;
}

export interface ReplayHandle {
  push(chunk: Uint8Array): void;
  progress(): ReplayProgress;
  finish(): ReplayReport;
  free(): void;
}

export interface ReplayHooks {
  /** Called at most every `progressMs` (and not after the last chunk). */
  onProgress?(progress: ReplayProgress, bytesRead: number): void;
  /** Checked between chunks: true stops the replay (it then returns null). */
  cancelled?(): boolean;
  progressMs?: number;
}

/** Chunks pushed at a time: the stream's own, joined up to this size. */
export const PUSH_BYTES = 1 << 20;

/** How often at most a replay lets the worker's other messages in, ms. */
const YIELD_MS = 50;

/**
 * Replays the chunks of `source` with the given options. Returns the final
 * report, or null when cancelled; a malformed trace rejects with the
 * engine's message (naming the line or the byte offset).
 */
export async function replayChunks(
  bindings: ReplayBindings,
  source: AsyncIterable<Uint8Array>,
  options: ReplayOptions,
  hooks: ReplayHooks = {},
): Promise<ReplayReport | null> {
  const replay = new bindings.TraceReplay(options);
  const progressMs = hooks.progressMs ?? 100;
  let last = performance.now();
  let yielded = last;
  let bytesRead = 0;
  try {
    for await (const chunk of source) {
      // A stream whose chunks are buffered already resolves its reads as microtasks, and a
      // worker's messages (a cancel) wait for a task: give them one now and then.
      if (hooks.cancelled && performance.now() - yielded >= YIELD_MS) {
        await new Promise((resume) => setTimeout(resume, 0));
        yielded = performance.now();
      }
      if (hooks.cancelled?.()) return null;
      for (let at = 0; at < chunk.length; at += PUSH_BYTES) {
        const part = chunk.subarray(at, Math.min(chunk.length, at + PUSH_BYTES));
        replay.push(part);
        bytesRead += part.length;
      }
      const now = performance.now();
      if (hooks.onProgress && now - last >= progressMs) {
        last = now;
        hooks.onProgress(replay.progress(), bytesRead);
      }
    }
    if (hooks.cancelled?.()) return null;
    return replay.finish();
  } finally {
    try {
      replay.free();
    } catch {
      // The instance trapped: the error that got us here is the one to report.
    }
  }
}

/** The chunks of a Blob (a File), read as a stream: constant memory. */
export async function* blobChunks(blob: Blob): AsyncGenerator<Uint8Array> {
  const reader = blob.stream().getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}
