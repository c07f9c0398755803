// Shared links: a run and what the page showed of it, in one versioned,
// compressed query parameter (url.ts keeps reading the plain v=1 form):
//
//   ?v=2&s=<payload>
//   payload = base64url( CRC-32 of the JSON (4 bytes) ++ deflate-raw(JSON) )
//   JSON    = {"scenario":"mglru-basic","seed":1,"params":{"memory_max":2048},
//              "step":25,"previous":24,"tab":"lru"}
//             (+ "variant", "comparison": {"seed","params"}, "folio", "lruvec" when set;
//              "comparison": {..., "seeds": true} when it was checked on seeds 1-5;
//              "ranges": true when the experiment was checked across its parameter ranges)
//             (+ "compare": {"variants": ["before","after"], "step": 20} in compare mode)
//   a custom scenario (custom.ts): "scenario": "custom", "custom": {...the document...}
//             and no "params", "variant", "comparison" or "ranges"
//
// The compression is the browser's own (CompressionStream 'deflate-raw').
// The check is the CRC-32 that CompressionStream('gzip') writes in its
// trailer (RFC 1952), so a link that was changed or cut is caught even when
// it still inflates. Decoding never throws: it names what is wrong with the
// link. Like url.ts, the codec checks the form of every value (and bounds the
// step); the engine checks scenario, parameter and variant names and ranges.
//
// DOM-free: it needs only CompressionStream, Blob, atob/btoa and TextEncoder
// (browsers and Node >= 20).
import { MAX_SEEK_STEP } from '../engine/protocol';
import type { ScenarioRequest } from '../engine/pkg/reclaim_core';
import { customDocument, isCustomRequest } from './custom';
import { LinkProblem, checksum, fail, fromBase64Url, inflate, pipe, toBase64Url } from './shareBytes';
import { makeRequest, paramEntries } from './params';
import { PARAM_NAME_PATTERN, RESERVED_KEYS, SCENARIO_NAME_PATTERN, unknownScenarioName } from './url';
import { quoted } from '../util/quoted';

/** The `v` of a shared link. */
export const SHARE_VERSION = 2;
/** The views a link can select (the page's tabs). */
export const SHARE_TABS = ['comparison', 'lru', 'system', 'memcgs', 'shadows'] as const;
export type ShareTab = (typeof SHARE_TABS)[number];
/** The tabs' names as the page shows them. */
export const TAB_LABELS: Record<ShareTab, string> = { comparison: 'Comparison', lru: 'LRU', system: 'System', memcgs: 'Memcgs', shadows: 'Shadows' };
/** The largest step a link may ask for: as far as Go to step goes (a link's step is reached by a seek). */
export const MAX_SHARED_STEP = MAX_SEEK_STEP;
/** Longest payload read, in characters (a link is a few hundred). */
export const MAX_PAYLOAD_CHARS = 4096;
/** The `scenario` of a link that carries a custom scenario's document in `custom`. */
export const CUSTOM_SCENARIO = 'custom';
/** Largest JSON a payload may inflate to, in bytes. */
export const MAX_JSON_BYTES = 16 * 1024;
/** Longest folio or lruvec key read. */
const MAX_KEY_CHARS = 200;
const CHECK_BYTES = 4;

/** What a shared link reproduces: the run, how far it was stepped, and what was on screen. */
export interface SharedView {
  /** Scenario, seed, parameters and (for an experiment) variant. */
  request: ScenarioRequest;
  /** The step the engine was at. */
  step: number;
  /** The step of the frame shown before it (the counters' Δ column), when there was one. */
  previous?: number;
  tab: ShareTab;
  /** The run an experiment's comparison table was of (no variant; same scenario), when one was shown. */
  comparison?: ScenarioRequest;
  /** Whether that comparison was also checked on seeds 1 to 5 (the table's seeds column). */
  seedCheck?: boolean;
  /** Whether the experiment's headlines were checked across its parameter ranges (Check the ranges). */
  rangeCheck?: boolean;
  /** The selected tracked folio ("file:reader#120"). */
  folio?: string;
  /** The lruvec chosen from the list when there are many. */
  lruvec?: string;
  /** Compare mode: the two variants stepped side by side, and their step. */
  compare?: CompareView;
}

/** Compare mode as a link keeps it. */
export interface CompareView {
  /** The variants on the left and on the right. */
  variants: [string, string];
  /** The step both sides were at. */
  step: number;
  /** The step their counters' Δ was taken since (the frame shown before), when earlier: the link goes there first. */
  previous?: number;
}

