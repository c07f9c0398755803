// The engine side of the worker protocol, apart from the worker global so it
// can run (and be tested) under Node against the same wasm module. One host
// owns at most one Engine; replacing or resetting it frees the old one.
import type { Comparison, FolioHistory, Frame, ScenarioList, ScenarioRequest } from './pkg/reclaim_core';
import { makeParams, paramEntries } from '../scenario/params';
import { MAX_STEPS_PER_COMMAND, type WorkerCommand, type WorkerReply } from './protocol';

/** What the host needs from the wasm bindings (the generated `Engine` class, `listScenarios` and `compareExperiment`). */
export interface EngineBindings {
  Engine: new (request: ScenarioRequest) => EngineHandle;
  listScenarios(): ScenarioList;
  compareExperiment(request: ScenarioRequest): Comparison;
}

export interface EngineHandle {
  step(n: number): Frame;
  frame(): Frame;
  history(page: string): FolioHistory;
  free(): void;
}

export interface EngineHost {
  scenarios(): ScenarioList;
  handle(command: WorkerCommand): WorkerReply;
}

/** A reply to a command, before the host gives it the command's id. */
type ReplyBody =
  | { type: 'frame'; frame: Frame }
  | { type: 'history'; history: FolioHistory }
  | { type: 'comparison'; comparison: Comparison };

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

  /** Calls into the engine; a trap (a Rust panic under panic=abort) leaves the instance unusable. */
  const guard = <T,>(handle: EngineHandle, call: (e: EngineHandle) => T): T => {
    try {
      return call(handle);
    } catch (error) {
      if (error instanceof WebAssembly.RuntimeError) {
        engine = null;
        throw new Error(`the engine crashed (${error.message}); reset or change the scenario`);
      }
      throw error;
    }
  };

  const history = (page: unknown): FolioHistory => {
    if (!engine) throw new Error('history before any scenario was started');
    if (typeof page !== 'string' || page.length === 0) throw new Error(`history: page must be a page name, got ${String(page)}`);
    return guard(engine, (e) => e.history(page));
  };

  /** Every variant of an experiment, run to the end on fresh engines; the stepped engine is not touched. */
  const compare = (next: ScenarioRequest): Comparison => {
    const own = ownCopy(next);
    delete own.variant;
    try {
      return bindings.compareExperiment(own);
    } catch (error) {
      if (error instanceof WebAssembly.RuntimeError) {
        engine = null;
        throw new Error(`the engine crashed while comparing (${error.message}); reset or change the scenario`);
      }
      throw error;
    }
  };

  const runFrame = (command: Exclude<WorkerCommand, { type: 'history' | 'compare' }>): Frame => {
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
    }
  };

  /** The reply to one command (without its id); throws on a bad command or an engine error. */
  const run = (command: WorkerCommand): ReplyBody => {
    switch (command.type) {
      case 'history':
        return { type: 'history', history: history(command.page) };
      case 'compare':
        return { type: 'comparison', comparison: compare(command.request) };
      default:
        return { type: 'frame', frame: runFrame(command) };
    }
  };

  return {
    scenarios: () => bindings.listScenarios(),
    handle(command) {
      try {
        return { id: command.id, ...run(command) };
      } catch (error) {
        return { id: command.id, type: 'error', message: errorMessage(error) };
      }
    },
  };
}
