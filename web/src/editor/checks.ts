// The editor's checks, and where their messages go. Every input has a key:
// the path of its field in the scenario document, as the engine names it in
// a ScenarioError ("workloads[1].pattern.s", "nodes[0].zones[0].pages",
// "knobs.swappiness"). The page checks what the engine cannot see in a
// document (text that is not a number, a required value left empty); the
// engine (validateScenario) checks the rest, and its problem goes next to
// the input with the same key, or, for a field without an input
// ("memcgs", "workloads[2]", "proactive[0].count"), next to the nearest
// enclosing group that has a place for messages, else at the top of the form.
//
// DOM-free.
import { MAX_CUSTOM_CHARS } from '../scenario/custom';
import { workloadShows } from './draft';
import { BOOL_KNOBS, type Draft } from './model';

/** A problem found by the page or by the engine, at a field's key. */
export interface Problem {
  field: string;
  message: string;
}

/** The key of messages about the whole form. */
export const FORM_KEY = '';

const U32_MAX = 4_294_967_295;
/** The most CPUs a machine may have (Scenario::validate). */
const MAX_CPUS = 4096;
const WHOLE = /^\d+$/;
const DECIMAL = /^(?:\d+(?:\.\d*)?|\.\d+)$/;

const EXPONENT = /^(?:\d+(?:\.\d*)?|\.\d+)[eE][+-]?\d+$/;

/** The limit of a field, and why the page's largest is below reclaim-sim's (u64) when it is. */
function atMost(max: number): string {
  const shown = `at most ${max.toLocaleString('en-US')}`;
  return max === Number.MAX_SAFE_INTEGER ? `${shown}, the largest whole number the page holds exactly (reclaim-sim reads files up to 18,446,744,073,709,551,615)` : shown;
}

/**
 * Why `text` is not a whole number from 0 to `max` (null when it is); `optional`: empty is allowed.
 * Digits only, as the document has them (its JSON reads 1e3 as no whole number): a number written
 * with an exponent gets its digits to write instead.
 */
export function wholeProblem(text: string, max = Number.MAX_SAFE_INTEGER, optional = false): string | null {
  const t = text.trim();
  if (t === '') return optional ? null : 'required';
  if (EXPONENT.test(t)) {
    const v = Number(t);
    if (!Number.isInteger(v) || v < 0) return 'a whole number ≥ 0';
    if (!Number.isSafeInteger(v) || v > max) return `${atMost(max)}, in digits`;
    return `in digits: ${v}`;
  }
  if (!WHOLE.test(t)) return 'a whole number ≥ 0';
  const v = Number(t);
  if (!Number.isSafeInteger(v) || v > max) return atMost(max);
  return null;
}

/** Why `text` is not a number of milliseconds that is a whole number of nanoseconds. */
export function msProblem(text: string, optional = true): string | null {
  const t = text.trim();
  if (t === '') return optional ? null : 'required';
  if (!DECIMAL.test(t)) return 'a number of milliseconds ≥ 0';
  const ns = Number(t) * 1_000_000;
  // Past 2^53 ns (about 104 days) a time is no longer whole nanoseconds; the fields' own limits are far below.
  if (!Number.isSafeInteger(Math.round(ns))) return `too large: at most ${Math.floor(Number.MAX_SAFE_INTEGER / 1_000_000).toLocaleString('en-US')} ms`;
  if (Math.abs(ns - Math.round(ns)) > 1e-6 * Math.max(1, ns)) return 'at most 6 decimals (whole nanoseconds)';
  return null;
}

/** The engine's range of a step, in ms (Scenario::validate: 1 µs to 10 s). */
const STEP_MS = { min: 0.001, max: 10_000 };

function rangeProblem(value: number, { min, max }: { min: number; max: number }): string | null {
  return value < min || value > max ? `from ${min.toLocaleString('en-US')} ms to ${max.toLocaleString('en-US')} ms` : null;
}

/** The engine's range of a duration: from the step (when that is good) to one hour. */
function durationProblem(ms: number, stepMs: number | null): string | null {
  if (stepMs !== null && ms < stepMs) return `at least the step (${stepMs.toLocaleString('en-US')} ms)`;
  return ms > 3_600_000 ? 'at most 3,600,000 ms (one hour)' : null;
}

/**
 * Why `text` cannot be given to the engine as a zipf exponent; the range
 * is the engine's to check (Scenario::validate), but a text that is no
 * number at all (a sign, a letter) is told it too.
 */
