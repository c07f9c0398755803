// The scenario editor's logic: draft <-> document, the page's checks, where
// every message goes (the engine's ScenarioError fields mapped to the
// editor's inputs), and reading scenario files, against the real engine's
// validateScenario (the wasm-pack build in web/src/engine/pkg).
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import init, { Engine, validateScenario, type ScenarioCheck } from '../../web/src/engine/pkg/reclaim_core';
import {
  FORM_KEY,
  draftProblems,
  inEditorUnits,
  messagesByPlace,
  msProblem,
  parentKey,
  placeField,
  placesOf,
  wholeProblem,
} from '../../web/src/editor/checks';
import { readScenarioFile, scenarioFileName, scenarioFileText } from '../../web/src/editor/file';
import { docOf, draftOf, newMemcg, nextZone } from '../../web/src/editor/draft';
import { removeMemcg, renameMemcg } from '../../web/src/editor/tasks';
import { templateDoc, type Draft, type ScenarioDoc } from '../../web/src/editor/model';
import { customRequest, customTitle } from '../../web/src/scenario/custom';

const WASM = new URL('../../web/src/engine/pkg/reclaim_core_bg.wasm', import.meta.url);
const check = async (json: string): Promise<ScenarioCheck> => validateScenario(json);

beforeAll(async () => {
  await init({ module_or_path: readFileSync(WASM) });
});

const template = () => draftOf(templateDoc(1));
const fieldsOf = (problems: readonly { field: string }[]) => problems.map((p) => p.field);
/** The draft after a change. */
const edit = (change: (d: Draft) => void): Draft => {
  const d = structuredClone(template());
  change(d);
  return d;
};