export type SharedLink =
  /** Not a shared link (no `s`, and `v` absent or 1): url.ts reads it. */
  | { kind: 'none' }
  | { kind: 'ok'; view: SharedView }
  /** What is wrong with the link, naming the part ("bad base64: ..."). */
  | { kind: 'error'; problem: string };

// ---------- the JSON ----------

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * A JSON value as a message shows it: what the link held, not the stand-ins
 * JSON.stringify writes ("null" for a number too large to read, nothing for
 * a missing field).
 */
function shown(value: unknown): string {
  if (typeof value === 'number' && !Number.isFinite(value)) return 'a number too large to read';
  return JSON.stringify(value);
}

function wholeNumber(value: unknown, field: string, max: number, what: string): number {
  if (value === undefined) return fail(`${field}: missing (a whole number from 0 to ${max})`);
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    return fail(`${field}: ${shown(value)} is not a whole number from 0 to ${max}`);
  }
  if (value > max) return fail(`${field}: ${value} is too large (${what} is at most ${max})`);
  return value;
}

function seedOf(value: unknown, field: string): number {
  return wholeNumber(value, field, Number.MAX_SAFE_INTEGER, 'a seed');
}

function paramsOf(value: unknown, field: string): Record<string, number> {
  if (!isObject(value)) return fail(`${field}: not an object of parameter values`);
  // No prototype: a parameter named __proto__ is kept (the engine names it unknown), not swallowed.
  const params = Object.create(null) as Record<string, number>;
  for (const [key, v] of Object.entries(value)) {
    if (RESERVED_KEYS.has(key) || !PARAM_NAME_PATTERN.test(key)) fail(`${field}: ${quoted(key)} is not a parameter name`);
    if (typeof v !== 'number' || !Number.isFinite(v)) fail(`${field}.${key}: ${shown(v)} is not a number`);
    params[key] = v as number;
  }
  return params;
}

function nameOf(value: unknown, field: string, what: string): string {
  if (typeof value !== 'string' || !SCENARIO_NAME_PATTERN.test(value)) {
    return fail(`${field}: ${quoted(value)} is not ${what}`);
  }
  return value;
}

function keyOf(value: unknown, field: string): string {
  // eslint-disable-next-line no-control-regex
  if (typeof value !== 'string' || value.length === 0 || value.length > MAX_KEY_CHARS || /[\u0000-\u001f]/.test(value)) {
    return fail(`${field}: not a key of at most ${MAX_KEY_CHARS} printable characters`);
  }
  return value;
}

const FIELDS = ['scenario', 'seed', 'params', 'variant', 'step', 'previous', 'tab', 'comparison', 'ranges', 'folio', 'lruvec', 'compare', 'custom'];

function compareOf(value: unknown): CompareView {
  if (!isObject(value)) return fail('compare: not an object');
  for (const key of Object.keys(value)) if (key !== 'variants' && key !== 'step' && key !== 'previous') fail(`compare: unknown field ${quoted(key)}`);
  const { variants } = value;
  if (!Array.isArray(variants) || variants.length !== 2) return fail('compare.variants: not a pair of variant names');
  const pair: [string, string] = [
    nameOf(variants[0], 'compare.variants[0]', 'a variant name'),
    nameOf(variants[1], 'compare.variants[1]', 'a variant name'),
  ];
  const step = wholeNumber(value.step, 'compare.step', MAX_SHARED_STEP, 'a step');
  if (value.previous === undefined) return { variants: pair, step };
  const previous = wholeNumber(value.previous, 'compare.previous', MAX_SHARED_STEP, 'a step');
  if (previous >= step) fail(`compare.previous: ${previous} is not before compare.step ${step}`);
  return { variants: pair, step, previous };
}

/** The request name of a custom scenario's document (checked for form only; the engine validates it). */
function customNameOf(json: Record<string, unknown>): string {
  if (json.scenario !== CUSTOM_SCENARIO) fail(`scenario: a link with a custom scenario names it ${JSON.stringify(CUSTOM_SCENARIO)}`);
  if (!isObject(json.custom)) return fail('custom: not a scenario document (a JSON object)');
  if (json.variant !== undefined || json.comparison !== undefined) fail('custom: a custom scenario has no variant or comparison');
  if (json.params !== undefined && (!isObject(json.params) || Object.keys(json.params).length > 0)) {
    fail('custom: a custom scenario takes no parameters');
  }
  return JSON.stringify(json.custom);
}

