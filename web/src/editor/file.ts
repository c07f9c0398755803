// Scenario files: reading one into the editor (with a message that says what
// is wrong with a broken one) and the name a saved one gets. The file format
// is the engine's (the one `reclaim-sim run FILE.json` reads).
//
// DOM-free: the caller reads the file's text and asks the engine.
import type { ScenarioCheck } from '../engine/pkg/reclaim_core';
import type { Problem } from './checks';
import type { ScenarioDoc } from './model';

/** The largest scenario file read, in bytes. */
export const MAX_FILE_BYTES = 1024 * 1024;

export type FileRead =
  /** A scenario document; `problems` are the engine's (the editor shows them next to the fields). */
  | { ok: true; doc: ScenarioDoc; problems: Problem[] }
  /** Not a scenario document: why, for the message. */
  | { ok: false; message: string };

/**
 * Reads a scenario file's text. `check` is the engine's validateScenario;
 * a file it cannot read at all (not JSON, the wrong shape) is broken,
 * one it can read is opened even with problems, which the editor shows.
 */
export async function readScenarioFile(
  fileName: string,
  text: string,
  check: (json: string) => Promise<ScenarioCheck>,
): Promise<FileRead> {
  const broken = (why: string): FileRead => ({ ok: false, message: `${fileName} cannot be opened: ${why}` });
  if (text.trim() === '') return broken('it is empty');
  let result: ScenarioCheck;
  try {
    result = await check(text);
  } catch (error) {
    return { ok: false, message: `${fileName} could not be checked: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (!result.readable) {
    const problem = result.problems[0];
    return broken(problem ? `${problem.field}: ${problem.message}` : 'it cannot be read');
  }
  // The editor writes the version it knows: a file of another version is not read as one of it.
  const version = result.problems.find((p) => p.field === 'version');
  if (version) return broken(version.message);
  // The engine has read it as a Scenario, so JSON.parse gives one.
  return { ok: true, doc: JSON.parse(text) as ScenarioDoc, problems: result.problems };
}

/** The name a scenario is saved under: its name, made safe for a file name. */
export function scenarioFileName(doc: Pick<ScenarioDoc, 'name'>): string {
  const base = doc.name.trim().replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[._]+/, '');
  return `${base || 'scenario'}.json`;
}

/** The text of a saved scenario file. */
export function scenarioFileText(doc: ScenarioDoc): string {
  return `${JSON.stringify(doc, null, 2)}\n`;
}
