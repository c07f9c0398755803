// A typed, promise-based client for the engine worker. One command is one
// promise; replies are matched by id. The worker answers in order, so
// callers can fire commands without waiting (e.g. several clicks on "Step
// forward") and still see every frame in step order.
import type { Comparison, FolioHistory, Frame, ScenarioList, ScenarioRequest } from './pkg/reclaim_core';
import { UNSOLICITED, type CommandBody, type Progress, type WorkerCommand, type WorkerControl, type WorkerReply } from './protocol';

/** The part of `Worker` the client uses (a fake one in tests). */
export interface WorkerLike {
  postMessage(message: WorkerCommand | WorkerControl): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<WorkerReply>) => void): void;
  addEventListener(type: 'error', listener: (event: ErrorEvent) => void): void;
  terminate(): void;
}

/** An error reported by the engine (bad scenario, bad parameter, crash) or by the worker. */
export class EngineError extends Error {
  override name = 'EngineError';
}

/** The replies that answer a command (every kind but `ready`, `error` and `progress`). */
type Answer = Exclude<WorkerReply, { type: 'ready' | 'error' | 'progress' }>;
type AnswerType = Answer['type'];

/** What a run to the next event of a kind found, and the frame it stopped at. */
export interface RunResult {
  frame: Frame;
  /** Whether the last step had an event of the kind (else the run stopped at its limit). */
  found: boolean;
  steps: number;
}

interface Pending {
  /** The reply type this command expects. */
  expects: AnswerType;
  resolve(reply: Answer): void;
  reject(error: EngineError): void;
  onProgress?: (progress: Progress) => void;
}

export class EngineClient {
  /** Resolves with the built-in scenarios once the wasm module has loaded in the worker. */
  readonly ready: Promise<ScenarioList>;
  private nextId = UNSOLICITED + 1;
  private readonly pending = new Map<number, Pending>();
  private failure: EngineError | null = null;
  private settleReady!: { resolve(list: ScenarioList): void; reject(error: EngineError): void };

  /** Starts the engine in a new module worker. */
  static start(): EngineClient {
    return new EngineClient(new Worker(new URL('./worker.ts', import.meta.url), { type: 'module', name: 'reclaim-engine' }));
  }

  constructor(private readonly worker: WorkerLike) {
    this.ready = new Promise<ScenarioList>((resolve, reject) => {
      this.settleReady = { resolve, reject };
    });
    // Nobody may be waiting on `ready` when it fails; the failure is also reported to every command.
    this.ready.catch(() => {});
    worker.addEventListener('message', (event) => this.receive(event.data));
    worker.addEventListener('error', (event) => {
      event.preventDefault?.();
      this.fail(new EngineError(`the engine worker failed: ${event.message || 'it could not be started'}`));
    });
  }

  init(request: ScenarioRequest): Promise<Frame> {
    return this.frame({ type: 'init', request });
  }

  step(n: number): Promise<Frame> {
    return this.frame({ type: 'step', n });
  }

  reset(): Promise<Frame> {
    return this.frame({ type: 'reset' });
  }

  /**
   * Goes to exactly `step` (forwards or back); the frame's kswapd transitions
   * cover the steps since `since` (default: the whole move forwards, the
   * last step back). A long move reports progress.
   */
  seek(step: number, since?: number, onProgress?: (progress: Progress) => void): Promise<Frame> {
    return this.send({ type: 'seek', step, ...(since === undefined ? {} : { since }) }, 'frame', onProgress).then((r) => r.frame);
  }

  /** Goes back one step (transitions since `since`, default its last step). */
  stepBack(since?: number): Promise<Frame> {
    return this.frame({ type: 'stepBack', ...(since === undefined ? {} : { since }) });
  }

  /** Steps until a step has an event of `kind`, at most `maxSteps` steps, reporting progress. */
  runUntil(kind: string, maxSteps: number, since?: number, onProgress?: (progress: Progress) => void): Promise<RunResult> {
    const command: CommandBody = { type: 'runUntil', kind, maxSteps, ...(since === undefined ? {} : { since }) };
    return this.send(command, 'run', onProgress).then(({ frame, found, steps }) => ({ frame, found, steps }));
  }

  /** The recorded decisions about a tracked page, oldest first (after every command sent before it). */
  history(page: string): Promise<FolioHistory> {
    return this.send({ type: 'history', page }, 'history').then((reply) => reply.history);
  }

  /**
   * Every variant of an experiment run to the end on the request's seed (the
   * variant is ignored); with `headlinesOnly`, only `after` and the
   * headlines' baselines (what a range check reads).
   */
  compare(request: ScenarioRequest, { headlinesOnly = false }: { headlinesOnly?: boolean } = {}): Promise<Comparison> {
    return this.send({ type: 'compare', request, ...(headlinesOnly ? { headlinesOnly } : {}) }, 'comparison').then((reply) => reply.comparison);
  }

  /**
   * Stops every long seek and run sent so far (those that report progress)
   * where it has got to: each still settles, a seek with the frame of the
   * step it reached, a run with `found` false. Other commands are not touched.
   */
  stopLong(): void {
    for (const [id, pending] of this.pending) {
      if (pending.onProgress) this.worker.postMessage({ type: 'stop', target: id });
    }
  }

  /** Stops the worker; pending and later commands are rejected. */
  dispose(): void {
    this.fail(new EngineError('the engine was stopped'));
    this.worker.terminate();
  }

  private frame(command: CommandBody): Promise<Frame> {
    return this.send(command, 'frame').then((reply) => reply.frame);
  }

  private send<T extends AnswerType>(
    command: CommandBody,
    expects: T,
    onProgress?: (progress: Progress) => void,
  ): Promise<Extract<Answer, { type: T }>> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId++;
    return new Promise<Extract<Answer, { type: T }>>((resolve, reject) => {
      this.pending.set(id, { expects, resolve: resolve as (reply: Answer) => void, reject, onProgress });
      this.worker.postMessage({ ...command, id } as WorkerCommand);
    });
  }

  private receive(reply: WorkerReply): void {
    if (reply.id === UNSOLICITED) {
      if (reply.type === 'ready') this.settleReady.resolve(reply.scenarios);
      else if (reply.type === 'error') this.fail(new EngineError(reply.message));
      return;
    }
    const pending = this.pending.get(reply.id);
    if (!pending) return;
    if (reply.type === 'progress') {
      pending.onProgress?.({ done: reply.done, total: reply.total });
      return;
    }
    this.pending.delete(reply.id);
    if (reply.type === 'error') pending.reject(new EngineError(reply.message));
    else if (reply.type === pending.expects) pending.resolve(reply as Answer);
    else pending.reject(new EngineError(`unexpected reply ${reply.type} to command ${reply.id}`));
  }

  private fail(error: EngineError): void {
    if (this.failure) return;
    this.failure = error;
    this.settleReady.reject(error);
    for (const pending of this.pending.values()) pending.reject(error);
    this.pending.clear();
  }
}