/** Checks the decoded JSON field by field; throws a LinkProblem naming the first bad one. */
function viewOf(json: unknown): SharedView {
  if (!isObject(json)) return fail('bad JSON: the payload is not an object');
  for (const key of Object.keys(json)) if (!FIELDS.includes(key)) fail(`unknown field ${JSON.stringify(key)}`);
  if (json.custom === undefined && (typeof json.scenario !== 'string' || !SCENARIO_NAME_PATTERN.test(json.scenario))) {
    fail(`scenario: ${unknownScenarioName(quoted(json.scenario))}`);
  }
  const name = json.custom !== undefined ? customNameOf(json) : (json.scenario as string);
  const seed = seedOf(json.seed, 'seed');
  const params = paramsOf(json.params ?? {}, 'params');
  const variant = json.variant === undefined ? undefined : nameOf(json.variant, 'variant', 'a variant name');
  const step = wholeNumber(json.step, 'step', MAX_SHARED_STEP, 'a step');
  const view: SharedView = { request: makeRequest(name, seed, params, variant), step, tab: 'lru' };
  if (json.previous !== undefined) {
    const previous = wholeNumber(json.previous, 'previous', MAX_SHARED_STEP, 'a step');
    if (previous >= step) fail(`previous: ${previous} is not before step ${step}`);
    view.previous = previous;
  }
  if (json.tab === undefined) fail(`tab: missing (one of ${SHARE_TABS.join(', ')})`);
  if (typeof json.tab !== 'string' || !(SHARE_TABS as readonly string[]).includes(json.tab)) {
    fail(`tab: ${shown(json.tab)} is not a view (${SHARE_TABS.join(', ')})`);
  }
  view.tab = json.tab as ShareTab;
  if (json.comparison !== undefined) {
    const c = json.comparison;
    if (!isObject(c)) return fail('comparison: not an object');
    for (const key of Object.keys(c)) if (key !== 'seed' && key !== 'params' && key !== 'seeds') fail(`comparison: unknown field ${JSON.stringify(key)}`);
    view.comparison = makeRequest(name, seedOf(c.seed, 'comparison.seed'), paramsOf(c.params ?? {}, 'comparison.params'));
    if (c.seeds !== undefined) {
      if (c.seeds !== true) fail(`comparison.seeds: ${JSON.stringify(c.seeds)} is not true (left out when the seeds were not checked)`);
      view.seedCheck = true;
    }
  }
  if (json.ranges !== undefined) {
    if (json.ranges !== true) fail(`ranges: ${JSON.stringify(json.ranges)} is not true (left out when the ranges were not checked)`);
    if (json.custom !== undefined) fail('ranges: a custom scenario has no parameter ranges to check');
    view.rangeCheck = true;
  }
  if (json.folio !== undefined) view.folio = keyOf(json.folio, 'folio');
  if (json.lruvec !== undefined) view.lruvec = keyOf(json.lruvec, 'lruvec');
  if (json.compare !== undefined) view.compare = compareOf(json.compare);
  return view;
}

