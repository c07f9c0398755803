// The scenario URL codec: which built-in scenario, with which seed and
// parameters, lives in the page's query string, e.g.
//
//   ?v=1&scenario=mglru-basic&seed=1&memory_max=2048
//   ?v=1&scenario=kswapd-classzone&seed=1&variant=before&bursts=10
//
// `scenario` may also be a whole scenario document (JSON starting with "{",
// custom.ts), which the engine runs as it is.
//
// `v` is this codec's version, `scenario`, `seed` and `variant` (which side
// of an experiment is stepped; absent for a plain scenario, and in URLs
// written before experiments existed) are reserved keys, and so are the
// page keys `step`, `tab`, `tour`, `tourStep` and `compare` (what the page shows of the
// run: pageUrl.ts reads them); every other key is a scenario parameter. The codec checks syntax only (versions,
// integers, numbers); the engine checks names and ranges. Decoding never
// throws: a bad value is reported (the message starts with the key) and
// ignored, so the rest of the URL still applies. An unsupported version makes
// the whole URL untrusted: the fallback request is used.
//
// Shared links (?v=2&s=..., compressed, with the step and the view) are
// read by share.ts before this codec sees the URL.
//
// DOM-free: it takes and returns strings and plain objects.
import type { ScenarioRequest } from '../engine/pkg/reclaim_core';
import { customDocument, isCustomName, MAX_CUSTOM_CHARS } from './custom';
import { MAX_QUOTED, quoted } from '../util/quoted';
import { makeRequest, paramEntries, withoutVariant } from './params';

/** The version this build writes and reads. Bump it when the meaning of a key changes. */
export const URL_CODEC_VERSION = 1;

/** The seed used when the URL has none (or an unusable one). */
export const DEFAULT_SEED = 1;

/** Keys that say what the page shows of the run rather than which run it is (pageUrl.ts reads them). */
export const PAGE_KEYS = ['step', 'tab', 'tour', 'tourStep', 'compare'] as const;
/** Keys of the query string that are not scenario parameters. */
export const RESERVED_KEYS = new Set<string>(['v', 'scenario', 'seed', 'variant', ...PAGE_KEYS]);
const SEED_PATTERN = /^\d+$/;
const NUMBER_PATTERN = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;
/** What a parameter name may look like (also in a shared link, share.ts). */
export const PARAM_NAME_PATTERN = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** What a scenario or variant name may look like (also in a shared link, share.ts). */
export const SCENARIO_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * What a link's scenario that cannot be a name gets, worded as the engine's
 * message for a name it does not know ("unknown scenario …"), so that the two
 * read alike: `shown` is the value as quoted for the message.
 */
export function unknownScenarioName(shown: string): string {
  return `unknown scenario ${shown} (a scenario's name is letters, digits, ".", "_" and "-", from a letter or digit)`;
}

export type DecodeResult =
  | { ok: true; request: ScenarioRequest }
  /** `whole`: nothing of the URL was used (a version this build does not read). */
  | { ok: false; errors: string[]; request: ScenarioRequest; whole?: boolean };

/** Serialises a request as a query string (with its leading `?`), keys in a stable order. */
export function encodeScenarioUrl(request: ScenarioRequest): string {
  if (!Number.isSafeInteger(request.seed) || request.seed < 0) {
    throw new RangeError(`seed must be a whole number from 0 to ${Number.MAX_SAFE_INTEGER}, got ${request.seed}`);
  }
  const query = new URLSearchParams();
  query.set('v', String(URL_CODEC_VERSION));
  query.set('scenario', request.name);
  query.set('seed', String(request.seed));
  if (request.variant !== undefined) {
    if (!SCENARIO_NAME_PATTERN.test(request.variant)) {
      throw new RangeError(`variant ${JSON.stringify(request.variant)} cannot be written to a URL`);
    }
    query.set('variant', request.variant);
  }
  const params = paramEntries(request).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  for (const [key, value] of params) {
    if (RESERVED_KEYS.has(key) || !PARAM_NAME_PATTERN.test(key)) {
      throw new RangeError(`parameter name ${JSON.stringify(key)} cannot be written to a URL`);
    }
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new RangeError(`parameter ${key} must be a finite number, got ${String(value)}`);
    }
    query.set(key, String(value));
  }
  return `?${query.toString()}`;
}

/**
 * Reads a request from a query string (`location.search`, with or without `?`).
 * `defaultScenario` (from the engine's `listScenarios()`) is used when the
 * URL names none. An empty query string is the default request. With
 * `noSuchParameter` (why a key is no parameter of a scenario the list
 * knows, else null), a key the scenario does not have is named as such
 * whatever its value, rather than as a value that is not a number.
 */
