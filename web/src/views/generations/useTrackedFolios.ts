// The tracked sample of the frame shown, indexed once per run: the pages of
// each lruvec's chart and the full record of any one page.
import { useMemo, useRef } from 'react';
import type { LruvecView, TrackedFolioView } from '../../engine/pkg/reclaim_core';
import { lruvecKey } from './model';
import { sameSpaces, TrackedIndex, trackedByLruvec, type LruvecFolios, type TrackedFrame } from './tracked';

export interface TrackedFolios {
  index: TrackedIndex | null;
  /** The tracked pages drawn with each lruvec, by lruvec key. */
  byLruvec: Map<string, LruvecFolios>;
  /** The tracked pages drawn with a lruvec (none if it is not in the frame). */
  of(lruvec: Pick<LruvecView, 'memcg' | 'node'>): LruvecFolios;
  /** The full record of a page in the frame shown (undefined when it is not tracked). */
  record(page: string | null): TrackedFolioView | undefined;
}

const EMPTY_FRAME: TrackedFrame = { step: 0, lruvecs: [], tracked: { spaces: [], cells: new Uint8Array(0) } };

export function useTrackedFolios(frame: TrackedFrame | null): TrackedFolios {
  const indexRef = useRef<TrackedIndex | null>(null);
  return useMemo(() => {
    if (!frame) {
      return {
        index: null,
        byLruvec: new Map(),
        of: () => ({ frame: EMPTY_FRAME, index: new TrackedIndex(EMPTY_FRAME.tracked), ids: new Uint32Array(0) }),
        record: () => undefined,
      };
    }
    if (!indexRef.current || !sameSpaces(indexRef.current.tracked, frame.tracked)) indexRef.current = new TrackedIndex(frame.tracked);
    const index = indexRef.current;
    const byLruvec = trackedByLruvec(frame, index);
    return {
      index,
      byLruvec,
      of: (lruvec) => byLruvec.get(lruvecKey(lruvec)) ?? { frame, index, ids: new Uint32Array(0) },
      record: (page: string | null) => {
        const i = page === null ? -1 : index.find(page);
        return i < 0 ? undefined : index.record(frame, i);
      },
    };
  }, [frame]);
}
