// The tiers table's model: the MGLRU PID controller's inputs per type and
// tier (what /sys/kernel/debug/lru_gen_full prints), as refaulted / total
// and a refault rate. DOM-free.
import type { TierView } from '../../engine/pkg/reclaim_core';
import type { FolioType } from '../generations/model';

export interface TierCell {
  /** Refaults of folios evicted from this tier: the running average plus the current generation's. */
  refaulted: number;
  /** Folios evicted from or protected in this tier: the running average plus the current generation's. */
  total: number;
  /** refaulted / total, or null when nothing left or stayed in the tier yet. */
  rate: number | null;
  /** Folios sort_folio protected in this tier in the current generation. */
  protected: number;
  /** sort_folio protects the tier: it is above the tier_idx its type was last scanned with (the engine's). */
  protectedTier: boolean;
}

export interface TierRow {
  tier: number;
  cells: Record<FolioType, TierCell>;
}

const EMPTY: TierCell = { refaulted: 0, total: 0, rate: null, protected: 0, protectedTier: false };

function cellOf(t: TierView): TierCell {
  const refaulted = t.avgRefaulted + t.refaulted;
  const total = t.avgTotal + t.evicted + t.protected;
  return { refaulted, total, rate: total > 0 ? refaulted / total : null, protected: t.protected, protectedTier: t.aboveTierIdx };
}

/** One row per tier (0 up to the highest the engine reports), anon and file side by side. */
export function tiersModel(tiers: readonly TierView[]): TierRow[] {
  const count = tiers.length ? Math.max(...tiers.map((t) => t.tier)) + 1 : 0;
  const rows: TierRow[] = Array.from({ length: count }, (_, tier) => ({ tier, cells: { anon: EMPTY, file: EMPTY } }));
  for (const t of tiers) {
    const kind: FolioType = t.kind === 'anon' ? 'anon' : 'file';
    rows[t.tier]!.cells[kind] = cellOf(t);
  }
  return rows;
}

/** A refault rate as a percentage: 0.1234 -> "12.3%", null -> "–". */
export function formatRate(rate: number | null): string {
  if (rate === null) return '–';
  const percent = rate * 100;
  return `${percent >= 10 || percent === 0 ? percent.toFixed(0) : percent.toFixed(1)}%`;
}