const sortedParams = (request: ScenarioRequest) =>
  Object.fromEntries(paramEntries(request).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** The JSON a view is written as (fields in a stable order, parameters sorted). */
function jsonOf(view: SharedView): Record<string, unknown> {
  const { request } = view;
  const custom = isCustomRequest(request) ? customDocument(request) : null;
  if (isCustomRequest(request) && !custom) throw new RangeError('cannot share this view: its custom scenario is not a JSON object');
  const json: Record<string, unknown> = custom
    ? { scenario: CUSTOM_SCENARIO, custom, seed: request.seed }
    : { scenario: request.name, seed: request.seed, params: sortedParams(request) };
  if (request.variant !== undefined) json.variant = request.variant;
  json.step = view.step;
  if (view.previous !== undefined) json.previous = view.previous;
  json.tab = view.tab;
  if (view.comparison) {
    json.comparison = { seed: view.comparison.seed, params: sortedParams(view.comparison), ...(view.seedCheck ? { seeds: true } : {}) };
  }
  if (view.rangeCheck) json.ranges = true;
  if (view.folio !== undefined) json.folio = view.folio;
  if (view.lruvec !== undefined) json.lruvec = view.lruvec;
  if (view.compare) {
    const { variants, step, previous } = view.compare;
    json.compare = previous !== undefined && previous < step ? { variants: [...variants], step, previous } : { variants: [...variants], step };
  }
  return json;
}

// ---------- the link ----------

/** Packs JSON text into a payload (checksum, then raw deflate), base64url. Exported for tests that craft payloads. */
export async function packPayload(text: string): Promise<string> {
  const bytes = new TextEncoder().encode(text);
  const [check, deflated] = await Promise.all([checksum(bytes), pipe(bytes, new CompressionStream('deflate-raw'))]);
  const packed = new Uint8Array(CHECK_BYTES + deflated.length);
  packed.set(check, 0);
  packed.set(deflated, CHECK_BYTES);
  return toBase64Url(packed);
}

/**
 * The query string (with its `?`) of a link to this view. Throws a
 * RangeError for a view no link could carry (what decoding would refuse).
 */
export async function encodeSharedView(view: SharedView): Promise<string> {
  const json = jsonOf(view);
  try {
    viewOf(json);
  } catch (error) {
    if (error instanceof LinkProblem) throw new RangeError(`cannot share this view: ${error.message}`);
    throw error;
  }
  const text = JSON.stringify(json);
  if (new TextEncoder().encode(text).length > MAX_JSON_BYTES) {
    throw new RangeError(`cannot share this view: it is more than ${MAX_JSON_BYTES} bytes (save the scenario as a file instead)`);
  }
  const payload = await packPayload(text);
  if (payload.length > MAX_PAYLOAD_CHARS) {
    throw new RangeError(`cannot share this view: the link would be ${payload.length} characters (at most ${MAX_PAYLOAD_CHARS}); save the scenario as a file instead`);
  }
  const query = new URLSearchParams({ v: String(SHARE_VERSION), s: payload });
  return `?${query.toString()}`;
}

/**
 * The payload as written, without what mail and chat programs add to a
 * link they wrap or quote: whitespace and line breaks inside it, and
 * punctuation after it ("see <link>." or "(<link>)"). None of these can be
 * part of a payload, and the checksum still catches any other change.
 */
export function cleanPayload(payload: string): string {
  return payload.replace(/\s+/g, '').replace(/[.,;:!?)\]}>'"]+$/, '');
}

async function unpack(written: string): Promise<SharedView> {
  const payload = cleanPayload(written);
  if (payload.length > MAX_PAYLOAD_CHARS) fail(`payload too long: ${payload.length} characters (at most ${MAX_PAYLOAD_CHARS})`);
  const bytes = fromBase64Url(payload);
  if (bytes.length <= CHECK_BYTES) fail('payload too short: the link was cut');
  const text = await inflate(bytes.subarray(CHECK_BYTES), MAX_JSON_BYTES);
  const expected = await checksum(text);
  if (expected.some((b, i) => b !== bytes[i])) fail('checksum mismatch: the payload was changed or cut');
  let decoded: string;
  try {
    decoded = new TextDecoder('utf-8', { fatal: true }).decode(text);
  } catch {
    return fail('bad UTF-8 in the payload');
  }
  let json: unknown;
  try {
    json = JSON.parse(decoded);
  } catch (error) {
    return fail(`bad JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  return viewOf(json);
}

/**
 * Reads a shared link from a query string (`location.search`). Other keys
 * are ignored (messengers append their own). Never throws.
 */
export async function decodeSharedLink(search: string): Promise<SharedLink> {
  const query = new URLSearchParams(search);
  const versions = query.getAll('v');
  const payloads = query.getAll('s');
  if (payloads.length === 0 && (versions.length === 0 || (versions.length === 1 && versions[0] === '1'))) {
    return { kind: 'none' };
  }
  try {
    if (versions.length === 0) fail(`v: missing (a shared link starts with v=${SHARE_VERSION})`);
    if (versions.length > 1) fail(`v: given ${versions.length} times`);
    if (versions[0] !== String(SHARE_VERSION)) {
      fail(
        versions[0] === '1'
          ? `wrong version: v=1 with a payload (s=); a shared link with a payload is v=${SHARE_VERSION}`
          : `wrong version: v=${quoted(versions[0])}; this build reads version ${SHARE_VERSION} links (with a payload, s=) and version 1 links (without one)`,
      );
    }
    if (payloads.length === 0) fail('s: missing (the link has no payload)');
    if (payloads.length > 1) fail(`s: given ${payloads.length} times`);
    return { kind: 'ok', view: await unpack(payloads[0]!) };
  } catch (error) {
    if (error instanceof LinkProblem) return { kind: 'error', problem: error.message };
    return { kind: 'error', problem: `unreadable link: ${error instanceof Error ? error.message : String(error)}` };
  }
}