describe('draft and document', () => {
  it('the template runs in the engine, and survives the round trip through the draft', () => {
    const doc = templateDoc(7);
    expect(docOf(draftOf(doc))).toEqual(doc);
    expect(validateScenario(JSON.stringify(doc))).toEqual({ readable: true, problems: [], notes: [] });
    const engine = new Engine(customRequest(doc, 7));
    const frame = engine.step(20);
    expect(frame.step).toBe(20);
    expect(frame.seed).toBe(7);
    expect(frame.lruvecs.map((l) => l.memcg)).toContain('/job');
    engine.free();
  });

  it('a loaded machine (storage, cpus) survives the round trip, and the engine runs it', () => {
    const doc: ScenarioDoc = { ...templateDoc(3), machine: { storage: 'ramdisk', cpus: 2 } };
    expect(docOf(draftOf(doc))).toEqual(doc);
    expect(validateScenario(JSON.stringify(doc))).toEqual({ readable: true, problems: [], notes: [] });
    const bad = { ...doc, machine: { storage: 'ramdisk', cpus: 0 } };
    expect(validateScenario(JSON.stringify(bad)).problems.map((p) => p.field)).toContain('machine.cpus');
    // A storage the engine does not know, or a number in its place: the field and the names it takes (as reclaim-sim says).
    for (const storage of ['"floppy"', '3']) {
      const text = JSON.stringify({ ...doc, machine: { storage: 'ssd' } }).replace('"ssd"', storage);
      expect(validateScenario(text)).toEqual({
        readable: false,
        problems: [{ field: 'machine.storage', message: `${storage} is not one of "ssd", "ramdisk", "hdd"` }],
        notes: [],
      });
    }
  });

  it('the machine is edited: the disk and a CPU count are written, the defaults left out, a bad count named', () => {
    const d = edit((d) => {
      d.storage = 'hdd';
      d.cpus = '4';
    });
    expect(draftProblems(d)).toEqual([]);
    expect(docOf(d).machine).toEqual({ storage: 'hdd', cpus: 4 });
    expect(validateScenario(JSON.stringify(docOf(d)))).toEqual({ readable: true, problems: [], notes: [] });
    const disk = edit((d) => {
      d.storage = 'hdd';
    });
    expect(docOf(disk).machine).toEqual({ storage: 'hdd' });
    // Back to an SSD with a CPU each: no machine written, as in the template.
    const back = edit((d) => {
      d.storage = 'ssd';
      d.cpus = ' ';
    });
    expect(docOf(back).machine).toBeUndefined();
    expect(draftProblems(edit((d) => (d.cpus = 'two')))).toEqual([{ field: 'machine.cpus', message: 'a whole number ≥ 0' }]);
    // The engine's range, 1 to 4096, at both ends.
    expect(draftProblems(edit((d) => (d.cpus = '0')))).toEqual([{ field: 'machine.cpus', message: 'from 1 to 4096' }]);
    expect(draftProblems(edit((d) => (d.cpus = '4097')))).toEqual([{ field: 'machine.cpus', message: 'at most 4,096' }]);
    expect(draftProblems(edit((d) => (d.cpus = '4096')))).toEqual([]);
  });

  it('renaming a memcg takes its workloads with it, also when the path is cleared and typed again', () => {
    let d = template();
    expect(d.workloads.map((w) => w.memcg)).toEqual(['/job', '/job']);
    d = renameMemcg(d, 0, '/web');
    expect(d.memcgs[0]!.path).toBe('/web');
    expect(d.workloads.map((w) => w.memcg)).toEqual(['/web', '/web']);
    for (const path of ['/we', '/w', '/', '', '/', '/d', '/db']) d = renameMemcg(d, 0, path);
    expect(d.workloads.map((w) => w.memcg)).toEqual(['/db', '/db']);
    expect(draftProblems(d)).toEqual([]);
  });

  it('memory.reclaim writers kept from a file follow a renamed memcg, and go with a removed one', () => {
    const writer = { memcg: '/job', pages: 256, startNs: 1_000_000_000, intervalNs: 1_000_000_000, count: 3 };
    let d = draftOf({ ...templateDoc(1), proactive: [writer, { ...writer, memcg: '/' }] });
    d = renameMemcg(d, 0, '/web');
    expect(docOf(d).proactive!.map((p) => p.memcg)).toEqual(['/web', '/']);
    expect(validateScenario(JSON.stringify(docOf(d))).problems).toEqual([]);
    d = removeMemcg(d, 0);
    expect(docOf(d).proactive!.map((p) => p.memcg)).toEqual(['/']);
    // The workloads stay, for the reader to move: the engine names them.
    expect(validateScenario(JSON.stringify(docOf(d))).problems.map((p) => p.field)).toEqual(['workloads[0].memcg', 'workloads[1].memcg']);
  });

  it('the title is edited too, and an empty one is the name', () => {
    expect(docOf(edit((d) => (d.title = 'Two memcgs under pressure'))).title).toBe('Two memcgs under pressure');
    const untitled = docOf(edit((d) => ((d.name = 'two-memcgs'), (d.title = '  '))));
    expect(untitled).not.toHaveProperty('title');
    expect(customTitle(customRequest(untitled, 1))).toBe('two-memcgs');
  });

  it('times are edited in ms and written in ns; empty limits are "max"', () => {
    const d = edit((d) => {
      d.durationMs = '2500.5';
      d.stepMs = '0.25';
      d.memcgs[0]!.memoryMax = '';
      d.memcgs[0]!.memoryHigh = '900';
      d.workloads[1]!.startMs = '100';
      d.workloads[1]!.stopMs = '';
    });
    const doc = docOf(d);
    expect(doc.durationNs).toBe(2_500_500_000);
    expect(doc.stepNs).toBe(250_000);
    expect(doc.memcgs![0]).toEqual({ path: '/job', memoryHigh: 900 });
    expect(doc.workloads[1]).toMatchObject({ startNs: 100_000_000 });
    expect(doc.workloads[1]).not.toHaveProperty('stopNs');
  });

  it('keeps what the editor does not show from the document it started from', () => {
    const doc: ScenarioDoc = {
      ...templateDoc(1),
      watermarkScaleFactor: 50,
      minFreeKbytes: 1024,
      memcgs: [{ path: '/job', memoryMax: 2048, swappiness: 10 }],
      proactive: [{ memcg: '/job', pages: 64, startNs: 1_000_000, intervalNs: 1_000_000, count: 3 }],
    };
    doc.workloads[1] = { ...doc.workloads[1]!, gfp: 'normal', freeOnExit: true };
    doc.workloads[0] = { ...doc.workloads[0]!, target: { kind: 'file', pages: 4096, op: 'read', file: 'shared' } };
    const back = docOf(draftOf(doc));
    expect(back.watermarkScaleFactor).toBe(50);
    expect(back.minFreeKbytes).toBe(1024);
    expect(back.memcgs![0]!.swappiness).toBe(10);
    expect(back.proactive).toEqual(doc.proactive);
    expect(back.workloads[1]).toMatchObject({ gfp: 'normal', freeOnExit: true });
    expect(back.workloads[0]!.target).toMatchObject({ kind: 'file', file: 'shared' });
    // Turned into a heap, the workload has no file any more.
    const heap = docOf({ ...draftOf(doc), workloads: draftOf(doc).workloads.map((w, i) => (i === 0 ? { ...w, target: 'anon' as const } : w)) });
    expect(heap.workloads[0]!.target).toEqual({ kind: 'anon', pages: 4096, writePercent: 0 });
  });

  it('edits a workload\'s pacing, and leaves it out without a rate', () => {
    const doc: ScenarioDoc = templateDoc(1);
    doc.workloads[0] = { ...doc.workloads[0]!, rate: 1000, closedLoop: true };
    const draft = draftOf(doc);
    expect(draft.workloads[0]!.pacing).toBe('closed');
    expect(draft.workloads[1]!.pacing).toBe('open');
    expect(docOf(draft).workloads[0]!.closedLoop).toBe(true);
    expect(docOf(draft).workloads[1]!.closedLoop).toBeUndefined();
    const open = docOf({ ...draft, workloads: draft.workloads.map((w, i) => (i === 0 ? { ...w, pacing: 'open' as const } : w)) });
    expect(open.workloads[0]!.closedLoop).toBeUndefined();
    // Flat out (rate 0) there is nothing to pace: the field is hidden and dropped.
    const flat = docOf({ ...draft, workloads: draft.workloads.map((w, i) => (i === 0 ? { ...w, rate: '0' } : w)) });
    expect(flat.workloads[0]!.closedLoop).toBeUndefined();
  });

  it('new memcgs get a free path; a node offers the zones it lacks, lowest first', () => {
    const d = template();
    expect(newMemcg(d.memcgs).path).toBe('/memcg1');
    expect(newMemcg([...d.memcgs, { ...newMemcg(d.memcgs) }]).path).toBe('/memcg2');
    expect(nextZone([{ zone: 'Normal', pages: '1' }])).toBe('DMA');
    expect(nextZone(['DMA', 'DMA32', 'Normal', 'Movable'].map((zone) => ({ zone: zone as 'DMA', pages: '1' })))).toBeNull();
  });
});

