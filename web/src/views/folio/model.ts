// The folio history panel's model: where a tracked page is now, in words,
// and its recorded decisions newest first. DOM-free.
import type { EventView, FolioHistory, TrackedFolioView } from '../../engine/pkg/reclaim_core';

/** The page's current state: "resident in generation 7, tier 2", "evicted: a shadow entry remains". */
export function folioStateText(folio: TrackedFolioView | undefined, lruGen: boolean): string {
  if (!folio) return 'not tracked in this scenario';
  const kind = folio.kind === 'anon' ? 'anon' : 'file';
  switch (folio.state) {
    case 'resident':
      return lruGen
        ? `resident in generation ${folio.seq ?? '?'}, tier ${folio.tier}`
        : `resident on the ${folio.active ? 'active' : 'inactive'} ${kind} list`;
    case 'evicted':
      return 'evicted: a shadow entry remains';
    case 'swapped':
      return 'swapped out: a swap entry (with its shadow) remains';
    case 'absent':
      return 'absent: never touched';
    default:
      return folio.state;
  }
}

export interface HistoryRow {
  /** Stable React key within one history. */
  key: string;
  step: number;
  timeNs: number;
  kind: string;
  function: string;
  reason: string;
}

/** The history's decisions, newest first. */
export function historyRows(history: FolioHistory | null): HistoryRow[] {
  if (!history) return [];
  const rows = history.events.map((e: EventView, i) => ({
    key: `${e.step}:${e.timeNs}:${i}`,
    step: e.step,
    timeNs: e.timeNs,
    kind: e.kind,
    function: e.function,
    reason: e.reason,
  }));
  return rows.reverse();
}
