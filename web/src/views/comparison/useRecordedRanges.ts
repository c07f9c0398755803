// The range tables `npm run experiments` recorded with the native engine
// (recorded-ranges.json, the tables of docs/experiments.md), loaded once on
// first use as a chunk of their own: an experiment's page shows its table
// before anyone runs the check, and the check in the browser redoes it.
import { useEffect, useState } from 'react';
import type { RecordedRanges } from '../../engine/pkg/reclaim_core';

let loading: Promise<RecordedRanges> | null = null;

/** The recorded sweeps (one import for the whole app). */
export function loadRecordedRanges(): Promise<RecordedRanges> {
  loading ??= import('./recorded-ranges.json').then(
    (m) => {
      // The file is written by reclaim-sim from the same Rust type.
      const recorded: RecordedRanges = m.default;
      return recorded;
    },
    (e: unknown) => {
      loading = null; // another page may try again
      throw e;
    },
  );
  return loading;
}

/** The recorded sweeps once loaded (null before, or if the chunk cannot be loaded); nothing is loaded until `wanted`. */
export function useRecordedRanges(wanted = true): RecordedRanges | null {
  const [recorded, setRecorded] = useState<RecordedRanges | null>(null);
  useEffect(() => {
    if (!wanted) return;
    let live = true;
    loadRecordedRanges().then(
      (r) => {
        if (live) setRecorded(r);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [wanted]);
  return recorded;
}
