// The UI's engine constants come from the engine (pkg/engine-constants.json,
// written by the build from engineConstants()); where the UI keeps a list of
// its own for labels (the run kinds, the editor's zone choices, the event an
// experiment's page first offers), it must name exactly what the engine has.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import init, { engineConstants, listScenarios } from '../../web/src/engine/pkg/reclaim_core';
import written from '../../web/src/engine/pkg/engine-constants.json';
import { EXPERIMENT_RUN_KIND, SCENARIO_RUN_KIND, MAX_SEEK_STEP, RUN_KINDS } from '../../web/src/engine/protocol';
import { ZONE_NAMES as EDITOR_ZONES } from '../../web/src/editor/model';
import { MEMCG_NR_BINS, MEMCG_NR_GENS } from '../../web/src/views/memcg-lru/model';
import { ZONE_NAMES } from '../../web/src/views/zones/model';

const WASM = new URL('../../web/src/engine/pkg/reclaim_core_bg.wasm', import.meta.url);

beforeAll(async () => {
  await init({ module_or_path: readFileSync(WASM) });
});

describe('engine constants', () => {
  it('are the ones the engine gives now (the written file is not stale)', () => {
    expect(written).toEqual(engineConstants());
    expect(MAX_SEEK_STEP).toBe(10_000_000);
    expect([MEMCG_NR_GENS, MEMCG_NR_BINS]).toEqual([3, 8]);
    expect(ZONE_NAMES).toEqual(['DMA', 'DMA32', 'Normal', 'Movable']);
  });

  it("name in the UI's own lists exactly what the engine has", () => {
    const engine = engineConstants();
    expect(RUN_KINDS.map((k) => k.kind)).toEqual(engine.runKinds);
    expect([...EDITOR_ZONES]).toEqual(engine.zoneNames);
    const experiments = listScenarios().experiments.map((e) => e.name);
    expect(Object.keys(EXPERIMENT_RUN_KIND).sort()).toEqual([...experiments].sort());
    const scenarios = listScenarios().scenarios.map((s) => s.name);
    for (const name of Object.keys(SCENARIO_RUN_KIND)) expect(scenarios).toContain(name);
  });
});
