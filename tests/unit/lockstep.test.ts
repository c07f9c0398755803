// Compare mode's state (two frames of the same step, taken in one action),
// its choice of variants and its requests, and two engines given the same
// commands, as useLockstep gives them (the real wasm build).
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import init, { Engine, listScenarios, type Frame, type ScenarioList } from '../../web/src/engine/pkg/reclaim_core';
import {
  IDLE,
  defaultVariants,
  differingCounters,
  lockstepReducer,
  pairStep,
  runKey,
  sideRequests,
  type LockstepState,
} from '../../web/src/compare/lockstep';
import { makeRequest, paramRecord } from '../../web/src/scenario/params';
import { takeFrame } from '../../web/src/views/history';

const WASM = new URL('../../web/src/engine/pkg/reclaim_core_bg.wasm', import.meta.url);
let scenarios: ScenarioList;

beforeAll(async () => {
  await init({ module_or_path: readFileSync(WASM) });
  scenarios = listScenarios();
});

/** A frame with just what the state reads. */
function frame(step: number, counters: [string, number][] = [['pgfault', step]]): Frame {
  return {
    scenario: 'x',
    seed: 1,
    step,
    timeNs: step * 10,
    counters: counters.map(([name, value]) => ({ name, value })),
    lruvecs: [],
    events: [],
    eventsDropped: 0,
    folios: [],
    folioEvents: [],
    nodes: [],
    memcgs: [],
    pgstealCv: 0,
    pgstealCvTrail: [],
    reclaims: [],
  } as unknown as Frame;
}

const request = makeRequest('kswapd-classzone', 3, { bursts: 4 }, 'after');

describe('lock-step state', () => {
  it('takes both frames in one action, and drops what a stale start answers', () => {
    const requests = sideRequests(request, ['before', 'after']);
    const key = runKey(requests);
    let s: LockstepState = lockstepReducer(IDLE, { type: 'starting', key });
    expect(s.status).toBe('starting');
    expect(pairStep(s)).toBeNull();
    // An answer for another pair of runs (started before) is ignored.
    expect(lockstepReducer(s, { type: 'started', key: 'other', requests, frames: [frame(0), frame(0)] })).toBe(s);
    s = lockstepReducer(s, { type: 'started', key, requests, frames: [frame(5), frame(5)] });
    expect(s.status).toBe('running');
    expect(pairStep(s)).toBe(5);
    s = lockstepReducer(s, { type: 'sent' });
    s = lockstepReducer(s, { type: 'sent' });
    expect(s.inFlight).toBe(2);
    s = lockstepReducer(s, { type: 'stepped', frames: [frame(6), frame(6)] });
    expect(s.inFlight).toBe(1);
    expect(pairStep(s)).toBe(6);
    expect(s.sides![0].previous?.step).toBe(5);
    expect(s.sides![1].histories.step).toBe(6);
    // Forward to 7, back to 6: the step before (5) was shown, so the Δ compares with it; back to 4: not shown.
    s = lockstepReducer(s, { type: 'stepped', frames: [frame(7), frame(7)] });
    s = lockstepReducer(s, { type: 'stepped', frames: [frame(6), frame(6)] });
    expect(s.sides!.map((x) => x.previous?.step)).toEqual([5, 5]);
    s = lockstepReducer(s, { type: 'stepped', frames: [frame(4), frame(4)] });
    expect(s.sides!.map((x) => x.previous)).toEqual([null, null]);
    expect(s.sides!.map((x) => x.request.variant)).toEqual(['before', 'after']);
    s = lockstepReducer(s, { type: 'playing', playing: true });
    expect(s.playing).toBe(true);
    s = lockstepReducer(s, { type: 'failed', error: 'boom' });
    expect(s).toMatchObject({ status: 'failed', playing: false, error: 'boom', inFlight: 0 });
    // No playing without engines, and stopping forgets everything.
    expect(lockstepReducer(s, { type: 'playing', playing: true }).playing).toBe(false);
    expect(lockstepReducer(s, { type: 'stopped' })).toEqual(IDLE);
  });

  it('a pair started at a later step (a link) draws kswapd since step 0, as the single view does', () => {
    const requests = sideRequests(request, ['before', 'after']);
    const key = runKey(requests);
    const engines = requests.map((r) => new Engine(r));
    const first = engines.map((e) => e.frame()) as [Frame, Frame];
    const frames = engines.map((e) => e.step(200)) as [Frame, Frame];
    const starting = lockstepReducer(IDLE, { type: 'starting', key });
    const s = lockstepReducer(starting, { type: 'started', key, requests, frames, first });
    // The single view: its run's first frame, then a seek to 200 with transitions since 0.
    const single = new Engine(requests[0]);
    const alone = takeFrame(takeFrame(null, single.frame()), single.seek(200, 0));
    const track = s.sides![0].histories.kswapd[0]!;
    expect(track.segments.length).toBeGreaterThan(10);
    expect(track).toEqual(alone.histories.kswapd[0]);
    // Without the first frames, the 200-step frames' own window (transitions since step 0, and kswapd's mode then) gives the same track.
    const late = lockstepReducer(starting, { type: 'started', key, requests, frames });
    expect(late.sides![0].histories.kswapd[0]).toEqual(alone.histories.kswapd[0]);
    for (const e of [...engines, single]) e.free();
  });

  it('a restart forgets the commands in flight', () => {
    const requests = sideRequests(request, ['before', 'after']);
    const key = runKey(requests);
    let s = lockstepReducer(lockstepReducer(IDLE, { type: 'starting', key }), { type: 'started', key, requests, frames: [frame(0), frame(0)] });
    s = lockstepReducer(s, { type: 'sent' });
    s = lockstepReducer(s, { type: 'starting', key });
    expect(s.inFlight).toBe(0);
    // Its frames, should they come, are not taken.
    expect(lockstepReducer(s, { type: 'stepped', frames: [frame(1), frame(1)] })).toBe(s);
  });

  it('names the counters that differ, in order', () => {
    expect(differingCounters(frame(1, [['a', 1], ['b', 2], ['c', 3]]), frame(1, [['a', 1], ['b', 5], ['c', 4]]))).toEqual(['b', 'c']);
    expect(differingCounters(frame(1), frame(1))).toEqual([]);
  });
});

