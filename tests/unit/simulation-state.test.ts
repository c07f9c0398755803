// The session reducer: which frame the counters' Δ compares with, the
// furthest step reached, a long command's progress, and which notices stay.
import { describe, expect, it } from 'vitest';
import type { Frame } from '../../web/src/engine/pkg/reclaim_core';
import { initialState, reducer, type SimulationState } from '../../web/src/simulationState';
import { makeRequest } from '../../web/src/scenario/params';
import { advanceHistories } from '../../web/src/views/history';
import { listedProblems } from '../../web/src/share/LinkProblems';

const frame = (step: number) =>
  ({ scenario: 's', seed: 1, step, timeNs: step * 10, nodes: [], memcgs: [], pgstealCv: 0, pgstealCvTrail: [], events: [], counters: [{ name: 'pgscan_kswapd', value: step * 3 }] }) as unknown as Frame;
const histories = (step: number) => advanceHistories(null, frame(step));

function started(step = 0): SimulationState {
  return reducer(initialState, { type: 'started', request: makeRequest('s', 1), frame: frame(step), histories: histories(step) });
}

describe('the session reducer', () => {
  it('compares with the frame before when the run went forwards, else with the step before if this run showed it', () => {
    let s = started();
    s = reducer(s, { type: 'moved', frame: frame(5), histories: histories(5) });
    expect(s.previous?.step).toBe(0);
    s = reducer(s, { type: 'moved', frame: frame(40), histories: histories(40) });
    expect([s.previous?.step, s.frame?.step, s.furthest]).toEqual([5, 40, 40]);
    s = reducer(s, { type: 'moved', frame: frame(39), histories: histories(39) });
    expect([s.previous, s.frame?.step, s.furthest]).toEqual([null, 39, 40]);
    s = reducer(s, { type: 'moved', frame: frame(12), histories: histories(12) });
    expect([s.previous, s.furthest]).toEqual([null, 40]);
    s = reducer(s, { type: 'moved', frame: frame(13), histories: histories(13) });
    expect([s.previous?.step, s.furthest]).toEqual([12, 40]);
    // Back from 14 to 13, and a scrub to 6: the steps before were shown (12 and 5), so Δ compares with them.
    s = reducer(s, { type: 'moved', frame: frame(14), histories: histories(14) });
    s = reducer(s, { type: 'moved', frame: frame(13), histories: histories(13) });
    expect([s.previous?.step, s.previous?.counters]).toEqual([12, [{ name: 'pgscan_kswapd', value: 36 }]]);
    s = reducer(s, { type: 'moved', frame: frame(6), histories: histories(6) });
    expect(s.previous?.step).toBe(5);
    // A new run starts the timeline again, and its own trail.
    s = reducer(s, { type: 'started', request: makeRequest('s', 2), frame: frame(0), histories: histories(0) });
    expect([s.previous, s.furthest]).toEqual([null, 0]);
    s = reducer(s, { type: 'moved', frame: frame(40), histories: histories(40) });
    s = reducer(s, { type: 'moved', frame: frame(13), histories: histories(13) });
    expect(s.previous).toBeNull();
  });

  it('lists the first problems of a link with too many to show, and how many more there were', () => {
    // One notice keeps them all; it lists the first eight and counts the rest (LinkProblems).
    const problems = Array.from({ length: 1500 }, (_, i) => `p${i}: has no such parameter; ignored`);
    const s = reducer(started(), { type: 'link-problems', heading: 'Part of this link was not used as written', problems });
    expect(s.alerts).toHaveLength(1);
    expect(listedProblems(s.alerts[0]!.problems!)).toEqual([
      ...problems.slice(0, 8),
      'and 1,492 more like these, not listed',
    ]);
  });

  it('shows a long command in progress until it ends, and not after a fatal error', () => {
    let s = reducer(started(), { type: 'busy', busy: { label: 'Going to step 9', done: 3, total: 9 } });
    expect(s.busy).toEqual({ label: 'Going to step 9', done: 3, total: 9 });
    expect(reducer(s, { type: 'busy', busy: null }).busy).toBeNull();
    s = reducer(s, { type: 'fatal', message: 'gone' });
    expect([s.busy, s.phase]).toEqual([null, 'failed']);
  });

  it('remembers where Run to next found its event until a new run starts', () => {
    let s = reducer(started(), { type: 'found', kind: 'reclaim', step: 101 });
    expect(s.found).toEqual({ kind: 'reclaim', step: 101 });
    s = reducer(s, { type: 'started', request: makeRequest('s', 1), frame: frame(0), histories: histories(0) });
    expect(s.found).toBeNull();
  });

  it('drops a notice about where a run stopped once the run is elsewhere; keeps the others until dismissed', () => {
    let s = reducer(started(), { type: 'alert', message: 'seed: not a seed; using 1' });
    s = reducer(s, { type: 'moved', frame: frame(10_000), histories: histories(10_000) });
    s = reducer(s, { type: 'alert', message: 'No OOM kill in 10,000 steps: stopped at step 10,000.', atStep: 10_000 });
    expect(s.alerts.map((a) => a.message)).toEqual(['seed: not a seed; using 1', 'No OOM kill in 10,000 steps: stopped at step 10,000.']);
    // A frame of the same step (the view redrawn) keeps it.
    s = reducer(s, { type: 'moved', frame: frame(10_000), histories: histories(10_000) });
    expect(s.alerts).toHaveLength(2);
    s = reducer(s, { type: 'moved', frame: frame(1_500), histories: histories(1_500) });
    expect(s.alerts.map((a) => a.message)).toEqual(['seed: not a seed; using 1']);
    s = reducer(s, { type: 'alert', message: 'No aging in 10 steps: stopped at step 1,510.', atStep: 1_510 });
    s = reducer(s, { type: 'started', request: makeRequest('s', 1), frame: frame(0), histories: histories(0) });
    expect(s.alerts.map((a) => a.message)).toEqual(['seed: not a seed; using 1']);
    // A long move starting from where the notice was (Run to next pressed again) drops it too.
    s = reducer(s, { type: 'alert', message: "No OOM kill before the run's end: stopped there, at step 0.", atStep: 0 });
    expect(s.alerts).toHaveLength(2);
    s = reducer(s, { type: 'busy', busy: { label: 'Running to the next OOM kill', done: 0, total: 10_000 } });
    expect(s.alerts.map((a) => a.message)).toEqual(['seed: not a seed; using 1']);
  });
});

describe('a notice about a link', () => {
  it('is one notice: its heading, with the problems under it', () => {
    const state = reducer(initialState, { type: 'link-problems', heading: 'Part of this link was not used as written', problems: ['seed: "x" is not a seed; using 1', 'nope: no such parameter; ignored'] });
    expect(state.alerts).toHaveLength(1);
    expect(state.alerts[0]).toMatchObject({ message: 'Part of this link was not used as written', problems: ['seed: "x" is not a seed; using 1', 'nope: no such parameter; ignored'] });
    // Dismissed as one.
    expect(reducer(state, { type: 'dismiss', id: state.alerts[0]!.id }).alerts).toEqual([]);
  });
});
