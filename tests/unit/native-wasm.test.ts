// One engine, two front doors: the same scenario and seed give the same
// /proc/vmstat counters from the native `reclaim-sim run --json` and from
// the WebAssembly build (the one the browser runs), bit for bit.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import init, { Engine } from '../../web/src/engine/pkg/reclaim_core';
import { makeParams } from '../../web/src/scenario/params';

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
