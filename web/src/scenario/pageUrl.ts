// The readable link to a page: the run in the plain v=1 form (url.ts) plus
// what the page shows of it, in keys a person can read and write by hand:
//
//   ?v=1&scenario=kswapd-classzone&seed=1&variant=before&step=105&tab=system
//   ?v=1&scenario=kswapd-classzone&seed=1&variant=before&tour=kswapd-classzone&tourStep=3
//   ?v=1&scenario=kswapd-classzone&seed=1&variant=after&compare=before,after&step=40&tab=system
//
//   compare   side by side: the left and the right variant, comma-separated; `step`
//             is then the step both sides are at (the page's own run stays at 0)
//   step      the step the engine is moved to (a whole number, at most MAX_SHARED_STEP)
//   tab       the view: comparison, lru, system or memcgs (SHARE_TABS)
//   tour      a guided tour to open (its name, as web/src/tours lists them)
//   tourStep  which of its steps, counting from 1 (default 1)
//
// These are the links docs/ uses: unlike a shared link (?v=2&s=..., share.ts)
// they say what they open. The run keys are url.ts's; this codec reads only
// the page keys (url.ts reserves them so they are never taken for scenario
// parameters). Like url.ts it checks form, not meaning: whether the tour
// exists or the tab is shown for this scenario is for the page to say.
// Decoding never throws: a bad value is named in `errors` and ignored.
//
// DOM-free.
import type { ScenarioRequest } from '../engine/pkg/reclaim_core';
import { formatCount } from '../util/format';
import { cut, quoted } from '../util/quoted';
import { MAX_SHARED_STEP, SHARE_TABS, type ShareTab } from './share';
import { PAGE_KEYS, SCENARIO_NAME_PATTERN, asWritten, encodeScenarioUrl } from './url';

/** What a readable link asks the page to show besides the run. */
export interface PageView {
  /** Side by side: the left and the right variant. */
  compare?: [string, string];
  step?: number;
  tab?: ShareTab;
  tour?: string;
  /** 1-based, as written in the link. */
  tourStep?: number;
}

export interface PageViewResult {
  view: PageView;
  /** Problems with page keys, each starting with the key ("step: ..."). */
  errors: string[];
}

const WHOLE = /^\d+$/;

function wholeNumber(text: string, key: string, min: number, max: number, errors: string[], quote: (text: string) => string): number | undefined {
  const value = WHOLE.test(text) ? Number(text) : NaN;
  if (Number.isSafeInteger(value) && value >= min && value <= max) return value;
  errors.push(`${key}: ${quote(text)} is not a whole number from ${formatCount(min)} to ${formatCount(max)}; ignored`);
  return undefined;
}

/** Reads the page keys of a query string (`location.search`, with or without `?`). */
export function decodePageView(search: string): PageViewResult {
  const query = new URLSearchParams(search);
  const errors: string[] = [];
  const view: PageView = {};
  // A value quoted as the address writes it where it does not decode as written (%FF).
  const written = asWritten(search).values;
  const q = (text: string) => quoted(written.get(text) ?? text);
  const single = (key: string): string | undefined => {
    const all = query.getAll(key);
    if (all.length > 1) {
      errors.push(`${key}: given ${all.length} times; ignored`);
      return undefined;
    }
    return all[0];
  };
  const compare = single('compare');
  if (compare !== undefined) {
    const names = compare.split(',');
    if (names.length === 2 && names.every((n) => SCENARIO_NAME_PATTERN.test(n))) view.compare = [names[0]!, names[1]!];
    else errors.push(`compare: ${q(compare)} is not two variant names with a comma between them (compare=before,after); ignored`);
  }
  const step = single('step');
  if (step !== undefined) view.step = wholeNumber(step, 'step', 0, MAX_SHARED_STEP, errors, q);
  const tab = single('tab');
  if (tab !== undefined) {
    if ((SHARE_TABS as readonly string[]).includes(tab)) view.tab = tab as ShareTab;
    else errors.push(`tab: ${q(tab)} is not a view (${SHARE_TABS.join(', ')}); ignored`);
  }
  const tour = single('tour');
  if (tour !== undefined) {
    if (SCENARIO_NAME_PATTERN.test(tour)) view.tour = tour;
    else errors.push(`tour: ${q(tour)} is not a tour name; ignored`);
  }
  const tourStep = single('tourStep');
  if (tourStep !== undefined) {
    if (view.tour === undefined && tour === undefined) errors.push('tourStep: given without a tour; ignored');
    else view.tourStep = wholeNumber(tourStep, 'tourStep', 1, 1000, errors, q);
  }
  for (const key of Object.keys(view) as (keyof PageView)[]) if (view[key] === undefined) delete view[key];
  return { view, errors };
}

