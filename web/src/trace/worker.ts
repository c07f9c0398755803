// The trace replay's Web Worker: loads the wasm module, reads the chosen
// file as a stream and pushes it through the engine's TraceReplay,
// posting progress (at most every 100 ms) and the report. One replay at a
// time; a new start or a cancel stops the one running between chunks.
import init, { TraceReplay } from '../engine/pkg/reclaim_core';
import { errorMessage } from '../engine/host';
import type { TraceCommand, TraceReply } from './protocol';
import { blobChunks, replayChunks } from './replay';

interface WorkerScope {
  postMessage(message: TraceReply): void;
  close(): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<TraceCommand>) => void): void;
}
const scope = self as unknown as WorkerScope;
const ready = init();
/** The id of the replay that may run (0: none); others stop at their next chunk. */
let current = 0;

scope.addEventListener('message', (event) => {
  const command = event.data;
  if (command.type === 'cancel') {
    // The replay it names (the page's current one) stops at its next chunk, if it is still running.
    if (current === command.id) current = 0;
    return;
  }
  current = command.id;
  const { id, file, options } = command;
  const began = performance.now();
  ready
    .then(() =>
      replayChunks({ TraceReplay }, blobChunks(file), options, {
        cancelled: () => current !== id,
        onProgress: (progress, bytesRead) => scope.postMessage({ type: 'progress', id, bytesRead, totalBytes: file.size, progress }),
      }),
    )
    .then(
      (report) =>
        scope.postMessage(report ? { type: 'done', id, report, seconds: (performance.now() - began) / 1000 } : { type: 'cancelled', id }),
      (error: unknown) => {
        // A trap leaves the wasm instance unusable: say so and end this worker
        // (the page starts a new one for the next replay).
        const fatal = error instanceof WebAssembly.RuntimeError;
        const message = fatal
          ? `the engine stopped (${errorMessage(error)}): most likely out of memory; try a smaller cache or fewer policies`
          : errorMessage(error);
        scope.postMessage({ type: 'error', id, message, fatal });
        if (fatal) scope.close();
      },
    );
});
