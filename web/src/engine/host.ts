// The engine side of the worker protocol, apart from the worker global so it
// can run (and be tested) under Node against the same wasm module. One host
// owns at most one Engine; replacing or resetting it frees the old one.
import type { Comparison, FolioHistory, Frame, RunUntilView, ScenarioList, ScenarioRequest } from './pkg/reclaim_core';
import { makeParams, paramEntries } from '../scenario/params';
import { MAX_SEEK_STEP, MAX_STEPS_PER_COMMAND, type Progress, type WorkerCommand, type WorkerReply } from './protocol';

/** What the host needs from the wasm bindings (the generated `Engine` class, `listScenarios` and `compareExperiment`). */
export interface EngineBindings {
  Engine: new (request: ScenarioRequest) => EngineHandle;
  listScenarios(): ScenarioList;
  compareExperiment(request: ScenarioRequest, headlinesOnly?: boolean): Comparison;
}

export interface EngineHandle {
  step(n: number): Frame;
  frame(): Frame;
  history(page: string): FolioHistory;
  seek(step: number, since: number): Frame;
  moveTo(step: number): void;
  stepBack(): Frame;
  runUntil(kind: string, maxSteps: number): RunUntilView;
  frameSince(since: number): Frame;
  stepCount(): number;
  free(): void;
}

export interface EngineHost {
  scenarios(): ScenarioList;
  /** The reply to a command; a long seek or run reports `onProgress` on the way. */
  handle(command: WorkerCommand, onProgress?: (progress: Progress) => void): WorkerReply;
  /**
   * As `handle`, but a long seek or run gives way to the event loop between
   * its parts (so the worker can take a stop message) and ends where it has
   * got to once `stopped()` says so: a seek with that step's frame, a run
   * with `found` false.
   */
  handleAsync(command: WorkerCommand, onProgress: (progress: Progress) => void, stopped: () => boolean): Promise<WorkerReply>;
}

/** A reply to a command, before the host gives it the command's id. */
type ReplyBody =
  | { type: 'frame'; frame: Frame }
  | { type: 'run'; frame: Frame; found: boolean; steps: number }
  | { type: 'history'; history: FolioHistory }
  | { type: 'comparison'; comparison: Comparison };

/** Wall time each part of a long seek or run aims at, so that progress comes often. */
const PART_MS = 100;
/** A long command's first part, in steps (then sized by how long it took). */
const FIRST_PART_STEPS = 32;

/**
 * A long command's work: it yields its progress after each part, and the
 * value sent back says whether to stop there.
 */
type Work<T> = Generator<Progress, T, boolean>;

/**
 * Does `total` steps of work in parts of about PART_MS each, yielding
 * progress between them; `part(n)` does n steps and returns true when the
 * work is done early. Returns true when it was told to stop.
 */
function* inParts(total: number, part: (n: number) => boolean): Work<boolean> {
  let done = 0;
  let size = FIRST_PART_STEPS;
  while (done < total) {
    const n = Math.min(size, total - done);
    const began = performance.now();
    if (part(n)) return false;
    done += n;
    if (done < total && (yield { done, total })) return true;
    const ms = Math.max(1, performance.now() - began);
    size = Math.max(1, Math.min(n * 4, Math.round((n * PART_MS) / ms)));
  }
  return false;
}

/** Runs work to its end, reporting its progress. */
function finish<T>(work: Work<T>, onProgress?: (progress: Progress) => void): T {
  for (let r = work.next(false); ; r = work.next(false)) {
    if (r.done) return r.value;
    onProgress?.(r.value);
  }
}

/** Gives way to the event loop (the worker's messages) between two parts of work. */
const giveWay = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** Runs work, giving way between its parts, and tells it to stop once `stopped()` says so. */
async function finishAsync<T>(work: Work<T>, onProgress: (progress: Progress) => void, stopped: () => boolean): Promise<T> {
  for (let r = work.next(false); ; ) {
    if (r.done) return r.value;
    onProgress(r.value);
    await giveWay();
    r = work.next(stopped());
  }
}

/** A step number from a command: a whole number from 0 to MAX_SEEK_STEP. */
function stepArg(what: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0 || value > MAX_SEEK_STEP) {
    throw new Error(`${what} must be a whole number from 0 to ${MAX_SEEK_STEP}, got ${String(value)}`);
  }
  return value;
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'string') return error;
  return String(error);
}

/** A copy of a request (its params rebuilt in the generated type), so later changes to the original do not reach us. */
function ownCopy(request: ScenarioRequest): ScenarioRequest {
  const own: ScenarioRequest = { name: request.name, seed: request.seed, params: makeParams(paramEntries(request)) };
  if (request.variant !== undefined) own.variant = request.variant;
  return own;
}

