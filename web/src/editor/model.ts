// The scenario editor's model: the scenario document (the engine's scenario
// file format, wasm-core/src/scenario: Scenario, NodeSpec, ZoneSpec,
// MemcgSpec, WorkloadSpec, Knobs), the editor's draft of it, which keeps
// every input's text as typed so that a bad value stays on screen with its
// message, and the template. Fields the editor does not show (a memcg's own
// swappiness, a workload's gfp or shared file, memory.reclaim writers, the
// watermark settings) are kept from the document the draft started from
// (draft.ts turns one into the other).
//
// DOM-free.
import type { FileOp, Machine, MemcgSpec, Pattern, ProactiveBatch, ProactiveSpec, WorkloadSpec } from '../engine/pkg/reclaim_core';

/** The scenario format version this editor writes. */
export const SCENARIO_VERSION = 1;

export const ZONE_NAMES = ['DMA', 'DMA32', 'Normal', 'Movable'] as const;
export type ZoneName = (typeof ZONE_NAMES)[number];
export const PATTERNS = ['zipf', 'uniform', 'sequential', 'loop'] as const satisfies readonly Pattern['kind'][];
export const FILE_OPS = ['read', 'write', 'mmapRead', 'mmapWrite'] as const satisfies readonly FileOp[];
export const BATCHES = ['decaying', 'swapClusterMax', 'whole'] as const satisfies readonly ProactiveBatch[];

/** The switches (docs/switches.md); the engine's defaults are the v6.12 baseline. */
export interface KnobsDoc {
  lruGenEnabled: boolean;
  swappiness: number;
  kswapdClasszoneFix: boolean;
  memcgLru: boolean;
  proactiveBatch: ProactiveBatch;
  memcgFullWalk: boolean;
  optimizeMultipleMemcgs: boolean;
  refaultDistanceMglru: boolean;
  mglruUnderprotectionFix: boolean;
}

export const DEFAULT_KNOBS: KnobsDoc = {
  lruGenEnabled: true,
  swappiness: 60,
  kswapdClasszoneFix: true,
  memcgLru: true,
  proactiveBatch: 'decaying',
  memcgFullWalk: false,
  optimizeMultipleMemcgs: true,
  refaultDistanceMglru: false,
  mglruUnderprotectionFix: true,
};

export type BoolKnob = Exclude<keyof KnobsDoc, 'swappiness' | 'proactiveBatch'>;
export const BOOL_KNOBS: readonly BoolKnob[] = [
  'lruGenEnabled',
  'memcgLru',
  'optimizeMultipleMemcgs',
  'kswapdClasszoneFix',
  'memcgFullWalk',
  'refaultDistanceMglru',
  'mglruUnderprotectionFix',
];

export interface ZoneDoc {
  zone: ZoneName;
  pages: number;
}

/** A scenario file (the engine's `Scenario`, camelCase). */
export interface ScenarioDoc {
  version: number;
  name: string;
  title?: string;
  description?: string;
  seed: number;
  stepNs: number;
  durationNs: number;
  nodes: { zones: ZoneDoc[] }[];
  minFreeKbytes?: number | null;
  watermarkScaleFactor?: number;
  swapPages?: number;
  memcgs?: MemcgSpec[];
  workloads: WorkloadSpec[];
  proactive?: ProactiveSpec[];
  /** Storage and CPUs (docs/cost-model.md); kept as loaded, not edited. */
  machine?: Machine;
  knobs?: Partial<KnobsDoc>;
}

export interface ZoneDraft {
  zone: ZoneName;
  pages: string;
}

export interface MemcgDraft {
  path: string;
  /** Empty: no limit ("max"). */
  memoryMax: string;
  memoryHigh: string;
  memoryLow: string;
  memoryMin: string;
  swapMax: string;
  /** The memcg this one was read from (its other fields are kept). */
  base?: MemcgSpec;
}

export interface WorkloadDraft {
  name: string;
  memcg: string;
  node: string;
  pattern: Pattern['kind'];
  /** The zipf exponent (with pattern zipf). */
  zipfS: string;
  target: 'file' | 'anon';
  op: FileOp;
  pages: string;
  writePercent: string;
  /** Accesses per simulated second (0: as fast as its costs allow). */
  rate: string;
  startMs: string;
  /** 0: never stops. */
  stopMs: string;
  /** Pages of it the views track ('' = the automatic sample). */
  trackedPages: string;
  base?: WorkloadSpec;
}

export interface KnobsDraft extends Omit<KnobsDoc, 'swappiness'> {
  swappiness: string;
}

export interface Draft {
  name: string;
  seed: string;
  durationMs: string;
  stepMs: string;
  swapPages: string;
  nodes: { zones: ZoneDraft[] }[];
  memcgs: MemcgDraft[];
  workloads: WorkloadDraft[];
  knobs: KnobsDraft;
  /** The document the draft started from: what the editor does not show comes from it. */
  base: ScenarioDoc;
}

/**
 * The editor's starting point when the running scenario is a built-in one
 * (the engine does not hand out a built-in scenario's document): the
 * machine and tasks of mglru-basic at its defaults, one memcg with a
 * memory.max, a reader streaming a file and a key-value heap.
 */
export function templateDoc(seed: number): ScenarioDoc {
  return {
    version: SCENARIO_VERSION,
    name: 'my-scenario',
    title: 'My scenario',
    seed,
    stepNs: 10_000_000,
    durationNs: 5_000_000_000,
    nodes: [{ zones: [{ zone: 'Normal', pages: 16_384 }] }],
    swapPages: 4096,
    memcgs: [{ path: '/job', memoryMax: 2048 }],
    workloads: [
      { name: 'reader', memcg: '/job', pattern: { kind: 'zipf', s: 0.9 }, target: { kind: 'file', pages: 4096, op: 'read' } },
      { name: 'kv', memcg: '/job', pattern: { kind: 'zipf', s: 0.9 }, target: { kind: 'anon', pages: 1024, writePercent: 30 }, rate: 200_000 },
    ],
    knobs: { ...DEFAULT_KNOBS },
  };
}
