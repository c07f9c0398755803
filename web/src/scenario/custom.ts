// Custom scenarios (written in the scenario editor or loaded from a file)
// run through the same request as the built-in ones: the request's `name` is
// the whole scenario document as JSON and its `seed` the run's seed (the
// engine's scenario::build reads a name starting with "{" as a document and
// takes no parameters or variant with it). Built-in names never start with
// "{", so the two cannot be confused. The URL (url.ts) and shared links
// (share.ts) carry such a request like any other.
//
// DOM-free.
import type { ScenarioRequest } from '../engine/pkg/reclaim_core';
import { makeRequest } from './params';

/** The longest document a request (and so a URL) may carry, in characters. */
export const MAX_CUSTOM_CHARS = 64 * 1024;

/** What the page shows and files are named after when a custom scenario has no usable name. */
export const CUSTOM_LABEL = 'custom';

/** Whether a request name is a scenario document rather than a built-in scenario's name. */
export function isCustomName(name: string): boolean {
  return name.trimStart().startsWith('{');
}

export function isCustomRequest(request: Pick<ScenarioRequest, 'name'>): boolean {
  return isCustomName(request.name);
}

/** The request that runs `doc` (a scenario document) with `seed`. */
export function customRequest(doc: object, seed: number): ScenarioRequest {
  return makeRequest(JSON.stringify(doc), seed);
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** The document a custom request runs (null for a built-in scenario, or a name that is not a JSON object). */
export function customDocument(request: Pick<ScenarioRequest, 'name'>): Record<string, unknown> | null {
  if (!isCustomRequest(request)) return null;
  try {
    const doc: unknown = JSON.parse(request.name);
    return isObject(doc) ? doc : null;
  } catch {
    return null;
  }
}

/** A short name for a run: the scenario's name, or a custom scenario's own name. */
export function runLabel(request: Pick<ScenarioRequest, 'name'>): string {
  if (!isCustomRequest(request)) return request.name;
  const name = customDocument(request)?.name;
  return typeof name === 'string' && name.trim() !== '' ? name.trim() : CUSTOM_LABEL;
}

/** The run as a message names it: a built-in scenario by its name, a custom one as "the custom scenario NAME" (never its whole document). */
export function runNamed(request: Pick<ScenarioRequest, 'name'>): string {
  return isCustomRequest(request) ? `the custom scenario ${runLabel(request)}` : request.name;
}

/** A custom run's title (the document's title, else its name). */
export function customTitle(request: Pick<ScenarioRequest, 'name'>): string {
  const title = customDocument(request)?.title;
  return typeof title === 'string' && title.trim() !== '' ? title.trim() : runLabel(request);
}
