// The engine's own check of a scenario document (validateScenario), on the
// page's thread: it only reads and validates the JSON (no simulation), so it
// answers at once, and the stepping worker is not held up by it. The wasm
// module is loaded on first use.
import init, { validateScenario, type ScenarioCheck } from '../engine/pkg/reclaim_core';

let loading: Promise<unknown> | null = null;

/** Every problem the engine finds with a scenario file's text (each naming its field). */
export async function engineCheck(json: string): Promise<ScenarioCheck> {
  loading ??= init().catch((error: unknown) => {
    loading = null;
    throw error;
  });
  await loading;
  return validateScenario(json);
}