function zipfProblem(text: string): string | null {
  const t = text.trim();
  if (t === '') return 'required';
  return DECIMAL.test(t) && Number.isFinite(Number(t)) ? null : 'a number from 0 to 5 (0 excluded)';
}

/** The page's checks of a draft: every field whose text the engine could not be given. */
export function draftProblems(draft: Draft): Problem[] {
  const out: Problem[] = [];
  const add = (field: string, message: string | null) => {
    if (message) out.push({ field, message });
  };
  add('name', draft.name.trim() === '' ? 'required' : null);
  add('seed', wholeProblem(draft.seed));
  const stepProblem = msProblem(draft.stepMs, false) ?? rangeProblem(Number(draft.stepMs), STEP_MS);
  add('stepNs', stepProblem);
  add('durationNs', msProblem(draft.durationMs, false) ?? durationProblem(Number(draft.durationMs), stepProblem === null ? Number(draft.stepMs) : null));
  add('swapPages', wholeProblem(draft.swapPages, Number.MAX_SAFE_INTEGER, true));
  // The engine's range (Scenario::validate): from 1 to 4096.
  add('machine.cpus', wholeProblem(draft.cpus, MAX_CPUS, true) ?? (draft.cpus.trim() === '0' ? `from 1 to ${MAX_CPUS}` : null));
  draft.nodes.forEach((n, i) => {
    n.zones.forEach((z, j) => add(`nodes[${i}].zones[${j}].pages`, wholeProblem(z.pages, U32_MAX)));
  });
  draft.memcgs.forEach((m, i) => {
    const f = (s: string) => `memcgs[${i}].${s}`;
    add(f('path'), m.path.trim() === '' ? 'required' : null);
    add(f('memoryMax'), wholeProblem(m.memoryMax, Number.MAX_SAFE_INTEGER, true));
    add(f('memoryHigh'), wholeProblem(m.memoryHigh, Number.MAX_SAFE_INTEGER, true));
    add(f('memoryLow'), wholeProblem(m.memoryLow, Number.MAX_SAFE_INTEGER, true));
    add(f('memoryMin'), wholeProblem(m.memoryMin, Number.MAX_SAFE_INTEGER, true));
    add(f('swapMax'), wholeProblem(m.swapMax, Number.MAX_SAFE_INTEGER, true));
  });
  draft.workloads.forEach((w, i) => {
    const f = (s: string) => `workloads[${i}].${s}`;
    const shows = workloadShows(w, draft.nodes.length);
    add(f('name'), w.name.trim() === '' ? 'required' : null);
    add(f('memcg'), w.memcg.trim() === '' ? 'required' : null);
    if (shows.node) add(f('node'), wholeProblem(w.node, U32_MAX, true));
    if (shows.zipf) add(f('pattern.s'), zipfProblem(w.zipfS));
    add(f('target.pages'), wholeProblem(w.pages, U32_MAX));
    if (shows.writePercent) add(f('target.writePercent'), wholeProblem(w.writePercent, U32_MAX, true));
    add(f('rate'), wholeProblem(w.rate, Number.MAX_SAFE_INTEGER, true));
    add(f('startNs'), msProblem(w.startMs));
    add(f('stopNs'), msProblem(w.stopMs));
    // The engine checks the rest (at most the target's pages, and the total over all workloads).
    add(f('trackedPages'), wholeProblem(w.trackedPages, U32_MAX, true));
  });
  add('knobs.swappiness', wholeProblem(draft.knobs.swappiness, U32_MAX));
  return out;
}

/** The keys that have a place for messages in the editor: its inputs and its groups. */
export function placesOf(draft: Draft): Set<string> {
  const keys = ['name', 'seed', 'stepNs', 'durationNs', 'swapPages', 'machine.storage', 'machine.cpus', 'nodes', 'memcgs', 'workloads', 'knobs', 'knobs.swappiness', 'knobs.proactiveBatch'];
  keys.push(...BOOL_KNOBS.map((k) => `knobs.${k}`));
  draft.nodes.forEach((n, i) => {
    keys.push(`nodes[${i}]`, `nodes[${i}].zones`);
    n.zones.forEach((_, j) => keys.push(`nodes[${i}].zones[${j}].zone`, `nodes[${i}].zones[${j}].pages`));
  });
  draft.memcgs.forEach((_, i) => {
    keys.push(...['', '.path', '.memoryMax', '.memoryHigh', '.memoryLow', '.memoryMin', '.swapMax'].map((s) => `memcgs[${i}]${s}`));
  });
  draft.workloads.forEach((w, i) => {
    const shows = workloadShows(w, draft.nodes.length);
    const parts = ['', '.name', '.memcg', '.target', '.target.pages', '.pattern', '.rate', '.startNs', '.stopNs', '.trackedPages'];
    if (shows.node) parts.push('.node');
    if (shows.zipf) parts.push('.pattern.s');
    if (shows.op) parts.push('.target.op');
    if (shows.writePercent) parts.push('.target.writePercent');
    keys.push(...parts.map((s) => `workloads[${i}]${s}`));
  });
  return new Set(keys);
}