export function createEngineHost(bindings: EngineBindings): EngineHost {
  let engine: EngineHandle | null = null;
  let request: ScenarioRequest | null = null;

  const replace = (next: ScenarioRequest): Frame => {
    engine?.free();
    engine = null;
    request = null;
    // A copy: the request we keep for reset must not change under us.
    const own = ownCopy(next);
    engine = new bindings.Engine(own);
    request = own;
    return engine.frame();
  };

  /** What to report for an error from the engine: a trap (a Rust panic under panic=abort) leaves the instance unusable. */
  const trapped = (error: unknown): unknown => {
    if (!(error instanceof WebAssembly.RuntimeError)) return error;
    engine = null;
    return new Error(`the engine crashed (${error.message}); reset or change the scenario`);
  };

  /** Calls into the engine, reporting a trap as `trapped` does. */
  const guard = <T,>(handle: EngineHandle, call: (e: EngineHandle) => T): T => {
    try {
      return call(handle);
    } catch (error) {
      throw trapped(error);
    }
  };

  const history = (page: unknown): FolioHistory => {
    if (!engine) throw new Error('history before any scenario was started');
    if (typeof page !== 'string' || page.length === 0) throw new Error(`history: page must be a page name, got ${String(page)}`);
    return guard(engine, (e) => e.history(page));
  };

  /** Every variant of an experiment (or the headlines' only), run to the end on fresh engines; the stepped engine is not touched. */
  const compare = (next: ScenarioRequest, headlinesOnly: boolean): Comparison => {
    const own = ownCopy(next);
    delete own.variant;
    try {
      return bindings.compareExperiment(own, headlinesOnly);
    } catch (error) {
      if (error instanceof WebAssembly.RuntimeError) {
        engine = null;
        throw new Error(`the engine crashed while comparing (${error.message}); reset or change the scenario`);
      }
      throw error;
    }
  };

  /** Goes to exactly `target` (or, told to stop, to where it got); a long move forwards in parts. */
  function* seek(e: EngineHandle, target: number, since: number | undefined, long: boolean): Work<Frame> {
    const start = e.stepCount();
    const transitionsSince = since ?? (target > start ? start : Math.max(0, target - 1));
    let to = target;
    if (long && target - start > FIRST_PART_STEPS) {
      const part = (n: number) => {
        e.moveTo(e.stepCount() + n);
        return false;
      };
      if (yield* inParts(target - start, part)) to = e.stepCount();
    }
    return e.seek(to, transitionsSince);
  }

  const stepBack = (e: EngineHandle, since: number | undefined): Frame => {
    const current = e.stepCount();
    if (current === 0) throw new Error('step back: already at step 0');
    return since === undefined ? e.stepBack() : e.seek(current - 1, since);
  };

  /** Steps until an event of `kind`, at most `maxSteps` (or until told to stop); a long run in parts. */
  function* runUntil(command: Extract<WorkerCommand, { type: 'runUntil' }>, long: boolean): Work<ReplyBody> {
    if (!engine) throw new Error('runUntil before any scenario was started');
    const { kind, maxSteps } = command;
    if (typeof kind !== 'string') throw new Error(`runUntil: kind must be an event kind, got ${String(kind)}`);
    if (!Number.isInteger(maxSteps) || maxSteps < 1 || maxSteps > MAX_STEPS_PER_COMMAND) {
      throw new Error(`runUntil: maxSteps must be a whole number from 1 to ${MAX_STEPS_PER_COMMAND}, got ${maxSteps}`);
    }
    const since = command.since === undefined ? undefined : stepArg('runUntil: since', command.since);
    const e = engine;
    const start = e.stepCount();
    let found = false;
    const part = (n: number) => (found = e.runUntil(kind, n).found);
    if (long) yield* inParts(maxSteps, part);
    else part(maxSteps);
    return { type: 'run', frame: e.frameSince(since ?? start), found, steps: e.stepCount() - start };
  }

  const runFrame = (command: Exclude<WorkerCommand, { type: 'history' | 'compare' | 'runUntil' | 'seek' }>): Frame => {
    switch (command.type) {
      case 'init':
        return replace(command.request);
      case 'reset':
        if (!request) throw new Error('reset before any scenario was started');
        return replace(request);
      case 'step': {
        if (!engine) throw new Error('step before any scenario was started');
        const n = command.n;
        if (!Number.isInteger(n) || n < 1 || n > MAX_STEPS_PER_COMMAND) {
          throw new Error(`step: n must be a whole number from 1 to ${MAX_STEPS_PER_COMMAND}, got ${n}`);
        }
        return guard(engine, (e) => e.step(n));
      }
      case 'stepBack': {
        if (!engine) throw new Error('stepBack before any scenario was started');
        const since = command.since === undefined ? undefined : stepArg('stepBack: since', command.since);
        return guard(engine, (e) => stepBack(e, since));
      }
    }
  };

  /** A seek as work: exactly to its step, or (told to stop) to where it got. */
  function* seekWork(command: Extract<WorkerCommand, { type: 'seek' }>, long: boolean): Work<ReplyBody> {
    if (!engine) throw new Error('seek before any scenario was started');
    const target = stepArg('seek: step', command.step);
    const since = command.since === undefined ? undefined : stepArg('seek: since', command.since);
    return { type: 'frame', frame: yield* seek(engine, target, since, long) };
  }

  /**
   * The reply to one command (without its id) as work: a long seek or run
   * (`long`: one that reports progress) in parts; the others at once.
   * Throws on a bad command or an engine error.
   */
  function* work(command: WorkerCommand, long: boolean): Work<ReplyBody> {
    switch (command.type) {
      case 'history':
        return { type: 'history', history: history(command.page) };
      case 'compare':
        return { type: 'comparison', comparison: compare(command.request, command.headlinesOnly === true) };
      case 'runUntil':
      case 'seek':
        // The engine is called across the parts: a trap is caught around them all, as guard does for one call.
        try {
          return yield* command.type === 'seek' ? seekWork(command, long) : runUntil(command, long);
        } catch (error) {
          throw trapped(error);
        }
      default:
        return { type: 'frame', frame: runFrame(command) };
    }
  }

  return {
    scenarios: () => bindings.listScenarios(),
    handle(command, onProgress) {
      try {
        return { id: command.id, ...finish(work(command, onProgress !== undefined), onProgress) };
      } catch (error) {
        return { id: command.id, type: 'error', message: errorMessage(error) };
      }
    },
    async handleAsync(command, onProgress, stopped) {
      try {
        return { id: command.id, ...(await finishAsync(work(command, true), onProgress, stopped)) };
      } catch (error) {
        return { id: command.id, type: 'error', message: errorMessage(error) };
      }
    },
  };
}
