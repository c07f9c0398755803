// The engine's Web Worker: loads the wasm module once, then answers the
// page's commands in order (see protocol.ts). All simulation state stays in
// here; only Frames (small view models) cross to the page.
import init, { Engine, compareExperiment, listScenarios } from './pkg/reclaim_core';
import { createEngineHost, errorMessage } from './host';
import { UNSOLICITED, type WorkerCommand, type WorkerControl, type WorkerReply } from './protocol';

// The DOM lib types `self` as a Window; this is the part of a dedicated worker's scope we use.
interface WorkerScope {
  postMessage(message: WorkerReply, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<WorkerCommand | WorkerControl>) => void): void;
}
const scope = self as unknown as WorkerScope;

const host = init().then(() => createEngineHost({ Engine, listScenarios, compareExperiment }));

host.then(
  (h) => scope.postMessage({ id: UNSOLICITED, type: 'ready', scenarios: h.scenarios() }),
  (error: unknown) =>
    scope.postMessage({ id: UNSOLICITED, type: 'error', message: `could not load the engine: ${errorMessage(error)}` }),
);

/**
 * A frame's tracked sample (four bytes a tracked page; 40 KB for ten
 * thousand) is moved to the page, not copied: its buffer is the frame's own.
 */
function transfers(reply: WorkerReply): Transferable[] {
  if (reply.type !== 'frame' && reply.type !== 'run') return [];
  const cells = reply.frame.tracked.cells;
  return cells.byteOffset === 0 && cells.byteLength === cells.buffer.byteLength ? [cells.buffer] : [];
}

// Commands are handled one after another, in arrival order, once the module
// is ready; a long seek or run gives way between its parts, so a stop for it
// is taken while it runs.
let queue: Promise<unknown> = host;
const stops = new Set<number>();
scope.addEventListener('message', (event) => {
  const message = event.data;
  if (message.type === 'stop') {
    stops.add(message.target);
    return;
  }
  const command = message;
  queue = queue
    .then(() => host)
    .then(
      async (h) => {
        const progress = (p: { done: number; total: number }) => scope.postMessage({ id: command.id, type: 'progress', ...p });
        const reply = await h.handleAsync(command, progress, () => stops.has(command.id));
        stops.delete(command.id);
        scope.postMessage(reply, transfers(reply));
      },
      (error: unknown) =>
        scope.postMessage({ id: command.id, type: 'error', message: `engine not loaded: ${errorMessage(error)}` }),
    );
});
