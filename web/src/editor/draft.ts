// The editor's draft and the scenario document, each made from the other:
// draftOf (the text of every input) and docOf (the document, once checks.ts
// finds no problem with the draft). Fields the editor does not show are
// kept from the draft's base document.
//
// DOM-free.
import type { MemcgSpec, Pattern, WorkloadSpec } from '../engine/pkg/reclaim_core';
import { DEFAULT_KNOBS, SCENARIO_VERSION, ZONE_NAMES, type Draft, type MemcgDraft, type ScenarioDoc, type WorkloadDraft, type ZoneDraft, type ZoneName } from './model';

const NS_PER_MS = 1_000_000;
const text = (value: number | null | undefined, empty = ''): string => (value === undefined || value === null ? empty : String(value));
/** Nanoseconds as milliseconds, as short as exact. */
export const msText = (ns: number | undefined): string => String((ns ?? 0) / NS_PER_MS);

export function memcgDraft(m: MemcgSpec): MemcgDraft {
  return {
    path: m.path,
    memoryMax: text(m.memoryMax),
    memoryHigh: text(m.memoryHigh),
    memoryLow: text(m.memoryLow, '0'),
    memoryMin: text(m.memoryMin, '0'),
    swapMax: text(m.swapMax),
    base: m,
  };
}

export function workloadDraft(w: WorkloadSpec): WorkloadDraft {
  const t = w.target;
  return {
    name: w.name,
    memcg: w.memcg,
    node: text(w.node, '0'),
    pattern: w.pattern.kind,
    zipfS: w.pattern.kind === 'zipf' ? String(w.pattern.s) : '0.9',
    target: t.kind,
    op: t.kind === 'file' ? t.op : 'read',
    pages: String(t.pages),
    // The engine's defaults: mmap stores are all of a file's accesses, a heap has none (and read() and write() do not use it).
    writePercent: text(t.writePercent, t.kind === 'file' && t.op === 'mmapWrite' ? '100' : '0'),
    rate: text(w.rate, '0'),
    pacing: w.closedLoop ? 'closed' : 'open',
    startMs: msText(w.startNs),
    stopMs: msText(w.stopNs),
    trackedPages: w.trackedPages === undefined || w.trackedPages === null ? '' : String(w.trackedPages),
    base: w,
  };
}

export function draftOf(doc: ScenarioDoc): Draft {
  const knobs = { ...DEFAULT_KNOBS, ...(doc.knobs ?? {}) };
  return {
    name: doc.name,
    title: doc.title ?? '',
    seed: String(doc.seed),
    durationMs: msText(doc.durationNs),
    stepMs: msText(doc.stepNs),
    swapPages: text(doc.swapPages, '0'),
    storage: doc.machine?.storage ?? 'ssd',
    cpus: text(doc.machine?.cpus),
    nodes: doc.nodes.map((n) => ({ zones: n.zones.map((z) => ({ zone: z.zone, pages: String(z.pages) })) })),
    memcgs: (doc.memcgs ?? []).map(memcgDraft),
    workloads: doc.workloads.map(workloadDraft),
    knobs: { ...knobs, swappiness: String(knobs.swappiness) },
    base: doc,
  };
}

/** A new memcg for the editor's "Add memcg": a child of the root with no limits. */
export function newMemcg(existing: readonly MemcgDraft[]): MemcgDraft {
  const taken = new Set(existing.map((m) => m.path));
  let i = existing.length;
  while (taken.has(`/memcg${i}`)) i++;
  return { path: `/memcg${i}`, memoryMax: '', memoryHigh: '', memoryLow: '0', memoryMin: '0', swapMax: '' };
}

export function newWorkload(memcg: string, existing: readonly WorkloadDraft[]): WorkloadDraft {
  return {
    name: `task${existing.length}`,
    memcg,
    node: '0',
    pattern: 'uniform',
    zipfS: '0.9',
    target: 'anon',
    op: 'read',
    pages: '1024',
    writePercent: '0',
    rate: '100000',
    pacing: 'open',
    startMs: '0',
    stopMs: '0',
    trackedPages: '',
  };
}

/** The lowest zone not yet on a node, for "Add zone" (null when it has all four). */
export function nextZone(zones: readonly ZoneDraft[]): ZoneName | null {
  return ZONE_NAMES.find((z) => !zones.some((d) => d.zone === z)) ?? null;
}

