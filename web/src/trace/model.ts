// The trace page's pure parts: the policies offered, the cache size field,
// miss-ratio series from the engine's samples, and the results table.
import type { Policy, PolicyResult, Sample, TraceFormat } from '../engine/pkg/reclaim_core';
import { formatCount, formatPages } from '../util/format';

export interface PolicyInfo {
  policy: Policy;
  label: string;
  /** Whether it is a kernel policy or a textbook baseline. */
  kernel: boolean;
  description: string;
}

/** Every policy the engine replays with, in the order the page lists them. */
export const POLICIES: readonly PolicyInfo[] = [
  { policy: 'mglru', label: 'MGLRU', kernel: true, description: 'the multi-gen LRU (v6.12), with the memcg LRU' },
  { policy: 'classic', label: 'classic LRU', kernel: true, description: 'the active/inactive lists (CONFIG_LRU_GEN off)' },
  { policy: 'lru', label: 'exact LRU', kernel: false, description: 'textbook: evicts the least recently used page' },
  { policy: 'clock', label: 'CLOCK', kernel: false, description: 'textbook: one reference bit, a sweeping hand' },
  { policy: 's3fifo', label: 'S3-FIFO', kernel: false, description: 'textbook (SOSP 2023): small, main and ghost FIFOs' },
];

export function policyLabel(policy: Policy): string {
  return POLICIES.find((p) => p.policy === policy)?.label ?? policy;
}

/** The format field: automatic (file name, then content) or one format. */
export type FormatChoice = 'auto' | TraceFormat;

export const FORMATS: readonly { value: FormatChoice; label: string }[] = [
  { value: 'auto', label: 'automatic: by extension or content' },
  { value: 'oracleGeneral', label: 'libCacheSim oracleGeneral (binary)' },
  { value: 'csv', label: 'CSV / text (obj_id or time,obj_id[,size][,op])' },
];

export const MIN_CACHE_PAGES = 1;
/** The page's limit (the engine takes up to 8 Mi pages; several policies side by side in one wasm memory take less). */
export const MAX_CACHE_PAGES = 4_194_304;
export const DEFAULT_CACHE_PAGES = 262_144;

/** The cache size field: a whole number of pages in range, or why not. */
export function parseCachePages(text: string): { pages: number } | { error: string } {
  const t = text.trim().replace(/[,_\s]/g, '');
  if (t === '') return { error: `enter a cache size: a whole number of pages from ${formatCount(MIN_CACHE_PAGES)} to ${formatCount(MAX_CACHE_PAGES)}` };
  if (!/^\d+$/.test(t)) return { error: `"${text.trim()}" is not a whole number of pages` };
  const pages = Number(t);
  if (pages < MIN_CACHE_PAGES || pages > MAX_CACHE_PAGES) {
    return { error: `${formatCount(pages)} pages is out of range ${formatCount(MIN_CACHE_PAGES)}–${formatCount(MAX_CACHE_PAGES)} (${formatPages(MAX_CACHE_PAGES)})` };
  }
  return { pages };
}

export interface Point {
  /** Accesses so far. */
  x: number;
  /** Miss ratio. */
  y: number;
}

/** Intervals the per-interval series is cut into (at most). */
export const INTERVALS = 100;

/**
 * Miss ratio over time from the engine's samples (misses after so many
 * accesses): per interval (the samples joined into at most `intervals`
 * intervals of equal sample counts) or cumulative since the start.
 */
export function missRatioSeries(samples: readonly Sample[], mode: 'interval' | 'cumulative', intervals = INTERVALS): Point[] {
  const points: Point[] = [];
  if (mode === 'cumulative') {
    for (const s of samples) if (s.accesses > 0) points.push({ x: s.accesses, y: s.misses / s.accesses });
    return points;
  }
  const stride = Math.max(1, Math.ceil(samples.length / intervals));
  let prev: Sample = { accesses: 0, misses: 0 };
  for (let i = 0; i < samples.length; i += stride) {
    const s = samples[Math.min(samples.length - 1, i + stride - 1)]!;
    const accesses = s.accesses - prev.accesses;
    if (accesses <= 0) continue;
    points.push({ x: s.accesses, y: (s.misses - prev.misses) / accesses });
    prev = s;
  }
  return points;
}

export interface ResultRow {
  policy: Policy;
  label: string;
  accesses: string;
  misses: string;
  missRatio: string;
  coldMisses: string;
  reclaimed: string;
  refaults: string;
  /** The lowest miss ratio of the table. */
  best: boolean;
  /** The unformatted figures (for data attributes). */
  ratio: number;
  missCount: number;
}

/** The final table: one row per policy, the lowest miss ratio marked (none when every policy ties). */
export function resultRows(results: readonly PolicyResult[]): ResultRow[] {
  const best = Math.min(...results.map((r) => r.missRatio));
  const allTie = results.every((r) => r.missRatio === best);
  return results.map((r) => ({
    policy: r.policy,
    label: policyLabel(r.policy),
    accesses: formatCount(r.accesses),
    misses: formatCount(r.misses),
    missRatio: formatRatio(r.missRatio),
    coldMisses: formatCount(r.coldMisses),
    reclaimed: formatCount(r.counters.pgsteal_direct ?? 0),
    refaults: formatCount(r.counters.workingset_refault_file ?? 0),
    best: results.length > 1 && !allTie && r.missRatio === best,
    ratio: r.missRatio,
    missCount: r.misses,
  }));
}

/** 0.123456 -> "0.1235" (four places, as the command line prints). */
export function formatRatio(ratio: number): string {
  return ratio.toFixed(4);
}

/** Progress through the file, 0..1 (the bytes read of its size). */
export function fraction(bytesRead: number, totalBytes: number): number {
  return totalBytes > 0 ? Math.min(1, bytesRead / totalBytes) : 0;
}
