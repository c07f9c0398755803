// The pool the range check spreads its comparisons over: task order kept
// whatever order the runs finish in, one task per worker at a time, the
// first failure ending the batch.
import { describe, expect, it } from 'vitest';
import { poolSize, runPooled } from '../../web/src/engine/pool';

/** A task that the test finishes by hand, so the order runs end in is the test's choice. */
interface Gate {
  task: number;
  worker: string;
  finish(value: string): void;
  fail(error: Error): void;
}

function gated() {
  const open: Gate[] = [];
  const run = (worker: string, task: number) =>
    new Promise<string>((resolve, reject) => open.push({ task, worker, finish: resolve, fail: reject }));
  return { open, run };
}

/** Lets the pool's awaits settle. */
const settle = () => new Promise((r) => setTimeout(r, 0));

describe('runPooled', () => {
  it('gives each worker one task at a time, in task order, and returns results in task order', async () => {
    const { open, run } = gated();
    const seen: [number, number][] = [];
    const batch = runPooled(['a', 'b'], [0, 1, 2, 3], run, (results, finished) => seen.push([finished, results.filter((r) => r !== undefined).length]));
    await settle();
    expect(open.map((g) => [g.worker, g.task])).toEqual([
      ['a', 0],
      ['b', 1],
    ]);
    // Task 1 ends first: its worker takes task 2 while task 0 still runs.
    open[1]!.finish('one');
    await settle();
    expect(open.map((g) => [g.worker, g.task])).toEqual([
      ['a', 0],
      ['b', 1],
      ['b', 2],
    ]);
    open[0]!.finish('zero');
    await settle();
    expect(open[3]).toMatchObject({ worker: 'a', task: 3 });
    open[3]!.finish('three');
    open[2]!.finish('two');
    await expect(batch).resolves.toEqual(['zero', 'one', 'two', 'three']);
    expect(seen).toEqual([
      [1, 1],
      [2, 2],
      [3, 3],
      [4, 4],
    ]);
  });

  it('hands out the results so far by task index, unfinished ones undefined', async () => {
    const { open, run } = gated();
    const snapshots: (string | undefined)[][] = [];
    const batch = runPooled(['a', 'b'], [0, 1], run, (results) => snapshots.push([...results]));
    await settle();
    open[1]!.finish('one');
    await settle();
    open[0]!.finish('zero');
    await batch;
    expect(snapshots).toEqual([
      [undefined, 'one'],
      ['zero', 'one'],
    ]);
  });

  it('rejects with the first failure and starts no further task', async () => {
    const { open, run } = gated();
    const batch = runPooled(['a', 'b'], [0, 1, 2, 3, 4], run);
    await settle();
    open[0]!.fail(new Error('bad parameter'));
    await expect(batch).rejects.toThrow('bad parameter');
    // Task 1 was running and may end; nothing after it starts.
    open[1]!.finish('one');
    await settle();
    expect(open.map((g) => g.task)).toEqual([0, 1]);
  });

  it('runs everything on one worker when there is one, and refuses none', async () => {
    const order: number[] = [];
    const results = await runPooled(['only'], [3, 1, 2], async (_w, t) => {
      order.push(t);
      return t * 10;
    });
    expect(results).toEqual([30, 10, 20]);
    expect(order).toEqual([3, 1, 2]);
    await expect(runPooled([], [1], async () => 1)).rejects.toThrow('at least one worker');
  });
});

describe('poolSize', () => {
  it('is one worker per core, at least one and at most the cap', () => {
    expect(poolSize(2)).toBe(2);
    expect(poolSize(16)).toBe(4);
    expect(poolSize(16, 8)).toBe(8);
    expect(poolSize(1)).toBe(1);
    expect(poolSize(0)).toBe(1);
    expect(poolSize(undefined)).toBe(1);
    expect(poolSize(Number.NaN)).toBe(1);
  });
});
