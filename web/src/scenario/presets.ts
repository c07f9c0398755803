// Requests built from the engine's own list of scenarios: the default run of
// a scenario, and a request completed with the defaults of the parameters it
// leaves out. Parameter names, defaults and ranges always come from
// `listScenarios()`; nothing here knows a scenario by name.
import type { ParamInfo, ScenarioInfo, ScenarioList, ScenarioRequest } from '../engine/pkg/reclaim_core';
import { makeRequest, paramRecord } from './params';
import { DEFAULT_SEED } from './url';

export function findScenario(list: ScenarioList, name: string): ScenarioInfo | undefined {
  return list.scenarios.find((s) => s.name === name);
}

export function paramDefaults(info: ScenarioInfo): Record<string, number> {
  return Object.fromEntries(info.params.map((p) => [p.name, p.default]));
}

/** The named scenario (default: the list's default scenario) with every parameter at its default. */
export function defaultRequest(list: ScenarioList, name = list.defaultScenario, seed = DEFAULT_SEED): ScenarioRequest {
  const info = findScenario(list, name) ?? findScenario(list, list.defaultScenario);
  return makeRequest(info?.name ?? list.defaultScenario, seed, info ? paramDefaults(info) : {});
}

/**
 * Fills in the defaults of the parameters a request leaves out, so the URL
 * written back names every parameter of the run. Unknown scenarios and
 * unknown parameters are kept as they are: the engine rejects them with a
 * message the user sees.
 */
export function completeRequest(list: ScenarioList, request: ScenarioRequest): ScenarioRequest {
  const info = findScenario(list, request.name);
  if (!info) return request;
  return makeRequest(request.name, request.seed, { ...paramDefaults(info), ...paramRecord(request) });
}

/** Why a value is not acceptable for a parameter (null when it is); mirrors the engine's checks for the form. */
export function paramProblem(param: ParamInfo, value: number): string | null {
  if (!Number.isFinite(value)) return 'enter a number';
  if (param.integer && !Number.isInteger(value)) return 'enter a whole number';
  if (value < param.min || value > param.max) return `between ${param.min} and ${param.max}`;
  return null;
}