export function decodeScenarioUrl(
  search: string,
  defaultScenario: string,
  noSuchParameter?: (scenario: string, key: string, value: string) => string | null,
): DecodeResult {
  const fallback = makeRequest(defaultScenario, DEFAULT_SEED);
  const errors: string[] = [];
  const written = asWritten(search);
  const quotedValue = (text: string) => quoted(written.values.get(text) ?? text);
  const shown = (key: string) => {
    if (key === '') return '(a key with no name)';
    const text = written.keys.get(key) ?? key;
    return text.length > MAX_QUOTED ? quoted(text) : text;
  };

  // Group values by key so a repeated key is reported instead of silently picking one.
  const values = new Map<string, string[]>();
  for (const [key, value] of new URLSearchParams(search)) {
    const seen = values.get(key);
    if (seen) seen.push(value);
    else values.set(key, [value]);
  }
  const single = (key: string): string | undefined => {
    const all = values.get(key);
    if (!all) return undefined;
    if (all.length > 1) {
      errors.push(`${shown(key)}: given ${all.length} times; ignored`);
      return undefined;
    }
    return all[0];
  };

  const version = single('v');
  if (version !== undefined && version !== String(URL_CODEC_VERSION)) {
    return {
      ok: false,
      errors: [
        `v: unsupported URL version ${quoted(version)} (this build reads version ${URL_CODEC_VERSION}); ` +
          'the whole URL was ignored',
      ],
      request: fallback,
      whole: true,
    };
  }

  let name = defaultScenario;
  const scenario = single('scenario');
  if (scenario !== undefined) {
    if (SCENARIO_NAME_PATTERN.test(scenario)) name = scenario;
    else if (isCustomName(scenario) && scenario.length <= MAX_CUSTOM_CHARS) name = scenario;
    else if (isCustomName(scenario)) errors.push(`scenario: the custom scenario is longer than ${MAX_CUSTOM_CHARS} characters; using ${defaultScenario}`);
    else errors.push(`scenario: ${unknownScenarioName(quotedValue(scenario))}; using ${defaultScenario}`);
  }

  // A custom scenario's own seed, unless the link names one (`reclaim-sim run FILE.json` runs the file's).
  const documentSeed = isCustomName(name) ? customDocument({ name })?.seed : undefined;
  let seed = typeof documentSeed === 'number' && Number.isSafeInteger(documentSeed) && documentSeed >= 0 ? documentSeed : DEFAULT_SEED;
  const seedText = single('seed');
  if (seedText !== undefined) {
    const parsed = SEED_PATTERN.test(seedText) ? Number(seedText) : NaN;
    if (Number.isSafeInteger(parsed)) seed = parsed;
    else
      errors.push(`seed: ${quotedValue(seedText)} is not a seed (a whole number from 0 to ${Number.MAX_SAFE_INTEGER}); using ${seed}`);
  }

  let variant: string | undefined;
  const variantText = single('variant');
  if (variantText !== undefined) {
    if (SCENARIO_NAME_PATTERN.test(variantText)) variant = variantText;
    else errors.push(`variant: ${quotedValue(variantText)} is not a variant name; using the experiment's default`);
  }

  // No prototype: a key named __proto__ is a parameter like any other (the engine names it unknown).
  const params = Object.create(null) as Record<string, number>;
  for (const key of values.keys()) {
    if (RESERVED_KEYS.has(key)) continue;
    const text = single(key);
    if (text === undefined) continue;
    const meant = [...RESERVED_KEYS].find((k) => k.toLowerCase() === key.toLowerCase());
    if (meant !== undefined) {
      errors.push(`${shown(key)}: keys are case-sensitive; did you mean ${meant}? ignored`);
    } else if (!PARAM_NAME_PATTERN.test(key)) {
      errors.push(`${shown(key)}: not a parameter name (a letter or _, then letters, digits or _); ignored`);
    } else if (text.trim() === '') {
      errors.push(`${shown(key)}: no value given; using the scenario's default`);
    } else if (!NUMBER_PATTERN.test(text)) {
      errors.push(`${shown(key)}: ${noSuchParameter?.(name, key, text) ?? `${quotedValue(text)} is not a number; ignored`}`);
    } else {
      const value = Number(text);
      if (Number.isFinite(value)) params[key] = value;
      else errors.push(`${shown(key)}: ${quotedValue(text)} is too large; using the scenario's default`);
    }
  }

  const request = makeRequest(name, seed, params, variant);
  return errors.length === 0 ? { ok: true, request } : { ok: false, errors, request };
}

/**
 * The keys and the values of a query that do not read as they are written,
 * each by its decoded text, mapped to its text in the address, for
 * messages: URLSearchParams turns a byte that is not UTF-8 (`%FF`) into
 * U+FFFD and control characters into themselves, and a message naming
 * "\uFFFD" names nothing the reader can find in the link.
 */
export function asWritten(search: string): { keys: Map<string, string>; values: Map<string, string> } {
  const keys = new Map<string, string>();
  const values = new Map<string, string>();
  const note = (written: Map<string, string>, decoded: string | undefined, text: string) => {
    if (decoded !== undefined && /[\uFFFD\p{Cc}]/u.test(decoded) && !written.has(decoded)) written.set(decoded, text);
  };
  for (const pair of search.replace(/^\?/, '').split('&')) {
    const at = pair.indexOf('=');
    const key = at < 0 ? pair : pair.slice(0, at);
    const [[decodedKey, decodedValue] = []] = new URLSearchParams(pair);
    note(keys, decodedKey, key);
    if (at >= 0) note(values, decodedValue, pair.slice(at + 1));
  }
  return { keys, values };
}

/** Whether two requests are the same run (as their URLs say), optionally whatever their variant or seed. */
export function sameRun(a: ScenarioRequest, b: ScenarioRequest, ignore: { variant?: boolean; seed?: boolean } = {}): boolean {
  const key = (r: ScenarioRequest) => {
    const run = ignore.seed ? { ...r, seed: 0 } : r;
    return encodeScenarioUrl(ignore.variant ? withoutVariant(run) : run);
  };
  try {
    return key(a) === key(b);
  } catch {
    return false;
  }
}