describe("the page's checks", () => {
  it('whole numbers, milliseconds and required values', () => {
    expect(wholeProblem('12')).toBeNull();
    expect(wholeProblem(' 12 ')).toBeNull();
    expect(wholeProblem('')).toBe('required');
    expect(wholeProblem('', 10, true)).toBeNull();
    expect(wholeProblem('1.5')).toBe('a whole number ≥ 0');
    expect(wholeProblem('-1')).toBe('a whole number ≥ 0');
    // An exponent is no whole number in the document's JSON: the message gives the digits to write.
    expect(wholeProblem('1e3')).toBe('in digits: 1000');
    expect(wholeProblem('1e12')).toBe('in digits: 1000000000000');
    expect(wholeProblem('2.5E2')).toBe('in digits: 250');
    expect(wholeProblem('1.5e0')).toBe('a whole number ≥ 0');
    expect(wholeProblem('1e15', 4_294_967_295)).toBe('at most 4,294,967,295, in digits');
    expect(wholeProblem('1e300')).toBe(
      'at most 9,007,199,254,740,991, the largest whole number the page holds exactly (reclaim-sim reads files up to 18,446,744,073,709,551,615), in digits',
    );
    expect(wholeProblem('4294967296', 4_294_967_295)).toBe('at most 4,294,967,295');
    // The seed: the page holds 2^53 - 1 exactly, reclaim-sim a u64; the message says why the two differ.
    expect(wholeProblem('18446744073709551615')).toBe(
      'at most 9,007,199,254,740,991, the largest whole number the page holds exactly (reclaim-sim reads files up to 18,446,744,073,709,551,615)',
    );
    expect(wholeProblem('9007199254740991')).toBeNull();
    expect(msProblem('0.000001')).toBeNull();
    expect(msProblem('0.0000001')).toBe('at most 6 decimals (whole nanoseconds)');
    expect(msProblem('abc')).toBe('a number of milliseconds ≥ 0');
    expect(msProblem('', false)).toBe('required');
  });

  it('name each field by its path in the document, as the engine does', () => {
    expect(draftProblems(template())).toEqual([]);
    const d = edit((d) => {
      d.name = ' ';
      d.seed = 'x';
      d.nodes[0]!.zones[0]!.pages = '';
      d.memcgs[0]!.memoryLow = '1.5';
      d.workloads[0]!.zipfS = 'lots';
      d.workloads[1]!.rate = '-3';
      d.knobs.swappiness = '';
    });
    expect(fieldsOf(draftProblems(d))).toEqual([
      'name',
      'seed',
      'nodes[0].zones[0].pages',
      'memcgs[0].memoryLow',
      'workloads[0].pattern.s',
      'workloads[1].rate',
      'knobs.swappiness',
    ]);
  });

  it('skip what the editor does not show (a zipf exponent without zipf, the stores of read())', () => {
    const d = edit((d) => {
      d.workloads[0]!.pattern = 'uniform';
      d.workloads[0]!.zipfS = 'lots';
      d.workloads[0]!.writePercent = 'some';
    });
    expect(draftProblems(d)).toEqual([]);
    expect(docOf(d).workloads[0]).toMatchObject({ pattern: { kind: 'uniform' }, target: { kind: 'file', op: 'read' } });
    expect(docOf(d).workloads[0]!.target).not.toHaveProperty('writePercent');
  });
});

