// Keeps the address bar a readable link to what the page shows, so that a
// reload, a bookmark or a link copied from it opens the same step and view:
// the run (useSimulation writes it when a run starts) plus the step, when
// past 0, and the view, when it is not the page's first (scenario/pageUrl.ts).
// It writes once the page is still (not playing, no long move) for a moment.
// An open tour writes its own keys (useTour), and compare mode's steps are
// its own: then the address bar is left to them.
import { useEffect } from 'react';
import type { ScenarioRequest } from '../engine/pkg/reclaim_core';
import { encodePageUrl } from '../scenario/pageUrl';
import { SHARE_TABS, type ShareTab } from '../scenario/share';
import { replaceAddressQuery } from './address';

/** How long the page must be still before the address bar follows it. */
const SETTLE_MS = 250;

export interface AddressBarView {
  request: ScenarioRequest | null;
  step: number | null;
  tab: string;
  /** The view the page opens on for this run (not written). */
  firstTab: string;
  /** Not playing and no long move in progress. */
  still: boolean;
  /** A tour or compare mode has the address bar. */
  elsewhere: boolean;
}

/** The readable link for this view (null when the view says nothing beyond the run, or no URL can carry it). */
export function addressFor({ request, step, tab, firstTab }: Omit<AddressBarView, 'still' | 'elsewhere'>): string | null {
  if (!request || step === null) return null;
  const shareTab = (SHARE_TABS as readonly string[]).includes(tab) && tab !== firstTab ? (tab as ShareTab) : undefined;
  try {
    return encodePageUrl(request, { ...(step > 0 ? { step } : {}), ...(shareTab ? { tab: shareTab } : {}) });
  } catch {
    // A run the readable codec cannot carry (a custom scenario's document): useSimulation's URL stays.
    return null;
  }
}

export function useAddressBar(view: AddressBarView): void {
  const { request, step, tab, firstTab, still, elsewhere } = view;
  useEffect(() => {
    if (!still || elsewhere) return;
    const query = addressFor({ request, step, tab, firstTab });
    if (query === null) return;
    const timer = setTimeout(() => replaceAddressQuery(query), SETTLE_MS);
    return () => clearTimeout(timer);
  }, [request, step, tab, firstTab, still, elsewhere]);
}
