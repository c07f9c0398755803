// Requests built from the engine's own list of scenarios and experiments: the
// default run of a scenario, and a request completed with the defaults of the
// parameters (and, for an experiment, the variant) it leaves out. Parameter
// names, defaults, ranges and variants always come from `listScenarios()`;
// nothing here knows a scenario by name.
import type { ExperimentInfo, ParamInfo, ScenarioInfo, ScenarioList, ScenarioRequest } from '../engine/pkg/reclaim_core';
import { formatCount } from '../util/format';
import { makeRequest, paramRecord } from './params';
import { DEFAULT_SEED } from './url';

/** The variant the engine builds when a request names none. */
export const ENGINE_DEFAULT_VARIANT = 'after';

/**
 * A scenario or an experiment by name. An experiment is a scenario too (its
 * variants can be stepped like any scenario), so both lists are searched.
 */
export function findScenario(list: ScenarioList, name: string): ScenarioInfo | undefined {
  return list.scenarios.find((s) => s.name === name) ?? findExperiment(list, name);
}

export function findExperiment(list: ScenarioList, name: string): ExperimentInfo | undefined {
  return list.experiments.find((e) => e.name === name);
}

/** The variant an experiment opens with: the engine's default ("after") when it has one. */
export function defaultVariant(experiment: ExperimentInfo): string | undefined {
  const names = experiment.variants.map((v) => v.name);
  return names.includes(ENGINE_DEFAULT_VARIANT) ? ENGINE_DEFAULT_VARIANT : names[0];
}

export function paramDefaults(info: ScenarioInfo): Record<string, number> {
  return Object.fromEntries(info.params.map((p) => [p.name, p.default]));
}

/** The named scenario or experiment (default: the list's default scenario) with every parameter at its default. */
export function defaultRequest(list: ScenarioList, name = list.defaultScenario, seed = DEFAULT_SEED): ScenarioRequest {
  const info = findScenario(list, name) ?? findScenario(list, list.defaultScenario);
  const experiment = info && findExperiment(list, info.name);
  return makeRequest(
    info?.name ?? list.defaultScenario,
    seed,
    info ? paramDefaults(info) : {},
    experiment && defaultVariant(experiment),
  );
}

/**
 * Fills in the defaults of the parameters a request leaves out, and an
 * experiment's default variant, so the URL written back names everything
 * about the run. Unknown scenarios, parameters and variants are kept as they
 * are: the engine rejects them with a message the user sees.
 */
export function completeRequest(list: ScenarioList, request: ScenarioRequest): ScenarioRequest {
  const info = findScenario(list, request.name);
  if (!info) return request;
  const experiment = findExperiment(list, request.name);
  const variant = request.variant ?? (experiment && defaultVariant(experiment));
  return makeRequest(request.name, request.seed, { ...paramDefaults(info), ...paramRecord(request) }, variant);
}

/** Why a value is not acceptable for a parameter (null when it is); mirrors the engine's checks for the form. */
export function paramProblem(param: ParamInfo, value: number): string | null {
  if (!Number.isFinite(value)) return 'enter a number';
  if (param.integer && !Number.isInteger(value)) return 'enter a whole number';
  if (value < param.min || value > param.max) return `from ${formatCount(param.min)} to ${formatCount(param.max)}`;
  return null;
}

/** Why a key is no parameter of `info` (the message after "KEY: "). */
function noSuchParameter(info: ScenarioInfo): string {
  const known = info.params.map((p) => p.name).join(', ');
  return `${info.name} has no such parameter (${known || 'it has none'}); ignored`;
}

/**
 * Why `key` is no parameter of the scenario or experiment named `name`, or
 * null where it is one or the list does not know the name (the URL codec
 * asks, for keys whose value it cannot read). A `value` that names another
 * scenario or experiment (`?experiment=kswapd-classzone`) is pointed to the
 * key that opens it.
 */
export function unknownParameter(list: ScenarioList, name: string, key: string, value?: string): string | null {
  const info = findScenario(list, name);
  if (!info || info.params.some((p) => p.name === key)) return null;
  // ?experiment=kswapd-classzone: the value names what the reader meant to open.
  const meant = value !== undefined && value !== name ? findScenario(list, value) : undefined;
  if (!meant) return noSuchParameter(info);
  const kind = findExperiment(list, meant.name) ? 'an experiment' : 'a scenario';
  return `${noSuchParameter(info)}. ${meant.name} is ${kind}: a link opens it with scenario=${meant.name}`;
}

/**
 * A request from outside (a URL, a shared link) made one the engine takes,
 * problem by problem rather than as a whole: for a scenario or experiment
 * of the list, a parameter it does not have is dropped, a value the engine
 * would refuse goes back to the parameter's default, and a variant the
 * experiment does not have to its default variant; each with a message
 * naming it and what is accepted. A name the list does not know (a custom
 * scenario, or a typo the engine reports) is left as it is.
 */
export function checkRequest(list: ScenarioList, request: ScenarioRequest): { request: ScenarioRequest; problems: string[] } {
  const info = findScenario(list, request.name);
  if (!info) return { request, problems: [] };
  const problems: string[] = [];
  const params: Record<string, number> = {};
  for (const [key, value] of Object.entries(paramRecord(request))) {
    const param = info.params.find((p) => p.name === key);
    if (!param) {
      problems.push(`${key}: ${noSuchParameter(info)}`);
      continue;
    }
    const problem = paramProblem(param, value);
    if (problem === null) params[key] = value;
    else {
      const accepted = `${param.integer ? 'a whole number ' : ''}from ${formatCount(param.min)} to ${formatCount(param.max)}`;
      problems.push(`${key}: ${value} is not ${accepted}; using the default, ${formatCount(param.default)}`);
    }
  }
  const experiment = findExperiment(list, info.name);
  let variant = request.variant;
  if (variant !== undefined) {
    const names = experiment?.variants.map((v) => v.name) ?? [];
    if (!experiment) {
      problems.push(`variant: ${info.name} is a scenario, not an experiment, and has no variants; ignored`);
      variant = undefined;
    } else if (!names.includes(variant)) {
      const fallback = defaultVariant(experiment);
      problems.push(`variant: ${JSON.stringify(variant)} is not a variant of ${info.name} (${names.join(', ')}); using ${fallback}`);
      variant = fallback;
    }
  }
  return { request: makeRequest(request.name, request.seed, params, variant), problems };
}
