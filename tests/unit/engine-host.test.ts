// The worker's engine host against the real engine (the wasm-pack build in
// web/src/engine/pkg, which `node scripts/rl.mjs test` builds before Vitest):
// the contract the page relies on, without a browser.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import init, { Engine, compareExperiment, listScenarios } from '../../web/src/engine/pkg/reclaim_core';
import type { Comparison, FolioHistory, Frame, ScenarioList, ScenarioRequest } from '../../web/src/engine/pkg/reclaim_core';
import { createEngineHost, type EngineHost } from '../../web/src/engine/host';
import type { CommandBody, WorkerCommand } from '../../web/src/engine/protocol';
import { makeRequest, paramRecord } from '../../web/src/scenario/params';
import { checkRequest, completeRequest, defaultRequest, unknownParameter } from '../../web/src/scenario/presets';
import { comparisonTable } from '../../web/src/views/comparison/model';
import { decodeScenarioUrl, encodeScenarioUrl } from '../../web/src/scenario/url';

const WASM = new URL('../../web/src/engine/pkg/reclaim_core_bg.wasm', import.meta.url);

let scenarios: ScenarioList;
let nextId = 1;

beforeAll(async () => {
  await init({ module_or_path: readFileSync(WASM) });
  scenarios = listScenarios();
});

const newHost = () => createEngineHost({ Engine, listScenarios, compareExperiment });

function frameOf(host: EngineHost, command: CommandBody): Frame {
  const reply = host.handle({ ...command, id: nextId++ } as WorkerCommand);
  if (reply.type !== 'frame') throw new Error(`expected a frame, got ${JSON.stringify(reply)}`);
  return reply.frame;
}

function historyOf(host: EngineHost, page: string): FolioHistory {
  const reply = host.handle({ type: 'history', page, id: nextId++ });
  if (reply.type !== 'history') throw new Error(`expected a history, got ${JSON.stringify(reply)}`);
  return reply.history;
}

