// The worker's engine host against the real engine (the wasm-pack build in
// web/src/engine/pkg, which `node scripts/rl.mjs test` builds before Vitest):
// the contract the page relies on, without a browser.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import init, { Engine, listScenarios } from '../../web/src/engine/pkg/reclaim_core';
import type { Frame, ScenarioList, ScenarioRequest } from '../../web/src/engine/pkg/reclaim_core';
import { createEngineHost, type EngineHost } from '../../web/src/engine/host';
import type { CommandBody, WorkerCommand } from '../../web/src/engine/protocol';
import { makeRequest, paramRecord } from '../../web/src/scenario/params';
import { defaultRequest } from '../../web/src/scenario/presets';
import { decodeScenarioUrl, encodeScenarioUrl } from '../../web/src/scenario/url';

const WASM = new URL('../../web/src/engine/pkg/reclaim_core_bg.wasm', import.meta.url);

let scenarios: ScenarioList;
let nextId = 1;

beforeAll(async () => {
  await init({ module_or_path: readFileSync(WASM) });
  scenarios = listScenarios();
});

const newHost = () => createEngineHost({ Engine, listScenarios });

function frameOf(host: EngineHost, command: CommandBody): Frame {
  const reply = host.handle({ ...command, id: nextId++ } as WorkerCommand);
  if (reply.type !== 'frame') throw new Error(`expected a frame, got ${JSON.stringify(reply)}`);
  return reply.frame;
}

function errorOf(host: EngineHost, command: CommandBody): string {
  const reply = host.handle({ ...command, id: nextId++ } as WorkerCommand);
  if (reply.type !== 'error') throw new Error(`expected an error, got ${reply.type}`);
  return reply.message;
}

describe('listScenarios', () => {
  it('lists the default scenario with sane parameters', () => {
    const names = scenarios.scenarios.map((s) => s.name);
    expect(names).toContain(scenarios.defaultScenario);
    for (const s of scenarios.scenarios) {
      expect(s.title.length).toBeGreaterThan(0);
      for (const p of s.params) {
        expect(p.min, `${s.name}.${p.name}`).toBeLessThanOrEqual(p.default);
        expect(p.default, `${s.name}.${p.name}`).toBeLessThanOrEqual(p.max);
        if (p.integer) expect(Number.isInteger(p.default), `${s.name}.${p.name}`).toBe(true);
      }
    }
  });

  it('has names the URL codec can carry', () => {
    for (const s of scenarios.scenarios) {
      const request = defaultRequest(scenarios, s.name, 5);
      expect(decodeScenarioUrl(encodeScenarioUrl(request), scenarios.defaultScenario)).toEqual({ ok: true, request });
    }
  });
});

describe('engine host', () => {
  it('starts at step 0 and steps', () => {
    const host = newHost();
    const request = defaultRequest(scenarios);
    const start = frameOf(host, { type: 'init', request });
    expect(start.step).toBe(0);
    expect(start.scenario).toBe(request.name);
    expect(start.seed).toBe(request.seed);
    const names = start.counters.map((c) => c.name);
    expect(names.length).toBeGreaterThan(0);
    expect(new Set(names).size).toBe(names.length);
    expect(start.lruvecs.length).toBeGreaterThan(0);

    const later = frameOf(host, { type: 'step', n: 5 });
    expect(later.step).toBe(5);
    expect(later.timeNs).toBeGreaterThan(start.timeNs);
    expect(later.counters.map((c) => c.name)).toEqual(names);
  });

  it('is deterministic: same request, same frames, however the steps are batched', () => {
    const request: ScenarioRequest = defaultRequest(scenarios, scenarios.defaultScenario, 12345);
    const a = newHost();
    const b = newHost();
    frameOf(a, { type: 'init', request });
    // b gets the request through the URL, as a reloaded page would.
    const decoded = decodeScenarioUrl(encodeScenarioUrl(request), scenarios.defaultScenario);
    frameOf(b, { type: 'init', request: decoded.request });
    let fa: Frame | undefined;
    for (let i = 0; i < 40; i++) fa = frameOf(a, { type: 'step', n: 1 });
    const fb = frameOf(b, { type: 'step', n: 40 });
    expect(fb).toEqual(fa);
  });

  it('reset replays the same run', () => {
    const host = newHost();
    frameOf(host, { type: 'init', request: defaultRequest(scenarios, scenarios.defaultScenario, 3) });
    const first = frameOf(host, { type: 'step', n: 25 });
    expect(frameOf(host, { type: 'reset' }).step).toBe(0);
    expect(frameOf(host, { type: 'step', n: 25 })).toEqual(first);
  });

  it('the default scenario does something in its first steps', () => {
    const host = newHost();
    const start = frameOf(host, { type: 'init', request: defaultRequest(scenarios) });
    const later = frameOf(host, { type: 'step', n: 5 });
    expect(later.counters).not.toEqual(start.counters);
    const pages = later.lruvecs.flatMap((l) => l.gens.map((g) => g.anon + g.file));
    expect(pages.some((p) => p > 0)).toBe(true);
    for (const l of later.lruvecs) {
      expect(l.gens.length).toBeGreaterThan(0);
      expect(l.gens.at(-1)!.seq).toBe(l.maxSeq);
      expect(l.gens[0]!.seq).toBe(Math.min(...l.minSeq));
    }
  });

  it('reports bad requests with a message naming what is wrong, and recovers', () => {
    const host = newHost();
    const good = defaultRequest(scenarios);
    const withParams = (params: Record<string, number>) => makeRequest(good.name, good.seed, { ...paramRecord(good), ...params });
    expect(errorOf(host, { type: 'init', request: { ...good, name: 'no-such-scenario' } })).toContain('no-such-scenario');
    expect(errorOf(host, { type: 'step', n: 1 })).toMatch(/before any scenario/);
    expect(errorOf(host, { type: 'init', request: withParams({ no_such_param: 1 }) })).toContain('no_such_param');
    const info = scenarios.scenarios.find((s) => s.name === good.name)!;
    for (const p of info.params) {
      const message = errorOf(host, { type: 'init', request: withParams({ [p.name]: p.max + 1 }) });
      expect(message).toContain(p.name);
      if (p.integer && p.max > p.min) {
        const half = errorOf(host, { type: 'init', request: withParams({ [p.name]: p.min + 0.5 }) });
        expect(half).toContain(p.name);
      }
    }
    expect(frameOf(host, { type: 'init', request: good }).step).toBe(0);
    expect(errorOf(host, { type: 'step', n: 0 })).toMatch(/whole number/);
    expect(frameOf(host, { type: 'step', n: 1 }).step).toBe(1);
  });
});