describe('the two runs', () => {
  it('before and after when the experiment has them, else its first two', () => {
    for (const e of scenarios.experiments) {
      const [left, right] = defaultVariants(e);
      expect(left).not.toBe(right);
      expect(e.variants.map((v) => v.name)).toEqual(expect.arrayContaining([left, right]));
    }
    expect(defaultVariants({ variants: [{ name: 'x', description: '' }, { name: 'y', description: '' }] })).toEqual(['x', 'y']);
    expect(defaultVariants({ variants: [{ name: 'after', description: '' }, { name: 'whole', description: '' }] })).toEqual(['after', 'whole']);
  });

  it('same experiment, seed and parameters, one variant each; the key changes with any of them', () => {
    const [a, b] = sideRequests(request, ['before', 'after']);
    expect([a.name, b.name]).toEqual(['kswapd-classzone', 'kswapd-classzone']);
    expect([a.seed, b.seed]).toEqual([3, 3]);
    expect(paramRecord(a)).toEqual({ bursts: 4 });
    expect(paramRecord(b)).toEqual({ bursts: 4 });
    expect([a.variant, b.variant]).toEqual(['before', 'after']);
    const key = runKey([a, b]);
    expect(runKey(sideRequests(request, ['after', 'before']))).not.toBe(key);
    expect(runKey(sideRequests(makeRequest('kswapd-classzone', 4, { bursts: 4 }), ['before', 'after']))).not.toBe(key);
    expect(runKey(sideRequests(makeRequest('kswapd-classzone', 3, { bursts: 4 }, 'before'), ['before', 'after']))).toBe(key);
  });

  it('two engines given the same commands stay at the same step, and part where the kernels differ', () => {
    const pair = sideRequests(makeRequest('multi-memcg-kswapd', 1), ['before', 'after']).map((r) => new Engine(r));
    let frames = pair.map((e) => e.frame());
    expect(differingCounters(frames[0]!, frames[1]!)).toEqual([]);
    for (const n of [1, 9, 10]) frames = pair.map((e) => e.step(n));
    expect(frames.map((f) => f.step)).toEqual([20, 20]);
    expect(differingCounters(frames[0]!, frames[1]!).length).toBeGreaterThan(0);
    pair.forEach((e) => e.free());
  });
});