describe("where messages go (the engine's fields mapped to the inputs)", () => {
  it('up the path to the nearest place, else the form', () => {
    expect(parentKey('workloads[1].pattern.s')).toBe('workloads[1].pattern');
    expect(parentKey('workloads[1].pattern')).toBe('workloads[1]');
    expect(parentKey('workloads[1]')).toBe('workloads');
    expect(parentKey('workloads')).toBe(FORM_KEY);
    expect(parentKey('scenario file')).toBe(FORM_KEY);
    const places = placesOf(template());
    expect(placeField('nodes[0].zones[0].pages', places)).toBe('nodes[0].zones[0].pages');
    expect(placeField('nodes[0].zones[0]', places)).toBe('nodes[0].zones');
    expect(placeField('memcgs[0].swappiness', places)).toBe('memcgs[0]');
    expect(placeField('workloads[9].memcg', places)).toBe('workloads');
    expect(placeField('proactive[0].count', places)).toBe(FORM_KEY);
    expect(placeField('param memory_max', places)).toBe(FORM_KEY);
    // An input the editor does not show has no place: the nearest one takes the message.
    expect(placeField('workloads[0].node', places)).toBe('workloads[0]');
    expect(placeField('workloads[0].target.writePercent', places)).toBe('workloads[0].target');
    expect(placeField('workloads[1].target.writePercent', places)).toBe('workloads[1].target.writePercent');
  });

  it("every engine problem of an edited draft lands on the input it names", () => {
    const d = edit((d) => {
      d.nodes[0]!.zones[0]!.pages = '10';
      d.memcgs[0]!.path = 'job';
      d.workloads[0]!.zipfS = '9';
      d.knobs.swappiness = '300';
      d.workloads[1]!.name = d.workloads[0]!.name;
    });
    expect(draftProblems(d)).toEqual([]);
    const result = validateScenario(JSON.stringify(docOf(d)));
    expect(result.readable).toBe(true);
    const places = placesOf(d);
    const messages = messagesByPlace(result.problems, places);
    expect(messages.get('nodes[0].zones[0].pages')).toBe('10 is out of range: accepted from 64 to 16777216');
    expect(messages.get('memcgs[0].path')).toBe('"job" is not a cgroup path like /a or /a/b');
    expect(messages.get('workloads[0].memcg')).toBe('memcg "/job" is not defined');
    expect(messages.get('workloads[1].memcg')).toBe('memcg "/job" is not defined');
    expect(messages.get('workloads[0].pattern.s')).toBe('9 is out of range: accepted from 0 to 5 (0 excluded)');
    expect(messages.get('knobs.swappiness')).toBe('300 is out of range: accepted from 0 to 200');
    // A workload named like another: its tasks' pages and figures would be told apart by name.
    expect(messages.get('workloads[1].name')).toMatch(/^"[^"]+" is used twice: give each workload a name of its own$/);
    // Every problem has a place of its own: none is left for the form.
    expect(messages.has(FORM_KEY)).toBe(false);
  });

  it("the engine's notes (likely slips that still run) land on their inputs, in the editor's words", () => {
    const d = edit((d) => {
      d.memcgs[0]!.memoryMax = '1024';
      d.memcgs[0]!.memoryLow = '2048';
    });
    const result = validateScenario(JSON.stringify(docOf(d)));
    expect(result.problems).toEqual([]);
    const path = d.memcgs[0]!.path;
    const notes = messagesByPlace(result.notes.map(inEditorUnits), placesOf(d));
    expect([...notes]).toEqual([['memcgs[0].memoryLow', `2048 is above memory.max (1024): it protects everything "${path}" can hold`]]);
    // Set back below memory.max: no note.
    expect(validateScenario(JSON.stringify(docOf({ ...d, memcgs: [{ ...d.memcgs[0]!, memoryLow: '512' }, ...d.memcgs.slice(1)] }))).notes).toEqual([]);
  });

  it("checks the step and the duration against the engine's ranges before the engine does", () => {
    const problems = (stepMs: string, durationMs: string) => draftProblems(edit((d) => ((d.stepMs = stepMs), (d.durationMs = durationMs))));
    expect(problems('0', '100')).toEqual([{ field: 'stepNs', message: 'from 0.001 ms to 10,000 ms' }]);
    expect(problems('10', '1')).toEqual([{ field: 'durationNs', message: 'at least the step (10 ms)' }]);
    expect(problems('10', '3600001')).toEqual([{ field: 'durationNs', message: 'at most 3,600,000 ms (one hour)' }]);
    expect(problems('0.001', '3600000')).toEqual([]);
    // Each agrees with the engine: what the editor passes, the engine takes.
    const doc = docOf(edit((d) => ((d.stepMs = '0.001'), (d.durationMs = '0.001'))));
    expect(validateScenario(JSON.stringify(doc)).problems).toEqual([]);
  });

  it('tracked pages: empty is the automatic sample; a count travels to the document; too many is the engine\'s message on the field', () => {
    const automatic = docOf(template());
    expect(automatic.workloads.every((w) => w.trackedPages === undefined)).toBe(true);
    const some = edit((d) => {
      d.workloads[0]!.trackedPages = '100';
    });
    expect(draftProblems(some)).toEqual([]);
    const doc = docOf(some);
    expect(doc.workloads[0]!.trackedPages).toBe(100);
    expect(draftOf(doc).workloads[0]!.trackedPages).toBe('100');
    expect(validateScenario(JSON.stringify(doc)).problems).toEqual([]);

    expect(fieldsOf(draftProblems(edit((d) => void (d.workloads[0]!.trackedPages = 'many'))))).toEqual(['workloads[0].trackedPages']);
    const tooMany = edit((d) => {
      d.workloads[0]!.trackedPages = String(Number(d.workloads[0]!.pages) + 1);
    });
    expect(draftProblems(tooMany)).toEqual([]);
    const result = validateScenario(JSON.stringify(docOf(tooMany)));
    const messages = messagesByPlace(result.problems, placesOf(tooMany));
    expect(messages.get('workloads[0].trackedPages')).toMatch(/^\d+ is out of range: accepted from 1 to \d+ \(at most target\.pages and 65536\)$/);
  });

  it('a problem placed above its field says which field; the same message once', () => {
    const places = new Set(['workloads']);
    const m = messagesByPlace(
      [
        { field: 'workloads', message: 'a scenario needs at least one workload' },
        { field: 'workloads[3].rate', message: 'too fast' },
        { field: 'workloads[3].rate', message: 'too fast' },
        { field: 'version', message: 'version 2 is not supported' },
      ],
      places,
    );
    expect(m.get('workloads')).toBe('a scenario needs at least one workload; workloads[3].rate: too fast');
    expect(m.get(FORM_KEY)).toBe('version: version 2 is not supported');
  });
});

