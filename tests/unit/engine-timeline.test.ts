// The worker host's timeline commands (seek, stepBack, runUntil) against the
// real engine (the wasm-pack build in web/src/engine/pkg): going back gives
// exactly the frames stepping forward gave, long moves report progress, runs
// stop at the first event of their kind, and bad commands are errors.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import init, { Engine, compareExperiment, listScenarios } from '../../web/src/engine/pkg/reclaim_core';
import type { Frame, ScenarioList, ScenarioRequest } from '../../web/src/engine/pkg/reclaim_core';
import { createEngineHost, type EngineHost } from '../../web/src/engine/host';
import { RUN_KINDS, type CommandBody, type Progress, type WorkerCommand, type WorkerReply } from '../../web/src/engine/protocol';
import { makeRequest } from '../../web/src/scenario/params';
import { defaultRequest } from '../../web/src/scenario/presets';

const WASM = new URL('../../web/src/engine/pkg/reclaim_core_bg.wasm', import.meta.url);

let scenarios: ScenarioList;
let nextId = 1;

beforeAll(async () => {
  await init({ module_or_path: readFileSync(WASM) });
  scenarios = listScenarios();
});

/** mglru-basic, light: a uniform reader over a file 4x the limit and a small heap. */
const LIGHT: ScenarioRequest = makeRequest('mglru-basic', 1, { reader_pattern: 1, file_pages: 8192, anon_pages: 256, anon_rate: 1000 });

function started(request: ScenarioRequest): EngineHost {
  const host = createEngineHost({ Engine, listScenarios, compareExperiment });
  reply(host, { type: 'init', request });
  return host;
}

function reply(host: EngineHost, command: CommandBody, progress?: Progress[]): WorkerReply {
  return host.handle({ ...command, id: nextId++ } as WorkerCommand, progress && ((p) => progress.push(p)));
}

function frameOf(host: EngineHost, command: CommandBody, progress?: Progress[]): Frame {
  const r = reply(host, command, progress);
  if (r.type !== 'frame') throw new Error(`expected a frame, got ${JSON.stringify(r).slice(0, 300)}`);
  return r.frame;
}

function errorOf(host: EngineHost, command: CommandBody): string {
  const r = reply(host, command);
  if (r.type !== 'error') throw new Error(`expected an error, got ${r.type}`);
  return r.message;
}

function runOf(host: EngineHost, command: CommandBody, progress?: Progress[]) {
  const r = reply(host, command, progress);
  if (r.type !== 'run') throw new Error(`expected a run, got ${JSON.stringify(r).slice(0, 300)}`);
  return r;
}

/** The frames after each of steps 0..n, one step at a time. */
function forward(request: ScenarioRequest, n: number): Frame[] {
  const host = started(request);
  const frames = [frameOf(host, { type: 'seek', step: 0 })];
  for (let i = 0; i < n; i++) frames.push(frameOf(host, { type: 'step', n: 1 }));
  return frames;
}

describe('seek and step back', () => {
  for (const name of ['mglru-basic', 'global-pressure']) {
    it(`give exactly the frames of stepping forward (${name})`, () => {
      const request = name === 'mglru-basic' ? LIGHT : defaultRequest(scenarios, name, 4);
      const expected = forward(request, 60);
      const host = started(request);
      frameOf(host, { type: 'step', n: 60 });
      for (const step of [59, 12, 0, 33, 60, 1]) {
        const frame = frameOf(host, { type: 'seek', step, since: Math.max(0, step - 1) });
        expect(frame, `seek to ${step}`).toEqual(expected[step]);
      }
      frameOf(host, { type: 'seek', step: 20 });
      for (let step = 19; step >= 0; step--) {
        expect(frameOf(host, { type: 'stepBack' }), `step back to ${step}`).toEqual(expected[step]);
      }
      expect(errorOf(host, { type: 'stepBack' })).toBe('step back: already at step 0');
    });
  }

  it('forwards, by default, give the frame of one multi-step move, with progress on the way', () => {
    const a = started(defaultRequest(scenarios, 'global-pressure', 2));
    frameOf(a, { type: 'step', n: 10 });
    const moved = frameOf(a, { type: 'step', n: 300 });
    const b = started(defaultRequest(scenarios, 'global-pressure', 2));
    frameOf(b, { type: 'step', n: 10 });
    const progress: Progress[] = [];
    expect(frameOf(b, { type: 'seek', step: 310 }, progress)).toEqual(moved);
    expect(progress.length).toBeGreaterThan(0);
    for (const p of progress) expect(p.total).toBe(300);
    const done = progress.map((p) => p.done);
    expect(done).toEqual([...done].sort((x, y) => x - y));
    expect(done.at(-1)!).toBeLessThan(300);
    // A step back's transitions can cover more than its last step: from `since`.
    const back = frameOf(b, { type: 'stepBack', since: 10 });
    const c = started(defaultRequest(scenarios, 'global-pressure', 2));
    frameOf(c, { type: 'step', n: 10 });
    expect(back).toEqual(frameOf(c, { type: 'step', n: 299 }));
  });

  it('checks its commands', () => {
    const fresh = createEngineHost({ Engine, listScenarios, compareExperiment });
    expect(errorOf(fresh, { type: 'seek', step: 3 })).toMatch(/before any scenario/);
    expect(errorOf(fresh, { type: 'stepBack' })).toMatch(/before any scenario/);
    expect(errorOf(fresh, { type: 'runUntil', kind: 'aging', maxSteps: 5 })).toMatch(/before any scenario/);
    const host = started(LIGHT);
    for (const step of [-1, 1.5, Number.NaN, 1e12, '7' as unknown as number]) {
      expect(errorOf(host, { type: 'seek', step })).toMatch(/^seek: step must be a whole number from 0 to 10000000/);
    }
    expect(errorOf(host, { type: 'seek', step: 3, since: -2 })).toMatch(/^seek: since must be a whole number/);
    expect(frameOf(host, { type: 'seek', step: 3 }).step).toBe(3);
  });
});

