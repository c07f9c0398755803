// One engine, two front doors: the same scenario and seed give the same
// /proc/vmstat counters from the native `reclaim-sim run --json` and from
// the WebAssembly build (the one the browser runs), bit for bit; and the
// app's Export JSON of a comparison is what `reclaim-sim compare --json`
// prints, names and figures.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import init, { Engine, compareExperiment, listScenarios } from '../../web/src/engine/pkg/reclaim_core';
import { exportJson } from '../../web/src/export/tables';
import { comparisonTable } from '../../web/src/views/comparison/model';
import { makeParams, makeRequest } from '../../web/src/scenario/params';

const WASM = new URL('../../web/src/engine/pkg/reclaim_core_bg.wasm', import.meta.url);
// Built by `node scripts/rl.mjs test` before Vitest runs.
const SIM = fileURLToPath(new URL('../../wasm-core/target/release/reclaim-sim', import.meta.url));

const cases: { name: string; seed: number; steps: number; params: Record<string, number> }[] = [
  { name: 'mglru-basic', seed: 3, steps: 150, params: { anon_pages: 3000 } },
  { name: 'classic-basic', seed: 5, steps: 150, params: { reader_op: 3 } },
  { name: 'global-pressure', seed: 2, steps: 200, params: {} },
  { name: 'proactive-root', seed: 1, steps: 120, params: { memcgs: 8, batch: 1 } },
  { name: 'refaults', seed: 2, steps: 300, params: { lru_gen: 1, refault_distance: 1 } },
  { name: 'scan-resistance', seed: 4, steps: 200, params: { lru_gen: 0 } },
  // Past 3 s, where reclaim throttles on the disk's writeback.
  { name: 'slow-disk', seed: 1, steps: 450, params: {} },
];

beforeAll(async () => {
  if (!existsSync(SIM)) throw new Error(`${SIM} is missing: run \`node scripts/rl.mjs test\` (it builds the release binary first)`);
  await init({ module_or_path: readFileSync(WASM) });
});

describe('native and wasm give the same counters', () => {
  for (const c of cases) {
    it(`${c.name} seed ${c.seed}, ${c.steps} steps`, () => {
      const args = ['run', c.name, '--json', '--seed', String(c.seed), '--steps', String(c.steps)];
      for (const [k, v] of Object.entries(c.params)) args.push('--param', `${k}=${v}`);
      const native = JSON.parse(execFileSync(SIM, args, { encoding: 'utf8' })) as { vmstat: Record<string, number> };

      const engine = new Engine({ name: c.name, seed: c.seed, params: makeParams(c.params) });
      const frame = engine.step(c.steps);
      engine.free();
      const wasm = Object.fromEntries(frame.counters.map((k) => [k.name, k.value]));

      expect(wasm).toEqual(native.vmstat);
      // The run did real work, so equality is not trivially of zeros.
      expect(native.vmstat.pgfree ?? 0).toBeGreaterThan(0);
    });
  }
});

describe("the app's comparison export is `reclaim-sim compare --json`", () => {
  // Small points, so that both run in about a second; two experiments with a third variant and a headline against it.
  const points: { name: string; seed: number; params: Record<string, number> }[] = [
    { name: 'proactive-reclaim-batching', seed: 2, params: { children: 16 } },
    { name: 'kswapd-classzone', seed: 3, params: { bursts: 3 } },
  ];
  for (const p of points) {
    it(`${p.name} seed ${p.seed}`, () => {
      const args = ['compare', p.name, '--json', '--seed', String(p.seed)];
      for (const [k, v] of Object.entries(p.params)) args.push('--param', `${k}=${v}`);
      const native = JSON.parse(execFileSync(SIM, args, { encoding: 'utf8' })) as Record<string, unknown>;

      const experiment = listScenarios().experiments.find((e) => e.name === p.name)!;
      const request = makeRequest(p.name, p.seed, p.params, 'after');
      const table = comparisonTable(experiment, compareExperiment(request));
      const run = { request, step: 0, timeNs: 0, counters: [], previous: null };
      const exported = JSON.parse(exportJson(run, table)).comparison as Record<string, unknown>;

      // Everything the command line prints, under its names, with its figures.
      for (const key of Object.keys(native)) expect(exported[key], key).toEqual(native[key]);
      expect(Object.keys(native).sort()).toEqual(['experiment', 'headlines', 'params', 'seed', 'variants']);
      // Besides, the page's change column, a headline against its own baseline.
      const changes = exported.changes as Record<string, { baseline: string }>;
      const headlines = native.headlines as { metric: string; baseline: string }[];
      for (const h of headlines) expect(changes[h.metric]!.baseline).toBe(h.baseline);
    });
  }
});
