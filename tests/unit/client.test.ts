// The worker client against a fake worker: ids, ordering, errors, failures.
import { describe, expect, it } from 'vitest';
import { EngineClient, EngineError, type WorkerLike } from '../../web/src/engine/client';
import type { WorkerCommand, WorkerControl, WorkerReply } from '../../web/src/engine/protocol';
import { makeRequest } from '../../web/src/scenario/params';
import type { Comparison, Frame, ScenarioList } from '../../web/src/engine/pkg/reclaim_core';

class FakeWorker implements WorkerLike {
  sent: WorkerCommand[] = [];
  controls: WorkerControl[] = [];
  terminated = false;
  private listeners: Record<string, ((event: never) => void)[]> = {};
  postMessage(message: WorkerCommand | WorkerControl): void {
    if (message.type === 'stop') this.controls.push(message);
    else this.sent.push(message);
  }
  addEventListener(type: string, listener: (event: never) => void): void {
    (this.listeners[type] ??= []).push(listener);
  }
  terminate(): void {
    this.terminated = true;
  }
  reply(data: WorkerReply): void {
    for (const l of this.listeners.message ?? []) l({ data } as never);
  }
  crash(message: string): void {
    for (const l of this.listeners.error ?? []) l({ message, preventDefault() {} } as never);
  }
}

const list: ScenarioList = { defaultScenario: 's', scenarios: [], experiments: [] };
const frame = (step: number) => ({ step }) as unknown as Frame;