/** The problem of a document too long to run from a URL. */
export function sizeProblem(json: string): Problem | null {
  return json.length > MAX_CUSTOM_CHARS
    ? { field: FORM_KEY, message: `the scenario is ${json.length} characters of JSON; the editor runs at most ${MAX_CUSTOM_CHARS}` }
    : null;
}

/** "workloads[1].pattern.s" -> "workloads[1].pattern" -> "workloads[1]" -> "workloads" -> "" (the form). */
export function parentKey(field: string): string {
  const m = /^(.*)(?:\.[^.[\]]+|\[\d+\])$/.exec(field);
  return m ? m[1]! : FORM_KEY;
}

/** Where the message about `field` goes: the nearest key (itself or an enclosing one) that has a place. */
export function placeField(field: string, places: ReadonlySet<string>): string {
  for (let key = field; key !== FORM_KEY; key = parentKey(key)) {
    if (places.has(key)) return key;
  }
  return FORM_KEY;
}

/**
 * The messages to show, by place: each problem at its place (placeField);
 * several at one place are joined. A problem placed above its own field
 * (a field without an input) says which field it is about.
 */
export function messagesByPlace(problems: readonly Problem[], places: ReadonlySet<string>): Map<string, string> {
  const out = new Map<string, string[]>();
  for (const p of problems) {
    const place = placeField(p.field, places);
    const text = place === p.field ? p.message : `${p.field}: ${p.message}`;
    const list = out.get(place) ?? [];
    if (!list.includes(text)) list.push(text);
    out.set(place, list);
  }
  return new Map([...out].map(([k, v]) => [k, v.join('; ')]));
}

/** The engine's fields in nanoseconds, which the editor shows in milliseconds. */
const NS_FIELD = /(?:^|\.)(?:stepNs|durationNs|startNs|stopNs)$/;

/** A count of nanoseconds as milliseconds ("1000" -> "0.001 ms"). */
function msOf(ns: string): string {
  return `${(Number(ns) / 1e6).toLocaleString('en-US', { maximumFractionDigits: 6 })} ms`;
}

/**
 * The document's names of other fields in the engine's messages, as the
 * editor labels them ("after startNs" -> "after Start (ms)"). The run's step
 * and duration read as words ("from the step (10 ms) to ...").
 */
const FIELD_WORDS: readonly [RegExp, string][] = [
  [/\bstepNs\b/g, 'the step'],
  [/\bdurationNs\b/g, 'the duration'],
  [/\bstartNs\b/g, 'Start (ms)'],
  [/\btarget\.pages\b/g, 'Size (pages)'],
  [/\btrackedPages\b/g, 'Tracked pages'],
  [/\bmemoryMax\b/g, 'memory.max'],
  [/\bmemoryHigh\b/g, 'memory.high'],
  [/\bmemoryLow\b/g, 'memory.low'],
  [/\bmemoryMin\b/g, 'memory.min'],
];

/**
 * An engine problem in the editor's words: a time field's numbers in
 * milliseconds, as its input shows them ("0 is out of range: accepted from 1000 to 10000000000"
 * -> "0 ms is out of range: accepted from 0.001 ms to 10,000 ms"), and the fields it names by
 * their labels ("after startNs" -> "after Start (ms)"); other problems as they are.
 */
export function inEditorUnits(problem: Problem): Problem {
  const ns = NS_FIELD.test(problem.field);
  // Quoted text (a memcg's path, a workload's name) is the user's: kept as it is.
  const message = problem.message
    .split(/("[^"]*")/)
    .map((part, i) => {
      if (i % 2 === 1) return part;
      let words = ns ? part.replace(/\b\d+\b/g, msOf) : part;
      for (const [name, label] of FIELD_WORDS) words = words.replace(name, label);
      return words;
    })
    .join('');
  return message === problem.message ? problem : { ...problem, message };
}
