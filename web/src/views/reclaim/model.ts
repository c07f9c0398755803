// The memory.reclaim view's model: the recent writes (newest first) with what
// each asked for and got, and one write's rounds (each
// try_to_free_mem_cgroup_pages() call: the batch it asked for, what it
// reclaimed). DOM-free.
import type { ReclaimView } from '../../engine/pkg/reclaim_core';
import { counted, formatCount, formatDelta } from '../../util/format';

export interface ReclaimRow {
  /** Stable across frames: start time and memcg. */
  key: string;
  memcg: string;
  startNs: number;
  durationNs: number;
  requested: number;
  reclaimed: number;
  overreclaim: number;
  /** overreclaim / requested in percent (null for a request of 0). */
  overPercent: number | null;
  rounds: number;
  /** False: the write failed with -EAGAIN (reclaimed less than asked after its retries). */
  ok: boolean;
}

export function reclaimKey(r: Pick<ReclaimView, 'startNs' | 'memcg'>): string {
  return `${r.startNs}:${r.memcg}`;
}

/** The writes, newest first. */
export function reclaimRows(reclaims: readonly ReclaimView[]): ReclaimRow[] {
  return reclaims
    .map((r) => ({
      key: reclaimKey(r),
      memcg: r.memcg,
      startNs: r.startNs,
      durationNs: r.durationNs,
      requested: r.requested,
      reclaimed: r.reclaimed,
      overreclaim: r.overreclaim,
      overPercent: r.requested > 0 ? (100 * r.overreclaim) / r.requested : null,
      rounds: r.rounds.length,
      ok: r.ok,
    }))
    .reverse();
}

/** "+4 (+1.6%)", "−12 (−4.7%)", "0 (0%)", "+3 (+0.02%)": a share under 0.1 % keeps one significant digit, never "+0.0%". */
export function formatOverreclaim(row: Pick<ReclaimRow, 'overreclaim' | 'overPercent'>): string {
  const pct = row.overPercent;
  if (pct === null) return formatDelta(row.overreclaim);
  const abs = Math.abs(pct);
  const digits = abs >= 10 ? 0 : abs >= 0.1 ? 1 : Math.min(4, Math.ceil(-Math.log10(abs)));
  const text = pct === 0 ? '0%' : `${pct > 0 ? '+' : '−'}${abs.toFixed(digits)}%`;
  return `${formatDelta(row.overreclaim)} (${text})`;
}

export interface RoundBar {
  round: number;
  batch: number;
  reclaimed: number;
  /** Reclaimed beyond the batch asked for in this round. */
  over: number;
  label: string;
}

export interface RoundsModel {
  key: string;
  memcg: string;
  requested: number;
  reclaimed: number;
  bars: RoundBar[];
  /** The y domain top. */
  yMax: number;
  /** Pages still to reclaim before each round (requested − reclaimed so far). */
  remaining: number[];
  summary: string;
}

/** One write's rounds. */
/** The rounds a screen reader's summary names one by one; the rest are counted. */
const SUMMARY_ROUNDS = 24;

export function roundsModel(r: ReclaimView): RoundsModel {
  let done = 0;
  const remaining: number[] = [];
  const bars = r.rounds.map((round, i) => {
    remaining.push(Math.max(0, r.requested - done));
    done += round.reclaimed;
    return {
      round: i + 1,
      batch: round.batch,
      reclaimed: round.reclaimed,
      over: Math.max(0, round.reclaimed - round.batch),
      label: `round ${i + 1}: asked for ${formatCount(round.batch)}, reclaimed ${formatCount(round.reclaimed)}`,
    };
  });
  const yMax = Math.max(1, ...bars.map((b) => Math.max(b.batch, b.reclaimed)));
  const summary =
    `memory.reclaim of ${r.memcg}: ${formatCount(r.requested)} pages requested, ${formatCount(r.reclaimed)} reclaimed in ` +
    `${counted(bars.length, 'round')}${r.ok ? '' : ', -EAGAIN'}. ` +
    bars
      .slice(0, SUMMARY_ROUNDS)
      .map((b) => b.label)
      .join('; ') +
    (bars.length > SUMMARY_ROUNDS ? `; and ${formatCount(bars.length - SUMMARY_ROUNDS)} more rounds.` : '.');
  return { key: reclaimKey(r), memcg: r.memcg, requested: r.requested, reclaimed: r.reclaimed, bars, yMax, remaining, summary };
}