describe('EngineClient', () => {
  it('resolves ready with the scenario list', async () => {
    const worker = new FakeWorker();
    const client = new EngineClient(worker);
    worker.reply({ id: 0, type: 'ready', scenarios: list });
    await expect(client.ready).resolves.toEqual(list);
  });

  it('matches replies to commands by id', async () => {
    const worker = new FakeWorker();
    const client = new EngineClient(worker);
    const a = client.init(makeRequest('s', 1));
    const b = client.step(5);
    const c = client.reset();
    expect(worker.sent.map((m) => [m.id, m.type])).toEqual([
      [1, 'init'],
      [2, 'step'],
      [3, 'reset'],
    ]);
    expect(worker.sent[1]).toEqual({ id: 2, type: 'step', n: 5 });
    worker.reply({ id: 2, type: 'frame', frame: frame(5) });
    worker.reply({ id: 1, type: 'frame', frame: frame(0) });
    worker.reply({ id: 3, type: 'error', message: 'nope' });
    await expect(a).resolves.toEqual(frame(0));
    await expect(b).resolves.toEqual(frame(5));
    await expect(c).rejects.toThrow(new EngineError('nope'));
  });

  it('stops only the long seeks and runs still pending, which still settle', async () => {
    const worker = new FakeWorker();
    const client = new EngineClient(worker);
    const seek = client.seek(900, undefined, () => {});
    const step = client.step(1);
    const run = client.runUntil('oom', 10_000, undefined, () => {});
    const quiet = client.seek(3);
    worker.reply({ id: 1, type: 'progress', done: 32, total: 900 });
    client.stopLong();
    expect(worker.controls).toEqual([
      { type: 'stop', target: 1 },
      { type: 'stop', target: 3 },
    ]);
    worker.reply({ id: 1, type: 'frame', frame: frame(32) });
    worker.reply({ id: 2, type: 'frame', frame: frame(33) });
    worker.reply({ id: 3, type: 'run', frame: frame(40), found: false, steps: 7 });
    worker.reply({ id: 4, type: 'frame', frame: frame(3) });
    await expect(seek).resolves.toEqual(frame(32));
    await expect(step).resolves.toEqual(frame(33));
    await expect(run).resolves.toEqual({ frame: frame(40), found: false, steps: 7 });
    await expect(quiet).resolves.toEqual(frame(3));
    // Nothing pending: nothing to stop.
    client.stopLong();
    expect(worker.controls).toHaveLength(2);
  });

  it('asks for a folio history and checks the reply type', async () => {
    const worker = new FakeWorker();
    const client = new EngineClient(worker);
    const stepped = client.step(1);
    const history = client.history('file:reader#0');
    const wrong = client.history('anon:kv#0');
    expect(worker.sent[1]).toEqual({ id: 2, type: 'history', page: 'file:reader#0' });
    worker.reply({ id: 1, type: 'frame', frame: frame(1) });
    const events = [{ step: 1, timeNs: 5, kind: 'insertion', function: 'lru_gen_add_folio', reason: 'r', page: 'file:reader#0' }];
    worker.reply({ id: 2, type: 'history', history: { page: 'file:reader#0', events } });
    worker.reply({ id: 3, type: 'frame', frame: frame(1) });
    await expect(stepped).resolves.toEqual(frame(1));
    await expect(history).resolves.toEqual({ page: 'file:reader#0', events });
    await expect(wrong).rejects.toThrow(/unexpected reply frame/);
    // And a frame command answered with a history is an error too.
    const step = client.step(1);
    worker.reply({ id: 4, type: 'history', history: { page: 'x', events: [] } });
    await expect(step).rejects.toThrow(/unexpected reply history/);
  });

  it('asks for a comparison and checks the reply type', async () => {
    const worker = new FakeWorker();
    const client = new EngineClient(worker);
    const request = makeRequest('exp', 3, { a: 1 });
    const compared = client.compare(request);
    const wrong = client.compare(request);
    expect(worker.sent[0]).toEqual({ id: 1, type: 'compare', request });
    const comparison: Comparison = { experiment: 'exp', seed: 3, params: new Map([['a', 1]]), variants: [] };
    worker.reply({ id: 1, type: 'comparison', comparison });
    worker.reply({ id: 2, type: 'frame', frame: frame(0) });
    await expect(compared).resolves.toEqual(comparison);
    await expect(wrong).rejects.toThrow(/unexpected reply frame/);
  });

  it('sends timeline commands and hands progress to the command it belongs to', async () => {
    const worker = new FakeWorker();
    const client = new EngineClient(worker);
    const seekProgress: { done: number; total: number }[] = [];
    const runProgress: { done: number; total: number }[] = [];
    const seek = client.seek(500, 20, (p) => seekProgress.push(p));
    const back = client.stepBack();
    const run = client.runUntil('aging', 1000, 499, (p) => runProgress.push(p));
    const plain = client.seek(7);
    expect(worker.sent).toEqual([
      { id: 1, type: 'seek', step: 500, since: 20 },
      { id: 2, type: 'stepBack' },
      { id: 3, type: 'runUntil', kind: 'aging', maxSteps: 1000, since: 499 },
      { id: 4, type: 'seek', step: 7 },
    ]);
    worker.reply({ id: 1, type: 'progress', done: 100, total: 480 });
    worker.reply({ id: 1, type: 'progress', done: 300, total: 480 });
    worker.reply({ id: 1, type: 'frame', frame: frame(500) });
    // Progress after the answer (or for a command nobody sent) is ignored.
    worker.reply({ id: 1, type: 'progress', done: 400, total: 480 });
    worker.reply({ id: 2, type: 'frame', frame: frame(499) });
    worker.reply({ id: 3, type: 'progress', done: 10, total: 1000 });
    worker.reply({ id: 3, type: 'run', frame: frame(520), found: true, steps: 21 });
    worker.reply({ id: 4, type: 'run', frame: frame(7), found: false, steps: 0 });
    await expect(seek).resolves.toEqual(frame(500));
    await expect(back).resolves.toEqual(frame(499));
    await expect(run).resolves.toEqual({ frame: frame(520), found: true, steps: 21 });
    await expect(plain).rejects.toThrow(/unexpected reply run/);
    expect(seekProgress).toEqual([
      { done: 100, total: 480 },
      { done: 300, total: 480 },
    ]);
    expect(runProgress).toEqual([{ done: 10, total: 1000 }]);
  });

  it('fails everything when the engine cannot load', async () => {
    const worker = new FakeWorker();
    const client = new EngineClient(worker);
    const pending = client.step(1);
    worker.reply({ id: 0, type: 'error', message: 'could not load the engine: 404' });
    await expect(client.ready).rejects.toThrow('could not load the engine: 404');
    await expect(pending).rejects.toThrow('could not load the engine: 404');
    await expect(client.step(1)).rejects.toThrow('could not load the engine: 404');
  });

  it('fails everything when the worker crashes, and stops on dispose', async () => {
    const worker = new FakeWorker();
    const client = new EngineClient(worker);
    const pending = client.init(makeRequest('s', 1));
    worker.crash('boom');
    await expect(pending).rejects.toThrow(/worker failed: boom/);

    const other = new FakeWorker();
    const second = new EngineClient(other);
    const waiting = second.step(1);
    second.dispose();
    expect(other.terminated).toBe(true);
    await expect(waiting).rejects.toThrow(/stopped/);
  });
});