describe('engine problems in the editor\'s units', () => {
  it('gives a time field\'s numbers in milliseconds, as its input shows them', async () => {
    const draft = { ...template(), stepMs: '0' };
    const result = await check(JSON.stringify(docOf(draft)));
    const step = result.problems.find((p) => p.field === 'stepNs');
    expect(step?.message).toBe('0 is out of range: accepted from 1000 to 10000000000');
    expect(inEditorUnits(step!).message).toBe('0 ms is out of range: accepted from 0.001 ms to 10,000 ms');
    expect(inEditorUnits({ field: 'durationNs', message: '100000000000000 is out of range: accepted from stepNs (10000000) to 3600000000000 (one hour)' }).message).toBe(
      '100,000,000 ms is out of range: accepted from the step (10 ms) to 3,600,000 ms (one hour)',
    );
    const other = { field: 'memcgs[0].memoryMax', message: '5 is out of range: accepted from 16 to 1000' };
    expect(inEditorUnits(other)).toBe(other);
  });

  it('names the other fields a message is about by their labels, never the user\'s own text', async () => {
    const draft = edit((d) => {
      d.workloads[0]!.startMs = '3000';
      d.workloads[0]!.stopMs = '1000';
    });
    const result = await check(JSON.stringify(docOf(draft)));
    const stop = result.problems.find((p) => p.field === 'workloads[0].stopNs');
    expect(stop?.message).toBe('1000000000 is neither 0 (never) nor after startNs, which is 3000000000');
    expect(inEditorUnits(stop!).message).toBe('1,000 ms is neither 0 ms (never) nor after Start (ms), which is 3,000 ms');
    expect(inEditorUnits({ field: 'workloads[0].trackedPages', message: '4097 is out of range: accepted from 1 to 4096 (at most target.pages and 65536)' }).message).toBe(
      '4097 is out of range: accepted from 1 to 4096 (at most Size (pages) and 65536)',
    );
    const quoted = { field: 'workloads[0].memcg', message: 'memcg "/startNs" is not defined' };
    expect(inEditorUnits(quoted)).toBe(quoted);
  });
});

