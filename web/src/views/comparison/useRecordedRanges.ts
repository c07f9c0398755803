// The range tables `npm run experiments` recorded with the native engine
// (recorded-ranges.json, the tables of docs/experiments.md), loaded once on
// first use as a chunk of their own: an experiment's page shows its table
// before anyone runs the check, and the check in the browser redoes it.
import { useEffect, useMemo, useState } from 'react';
import type { ExperimentInfo, RecordedRanges } from '../../engine/pkg/reclaim_core';
import { CHECK_SEEDS } from '../../useComparison';
import { recordedRangeResult, type RangeCheckResult } from './ranges';

let loading: Promise<RecordedRanges> | null = null;

/** The recorded sweeps (one import for the whole app). */
function loadRecordedRanges(): Promise<RecordedRanges> {
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

/**
 * The range table recorded for `experiment` on seeds 1 to 5: null with no
 * experiment (nothing is loaded then), before the record is loaded or if it
 * cannot be, and for a record of other points, headlines or seeds.
 */
export function useRecordedRange(experiment: ExperimentInfo | undefined): RangeCheckResult | null {
  const recorded = useRecordedRanges(experiment !== undefined);
  return useMemo(() => (experiment && recorded ? recordedRangeResult(experiment, recorded, CHECK_SEEDS) : null), [experiment, recorded]);
}

/** The recorded sweeps once loaded (null before, or if the chunk cannot be loaded); nothing is loaded until `wanted`. */
function useRecordedRanges(wanted: boolean): RecordedRanges | null {
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