describe('runUntil', () => {
  it('stops at the first step with an aging event, and the frame shows it', () => {
    const host = started(defaultRequest(scenarios, 'mglru-basic', 1));
    const run = runOf(host, { type: 'runUntil', kind: 'aging', maxSteps: 2000 });
    expect(run.found).toBe(true);
    expect(run.steps).toBe(run.frame.step);
    expect(run.frame.events.some((e) => e.function === 'inc_max_seq') || run.frame.eventsDropped > 0).toBe(true);
    // The step before it had none: going there and stepping finds the same step.
    const before = frameOf(host, { type: 'seek', step: run.frame.step - 1 });
    const maxSeq = (f: Frame) => f.lruvecs.reduce((n, l) => n + l.maxSeq, 0);
    expect(maxSeq(run.frame)).toBe(maxSeq(before) + 1);
    const again = runOf(host, { type: 'runUntil', kind: 'aging', maxSteps: 1, since: 0 });
    expect(again.frame).toEqual(run.frame);
  });

  it('stops at kswapd going to sleep, reporting progress', () => {
    const host = started(defaultRequest(scenarios, 'kswapd-classzone', 1));
    const progress: Progress[] = [];
    const run = runOf(host, { type: 'runUntil', kind: 'kswapd-sleep', maxSteps: 5000 }, progress);
    expect(run.found).toBe(true);
    const sleeps = (f: Frame) => f.nodes.reduce((n, node) => n + node.kswapd.sleeps, 0);
    expect(sleeps(run.frame)).toBe(1);
    expect(run.frame.nodes.some((n) => n.kswapd.mode === 'asleep')).toBe(true);
    expect(run.frame.events.some((e) => e.kind === 'kswapd' && e.reason.includes('asleep'))).toBe(true);
    for (const p of progress) expect(p.total).toBe(5000);
  });

  it('stops at its limit when nothing happens, and rejects unknown kinds', () => {
    const host = started(defaultRequest(scenarios, 'classic-basic', 1));
    const run = runOf(host, { type: 'runUntil', kind: 'aging', maxSteps: 40 });
    expect([run.found, run.steps, run.frame.step]).toEqual([false, 40, 40]);
    expect(errorOf(host, { type: 'runUntil', kind: 'nap', maxSteps: 5 })).toMatch(/unknown event kind "nap"/);
    expect(errorOf(host, { type: 'runUntil', kind: 'aging', maxSteps: 0 })).toMatch(/maxSteps must be a whole number/);
    expect(frameOf(host, { type: 'seek', step: 40 }).step).toBe(40);
  });

  it('knows every kind the UI offers', () => {
    const host = started(LIGHT);
    for (const { kind } of RUN_KINDS) expect(runOf(host, { type: 'runUntil', kind, maxSteps: 2 }).steps).toBeGreaterThan(0);
  });
});

describe('a stop (handleAsync, as the worker runs long commands)', () => {
  /** Sends a command the way the worker does, stopping once `stopAfter` progress reports have come. */
  async function stopped(host: EngineHost, command: CommandBody, stopAfter: number) {
    const progress: Progress[] = [];
    const r = await host.handleAsync({ ...command, id: nextId++ } as WorkerCommand, (p) => progress.push(p), () => progress.length >= stopAfter);
    return { r, progress };
  }

  it('ends a long seek at the step it reached, with the frame stepping there gives', async () => {
    const host = started(defaultRequest(scenarios, 'global-pressure', 2));
    const { r, progress } = await stopped(host, { type: 'seek', step: 200_000 }, 2);
    if (r.type !== 'frame') throw new Error(`expected a frame, got ${r.type}`);
    expect(progress).toHaveLength(2);
    // Stopped right after the second report: where that report said it was.
    expect(r.frame.step).toBe(progress[1]!.done);
    expect(r.frame.step).toBeLessThan(200_000);
    const other = started(defaultRequest(scenarios, 'global-pressure', 2));
    expect(r.frame).toEqual(frameOf(other, { type: 'step', n: r.frame.step }));
    // The run goes on from there.
    expect(frameOf(host, { type: 'step', n: 1 }).step).toBe(r.frame.step + 1);
  });

  it('ends a long run where it got to, as not found', async () => {
    const host = started(defaultRequest(scenarios, 'classic-basic', 1));
    const { r, progress } = await stopped(host, { type: 'runUntil', kind: 'oom', maxSteps: 1_000_000 }, 1);
    if (r.type !== 'run') throw new Error(`expected a run, got ${r.type}`);
    expect([r.found, r.steps, r.frame.step]).toEqual([false, progress[0]!.done, progress[0]!.done]);
  });

  it('without a stop, gives what handle gives', async () => {
    const a = started(LIGHT);
    const b = started(LIGHT);
    const { r } = await stopped(a, { type: 'seek', step: 500 }, Number.POSITIVE_INFINITY);
    expect(r).toEqual({ ...reply(b, { type: 'seek', step: 500 }), id: r.id });
  });
});