describe('scenario files', () => {
  it('a broken file says what is wrong with it', async () => {
    const bad = async (text: string) => {
      const read = await readScenarioFile('f.json', text, check);
      if (read.ok) throw new Error('expected a broken file');
      return read.message;
    };
    expect(await bad('')).toBe('f.json cannot be opened: it is empty');
    expect(await bad('{"version": 1,')).toMatch(/^f\.json cannot be opened: scenario file: EOF while parsing/);
    expect(await bad('[1]')).toBe('f.json cannot be opened: scenario file: a scenario file is a JSON object');
    const doc = templateDoc(1) as unknown as Record<string, unknown>;
    expect(await bad(JSON.stringify({ ...doc, nodes: [{ zones: [{ zone: 'Normal' }] }] }))).toBe(
      'f.json cannot be opened: nodes[0].zones[0].pages: missing field `pages`',
    );
    expect(await bad(JSON.stringify({ ...doc, knobs: { memcgLRU: true } }))).toMatch(/^f\.json cannot be opened: knobs\.memcgLRU: unknown field `memcgLRU`/);
    expect(await bad(JSON.stringify({ ...doc, seed: 'one' }))).toBe(
      'f.json cannot be opened: seed: "one" (a string) is not a whole number from 0 to 18446744073709551615',
    );
    expect(await bad(JSON.stringify({ ...doc, memcgs: [{ path: '/a', memoryMax: -5 }] }))).toBe(
      'f.json cannot be opened: memcgs[0].memoryMax: -5 is not a whole number from 0 to 18446744073709551615',
    );
    // A bad value in a workload's target names the target's field, not the target.
    const workloads = doc.workloads as { target: object }[];
    expect(await bad(JSON.stringify({ ...doc, workloads: [{ ...workloads[0], target: { ...workloads[0]!.target, pages: -5 } }] }))).toBe(
      // The type's range: the field's own is looked up natively only (check.rs: accepted_range).
      'f.json cannot be opened: workloads[0].target.pages: -5 is not a whole number from 0 to 4294967295',
    );
    // A file of another format version is not read as this one (the editor writes version 1).
    expect(await bad(JSON.stringify({ ...doc, version: 7 }))).toBe('f.json cannot be opened: version 7 is not supported (expected 1)');
    const failing = async () => {
      throw new Error('no engine');
    };
    expect(await readScenarioFile('f.json', '{}', failing)).toEqual({ ok: false, message: 'f.json could not be checked: no engine' });
  });

  it('a readable file opens with the problems the engine finds; a saved one reads back the same', async () => {
    const doc = { ...templateDoc(3), name: 'from file' };
    doc.workloads = [{ ...doc.workloads[0]!, pattern: { kind: 'zipf', s: 9 } }];
    const read = await readScenarioFile('mine.json', scenarioFileText(doc), check);
    expect(read).toEqual({ ok: true, doc, problems: [{ field: 'workloads[0].pattern.s', message: '9 is out of range: accepted from 0 to 5 (0 excluded)' }] });
    expect(scenarioFileName(doc)).toBe('from_file.json');
    expect(scenarioFileName({ name: '../..' })).toBe('scenario.json');
    const good = await readScenarioFile('t.json', scenarioFileText(templateDoc(1)), check);
    expect(good).toEqual({ ok: true, doc: templateDoc(1), problems: [] });
  });

  it('a file whose seed only reclaim-sim can hold opens, and the seed field says why the page cannot', async () => {
    const text = scenarioFileText(templateDoc(1)).replace('"seed": 1,', '"seed": 18446744073709551615,');
    expect(text).toContain('18446744073709551615');
    const read = await readScenarioFile('big.json', text, check);
    if (!read.ok) throw new Error(read.message);
    expect(read.problems).toEqual([]);
    const seed = draftProblems(draftOf(read.doc)).filter((p) => p.field === 'seed');
    expect(seed).toEqual([
      { field: 'seed', message: 'at most 9,007,199,254,740,991, the largest whole number the page holds exactly (reclaim-sim reads files up to 18,446,744,073,709,551,615)' },
    ]);
  });
});