/** Which of a workload's inputs the editor shows (the others do not matter for it, or have one choice). */
export function workloadShows(w: WorkloadDraft, nodes: number) {
  return {
    node: nodes > 1 || w.node.trim() !== '0',
    zipf: w.pattern === 'zipf',
    op: w.target === 'file',
    // The engine uses it only for a heap and for mmap stores.
    writePercent: w.target === 'anon' || w.op === 'mmapWrite',
    // Pacing matters only for a task with a rate.
    pacing: w.rate.trim() !== '' && Number(w.rate) !== 0,
  };
}

// ---------- draft -> document (only once checks.ts finds no problem) ----------

const num = (s: string): number => Number(s.trim());
const optional = (s: string): number | undefined => (s.trim() === '' ? undefined : num(s));
const ns = (ms: string): number => Math.round(num(ms || '0') * NS_PER_MS);
/** Zero is the engine's default for these: left out of the document. */
const unlessZero = (v: number): number | undefined => (v === 0 ? undefined : v);

/** Drops keys whose value is undefined (the engine reads a missing key as its default). */
function defined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;
}

function memcgDoc(m: MemcgDraft): MemcgSpec {
  return defined({
    ...m.base,
    path: m.path.trim(),
    memoryMax: optional(m.memoryMax),
    memoryHigh: optional(m.memoryHigh),
    memoryLow: unlessZero(optional(m.memoryLow) ?? 0),
    memoryMin: unlessZero(optional(m.memoryMin) ?? 0),
    swapMax: optional(m.swapMax),
  });
}

function workloadDoc(w: WorkloadDraft, nodes: number): WorkloadSpec {
  const shows = workloadShows(w, nodes);
  const pattern: Pattern = w.pattern === 'zipf' ? { kind: 'zipf', s: num(w.zipfS) } : { kind: w.pattern };
  const writePercent = shows.writePercent ? num(w.writePercent || '0') : undefined;
  const oldFile = w.base?.target.kind === 'file' ? w.base.target.file : undefined;
  const target: WorkloadSpec['target'] =
    w.target === 'file'
      ? defined({ kind: 'file' as const, pages: num(w.pages), op: w.op, file: oldFile, writePercent })
      : { kind: 'anon', pages: num(w.pages), writePercent: writePercent ?? 0 };
  return defined({
    ...w.base,
    name: w.name.trim(),
    memcg: w.memcg.trim(),
    node: shows.node ? unlessZero(num(w.node || '0')) : undefined,
    pattern,
    target,
    rate: unlessZero(num(w.rate || '0')),
    closedLoop: shows.pacing && w.pacing === 'closed' ? true : undefined,
    startNs: unlessZero(ns(w.startMs)),
    stopNs: unlessZero(ns(w.stopMs)),
    trackedPages: w.trackedPages.trim() === '' ? undefined : num(w.trackedPages),
  });
}

/** The document a draft stands for (call only when checks.ts finds no problem with it). */
export function docOf(draft: Draft): ScenarioDoc {
  const { base } = draft;
  const { swappiness, ...switches } = draft.knobs;
  return defined({
    version: SCENARIO_VERSION,
    name: draft.name.trim(),
    // Empty: none written, and the header shows the name (customTitle).
    title: draft.title.trim() || undefined,
    description: base.description,
    seed: num(draft.seed),
    stepNs: ns(draft.stepMs),
    durationNs: ns(draft.durationMs),
    nodes: draft.nodes.map((n) => ({ zones: n.zones.map((z) => ({ zone: z.zone, pages: num(z.pages) })) })),
    minFreeKbytes: base.minFreeKbytes ?? undefined,
    watermarkScaleFactor: base.watermarkScaleFactor,
    swapPages: num(draft.swapPages || '0'),
    memcgs: draft.memcgs.map(memcgDoc),
    workloads: draft.workloads.map((w) => workloadDoc(w, draft.nodes.length)),
    proactive: base.proactive && base.proactive.length > 0 ? base.proactive : undefined,
    // The defaults (an SSD, a CPU per task) are left out, as the template has them.
    machine:
      draft.storage === 'ssd' && draft.cpus.trim() === ''
        ? undefined
        : defined({ storage: draft.storage, cpus: draft.cpus.trim() === '' ? undefined : num(draft.cpus) }),
    knobs: { ...switches, swappiness: num(swappiness) },
  });
}