function comparisonOf(host: EngineHost, request: ScenarioRequest): Comparison {
  const reply = host.handle({ type: 'compare', request, id: nextId++ });
  if (reply.type !== 'comparison') throw new Error(`expected a comparison, got ${JSON.stringify(reply)}`);
  return reply.comparison;
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

  it("gives the scenario's duration in steps, as reclaim-sim run counts them", () => {
    const engine = new Engine(makeRequest('kswapd-classzone', 1, { bursts: 2 }, 'after'));
    // reclaim-sim run kswapd-classzone --param bursts=2: "125 steps, 1.250 s simulated".
    expect(engine.frame().durationSteps).toBe(125);
    expect(engine.step(200).durationSteps).toBe(125);
    engine.free();
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
    const transitionsA: [number, string][] = [];
    const freeA: [number, number][] = [];
    const cvA: [number, number][] = [];
    for (let i = 0; i < 40; i++) {
      fa = frameOf(a, { type: 'step', n: 1 });
      transitionsA.push(...fa.nodes[0]!.kswapd.transitions);
      freeA.push([fa.step, fa.nodes[0]!.zones[0]!.free]);
      cvA.push([fa.step, fa.pgstealCv]);
    }
    const fb = frameOf(b, { type: 'step', n: 40 });
    // A 40-step frame reports kswapd's transitions over all 40 steps, and the
    // free pages at each earlier step: what the single steps reported one by one.
    expect(fb.nodes[0]!.kswapd.transitions).toEqual(transitionsA);
    expect(fb.nodes[0]!.zones[0]!.freeTrail).toEqual(freeA.slice(0, -1));
    // And the pgsteal CV at each earlier step (NaN until a leaf memcg is reclaimed from).
    expect(fb.pgstealCvTrail).toEqual(cvA.slice(0, -1));
    const perStep = (f: Frame) => ({
      ...f,
      pgstealCvTrail: [],
      nodes: f.nodes.map((n) => ({ ...n, zones: n.zones.map((z) => ({ ...z, freeTrail: [] })), kswapd: { ...n.kswapd, transitions: [], windowStartNs: 0, windowMode: undefined } })),
    });
    expect(perStep(fb)).toEqual(perStep(fa!));
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

  it('tracks a sample of folios and answers their histories', () => {
    const host = newHost();
    const start = frameOf(host, { type: 'init', request: defaultRequest(scenarios) });
    expect(start.folios.length).toBeGreaterThan(0);
    expect(start.folios.every((f) => f.state === 'absent')).toBe(true);
    const later = frameOf(host, { type: 'step', n: 12 });
    // The same sample, in the same order, every frame (the dots' slots rely on it).
    expect(later.folios.map((f) => f.page)).toEqual(start.folios.map((f) => f.page));
    const memcgs = new Set(later.lruvecs.map((l) => l.memcg));
    for (const f of later.folios) {
      expect(['anon', 'file']).toContain(f.kind);
      expect(['resident', 'evicted', 'swapped', 'absent']).toContain(f.state);
      expect(memcgs.has(f.memcg), f.page).toBe(true);
    }
    const resident = later.folios.filter((f) => f.state === 'resident');
    expect(resident.length).toBeGreaterThan(0);
    for (const l of later.lruvecs.filter((l) => l.lruGen)) {
      const seqs = new Set(l.gens.map((g) => g.seq));
      for (const f of resident.filter((f) => f.memcg === l.memcg)) expect(seqs.has(f.seq!), f.page).toBe(true);
    }
    for (const e of later.folioEvents) expect(later.folios.some((f) => f.page === e.page)).toBe(true);

    const page = resident[0]!.page;
    const history = historyOf(host, page);
    expect(history.page).toBe(page);
    expect(history.events.length).toBeGreaterThan(0);
    const steps = history.events.map((e) => e.step);
    expect(steps).toEqual([...steps].sort((a, b) => a - b));
    expect(steps.at(-1)!).toBeLessThanOrEqual(12);
    for (const e of history.events) {
      expect(e.page).toBe(page);
      expect(e.function).toMatch(/^[a-z_]+$/);
    }
    expect(historyOf(host, 'file:no-such-file#0').events).toEqual([]);
  });

  it('checks history commands', () => {
    const host = newHost();
    expect(errorOf(host, { type: 'history', page: 'file:reader#0' })).toMatch(/before any scenario/);
    frameOf(host, { type: 'init', request: defaultRequest(scenarios) });
    expect(errorOf(host, { type: 'history', page: '' })).toMatch(/page name/);
    expect(errorOf(host, { type: 'history', page: 42 as unknown as string })).toMatch(/page name/);
  });

  it('runs the classic LRU scenario with its lists', () => {
    const host = newHost();
    expect(scenarios.scenarios.map((s) => s.name)).toContain('classic-basic');
    frameOf(host, { type: 'init', request: defaultRequest(scenarios, 'classic-basic', 1) });
    const later = frameOf(host, { type: 'step', n: 20 });
    for (const l of later.lruvecs) {
      expect(l.lruGen).toBe(false);
      expect(l.lists.reduce((a, b) => a + b, 0)).toBeGreaterThan(0);
      expect(l.tiers.every((t) => t.refaulted + t.evicted + t.protected + t.avgTotal === 0)).toBe(true);
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

describe('experiments', () => {
  // The fastest comparison (about 0.3 s native, a little more in wasm).
  const NAME = 'kswapd-classzone';

  it('lists the five experiments with before and after first and headlines on known variants', () => {
    expect(scenarios.experiments.map((e) => e.name).sort()).toEqual(
      ['kswapd-classzone', 'memcg-lru-fairness', 'multi-memcg-kswapd', 'proactive-reclaim-batching', 'refault-distance-mglru'],
    );
    for (const e of scenarios.experiments) {
      expect(e.patch, e.name).toMatch(/\.txt: /);
      expect(e.variants.slice(0, 2).map((v) => v.name), e.name).toEqual(['before', 'after']);
      const variants = new Set(e.variants.map((v) => v.name));
      for (const h of e.headlines) {
        expect(variants.has(h.baseline), `${e.name}.${h.metric} baseline`).toBe(true);
        expect(['lower', 'higher']).toContain(h.direction);
      }
      // Experiment requests go through the URL with their variant.
      const request = defaultRequest(scenarios, e.name, 2);
      expect(request.variant).toBe('after');
      expect(decodeScenarioUrl(encodeScenarioUrl(request), scenarios.defaultScenario)).toEqual({ ok: true, request });
    }
  });

  it('steps either variant like a scenario', () => {
    const host = newHost();
    const counters = (variant: string) => {
      const request = { ...defaultRequest(scenarios, NAME, 1), variant };
      expect(frameOf(host, { type: 'init', request }).step).toBe(0);
      // The first burst starts at 200 ms (20 steps).
      const f = frameOf(host, { type: 'step', n: 60 });
      expect(f.scenario).toBe(NAME);
      expect(f.nodes.length).toBeGreaterThan(0);
      return f.counters;
    };
    const before = counters('before');
    const after = counters('after');
    expect(before.find((c) => c.name === 'pgpgin')?.value ?? 0).toBeGreaterThan(0);
    expect(before.map((c) => c.name)).toEqual(after.map((c) => c.name));
    // Reset keeps the variant: the same run again.
    frameOf(host, { type: 'reset' });
    expect(frameOf(host, { type: 'step', n: 60 }).counters).toEqual(after);
  });

  it('compares every variant on one seed, the same numbers each time, leaving the stepped engine alone', () => {
    const host = newHost();
    const request = completeRequest(scenarios, makeRequest(NAME, 1, { bursts: 4 }, 'before'));
    frameOf(host, { type: 'init', request });
    frameOf(host, { type: 'step', n: 3 });

    const comparison = comparisonOf(host, request);
    expect(comparison.experiment).toBe(NAME);
    expect(comparison.seed).toBe(1);
    expect(comparison.variants.map((v) => v.variant)).toEqual(['before', 'after', 'merged-v4.12']);
    expect(paramRecord({ params: comparison.params })).toEqual(paramRecord(request));
    const info = scenarios.experiments.find((e) => e.name === NAME)!;
    const table = comparisonTable(info, comparison);
    const sleeps = table.rows.find((r) => r.metric === 'kswapd_premature_sleeps');
    expect(sleeps?.headline).not.toBeNull();
    expect(sleeps?.values.every((v) => typeof v === 'number')).toBe(true);
    expect(table.rows.filter((r) => r.headline).length).toBe(info.headlines.length);

    // Deterministic, and the variant of the request does not matter.
    expect(comparisonOf(host, { ...request, variant: 'after' })).toEqual(comparison);
    // A range check's compare runs only what the headlines compare: the same numbers, without merged-v4.12.
    const reply = host.handle({ type: 'compare', request, headlinesOnly: true, id: nextId++ });
    if (reply.type !== 'comparison') throw new Error(`expected a comparison, got ${JSON.stringify(reply)}`);
    expect(reply.comparison.variants).toEqual(comparison.variants.filter((v) => v.variant !== 'merged-v4.12'));
    // The stepped engine carries on where it was.
    expect(frameOf(host, { type: 'step', n: 1 }).step).toBe(4);
  });

  it('reports bad variants and comparisons with the engine\'s message, and recovers', () => {
    const host = newHost();
    const good = defaultRequest(scenarios, NAME, 1);
    expect(errorOf(host, { type: 'init', request: { ...good, variant: 'bogus' } })).toMatch(/unknown variant "bogus".*before, after/);
    expect(errorOf(host, { type: 'init', request: { ...defaultRequest(scenarios), variant: 'before' } })).toMatch(/not an experiment/);
    expect(errorOf(host, { type: 'compare', request: defaultRequest(scenarios) })).toMatch(/unknown experiment/);
    const tooMany = makeRequest(NAME, 1, { ...paramRecord(good), bursts: 1_000_000 });
    expect(errorOf(host, { type: 'compare', request: tooMany })).toContain('bursts');
    expect(frameOf(host, { type: 'init', request: good }).step).toBe(0);
  });
});

describe('checkRequest (a link\'s bad values, one by one)', () => {
  it('turns each value the engine refuses into its default, naming it, and keeps the rest of the run', () => {
    const host = newHost();
    for (const info of [...scenarios.scenarios, ...scenarios.experiments]) {
      for (const param of info.params) {
        const bad = [param.max + 1, param.min - 1, ...(param.integer ? [param.min + 0.5] : [])];
        for (const value of bad) {
          const asked = makeRequest(info.name, 7, { [param.name]: value });
          // The engine refuses it...
          expect(errorOf(host, { type: 'init', request: completeRequest(scenarios, asked) }), `${info.name} ${param.name}=${value}`).toContain(param.name);
          // ...and takes what checkRequest makes of it: the same scenario and seed, that parameter at its default.
          const { request, problems } = checkRequest(scenarios, asked);
          expect(problems, `${info.name} ${param.name}=${value}`).toHaveLength(1);
          expect(problems[0]).toMatch(new RegExp(`^${param.name}: ${value} is not (a whole number )?from .* to .*; using the default, `));
          expect([request.name, request.seed, paramRecord(request)]).toEqual([info.name, 7, {}]);
          expect(frameOf(host, { type: 'init', request: completeRequest(scenarios, request) }).step).toBe(0);
        }
      }
    }
  });

  it('drops a parameter the scenario lacks and a variant the experiment lacks, and leaves good requests and unknown names alone', () => {
    const asked = makeRequest('kswapd-classzone', 3, { normal_pages: 8192, nope: 1 }, 'sideways');
    const { request, problems } = checkRequest(scenarios, asked);
    expect(problems).toEqual([
      'nope: kswapd-classzone has no such parameter (normal_pages, dma32_pages, readers, allocators, alloc_pages, bursts, burst_ms, gap_ms); ignored',
      'variant: "sideways" is not a variant of kswapd-classzone (before, after, merged-v4.12); using after',
    ]);
    expect(request).toEqual(makeRequest('kswapd-classzone', 3, { normal_pages: 8192 }, 'after'));
    expect(checkRequest(scenarios, makeRequest('mglru-basic', 1, {}, 'before')).problems).toEqual([
      'variant: mglru-basic is a scenario, not an experiment, and has no variants; ignored',
    ]);
    const good = completeRequest(scenarios, makeRequest('refault-distance-mglru', 2, {}, 'before'));
    expect(checkRequest(scenarios, good)).toEqual({ request: good, problems: [] });
    const unknown = makeRequest('no-such-scenario', 1, { x: 1 });
    expect(checkRequest(scenarios, unknown)).toEqual({ request: unknown, problems: [] });
  });

  it('points a key whose value names a scenario or an experiment (?experiment=NAME) to scenario=NAME', () => {
    const unknown = (search: string) => {
      const decoded = decodeScenarioUrl(search, scenarios.defaultScenario, (name, key, value) => unknownParameter(scenarios, name, key, value));
      return decoded.ok ? [] : decoded.errors;
    };
    const known = 'mglru-basic has no such parameter (memory_max, file_pages, anon_pages, zipf_s, anon_rate, reader_pattern, reader_op, tracked_pages); ignored';
    expect(scenarios.defaultScenario).toBe('mglru-basic');
    expect(unknown('?experiment=kswapd-classzone')).toEqual([`experiment: ${known}. kswapd-classzone is an experiment: a link opens it with scenario=kswapd-classzone`]);
    expect(unknown('?name=classic-basic')).toEqual([`name: ${known}. classic-basic is a scenario: a link opens it with scenario=classic-basic`]);
    // A value that names nothing, or the scenario already open, gets no pointer.
    expect(unknown('?experiment=nothing-here')).toEqual([`experiment: ${known}`]);
    expect(unknown('?scenario=mglru-basic&also=mglru-basic')).toEqual([`also: ${known}`]);
  });
});