/** Whether a query string has any page key (so the page has more to do than start the run). */
export function hasPageKeys(search: string): boolean {
  const query = new URLSearchParams(search);
  return PAGE_KEYS.some((key) => query.has(key));
}

/** The query string without its page keys (what the address bar keeps once they are applied). */
export function withoutPageKeys(search: string): string {
  const query = new URLSearchParams(search);
  for (const key of PAGE_KEYS) query.delete(key);
  const rest = query.toString();
  return rest ? `?${rest}` : '';
}

/**
 * The readable link (query string with its `?`) to a run and what the page
 * shows of it: the run as url.ts writes it, then the page keys in a fixed
 * order. Throws a RangeError for what decoding would refuse.
 */
export function encodePageUrl(request: ScenarioRequest, view: PageView = {}): string {
  const query = new URLSearchParams(encodeScenarioUrl(request));
  if (view.compare !== undefined) {
    if (!view.compare.every((n) => SCENARIO_NAME_PATTERN.test(n))) throw new RangeError(`variants ${JSON.stringify(view.compare)} cannot be written to a URL`);
    query.set('compare', view.compare.join(','));
  }
  if (view.step !== undefined) {
    if (!Number.isSafeInteger(view.step) || view.step < 0 || view.step > MAX_SHARED_STEP) {
      throw new RangeError(`step must be a whole number from 0 to ${MAX_SHARED_STEP}, got ${view.step}`);
    }
    query.set('step', String(view.step));
  }
  if (view.tab !== undefined) query.set('tab', view.tab);
  if (view.tour !== undefined) {
    if (!SCENARIO_NAME_PATTERN.test(view.tour)) throw new RangeError(`tour ${JSON.stringify(view.tour)} cannot be written to a URL`);
    query.set('tour', view.tour);
  }
  if (view.tourStep !== undefined) {
    if (view.tour === undefined) throw new RangeError('tourStep needs a tour');
    if (!Number.isSafeInteger(view.tourStep) || view.tourStep < 1) throw new RangeError(`tourStep must be a whole number from 1, got ${view.tourStep}`);
    query.set('tourStep', String(view.tourStep));
  }
  // The comma between the two variants stays a comma (a variant name has none), so the link reads as written.
  return `?${query.toString().replace(/(^|&)compare=([^&]*)%2C/, '$1compare=$2,')}`;
}

/** What the page makes of its URL's hash (readHash). */
export interface HashReading {
  /** What to tell the reader, or null when the hash is one the page uses (or none). */
  message: string | null;
  /** The query string to open instead (with its `?`), when the hash held a link's keys. */
  query?: string;
  /** Whether to take the hash out of the address bar. */
  drop: boolean;
}

/**
 * A URL's hash: #trace opens the trace replay page (trace/TraceEntry.tsx);
 * a link's keys after "#" instead of "?" (a mail client or a hand edit can do
 * this) are read as the query they were meant to be, when there is none;
 * any other hash is named and dropped.
 */
export function readHash(hash: string, search: string): HashReading {
  const body = hash.replace(/^#/, '');
  if (body === '' || body === 'trace') return { message: null, drop: false };
  const keys = new URLSearchParams(body);
  if (search.replace(/^\?/, '') === '' && (keys.has('v') || keys.has('scenario'))) {
    const [head, rest] = cut(body, 200);
    return { message: `the link's keys came after "#", where "?" belongs; they were read as ?${head}${rest}`, query: `?${body}`, drop: true };
  }
  return { message: `the page has no part called "#${body}" (only #trace, the trace replay page); ignored`, drop: true };
}
