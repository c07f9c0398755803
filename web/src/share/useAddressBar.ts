// Keeps the address bar a readable link to what the page shows, so that a
// reload, a bookmark or a link copied from it opens the same step and view:
// the run (useSimulation writes it when a run starts) plus the step, when
// past 0, and the view, when it is not the page's first (scenario/pageUrl.ts).
// It writes once the page is still (not playing, no long move) for a moment.
// Side by side, the link says so (compare=LEFT,RIGHT) and its step is the
// sides' step. An open tour writes its own keys (useTour): then the address
// bar is left to it.
import { useEffect } from 'react';
import type { ScenarioRequest } from '../engine/pkg/reclaim_core';
import { encodePageUrl } from '../scenario/pageUrl';
import { SHARE_TABS, type CompareView, type ShareTab } from '../scenario/share';
import { MAX_ADDRESS_CHARS, compactAddress, replaceAddressQuery } from './address';

/** How long the page must be still before the address bar follows it. */
const SETTLE_MS = 250;

export interface AddressBarView {
  request: ScenarioRequest | null;
  step: number | null;
  tab: string;
  /** The view the page opens on for this run (not written). */
  firstTab: string;
  /** Side by side: its variants and the sides' step (the page's own run then waits at 0). */
  compare?: CompareView;
  /** Not playing and no long move in progress. */
  still: boolean;
  /** A tour has the address bar. */
  elsewhere: boolean;
}

/** The readable link for this view (null when the view says nothing beyond the run, or no URL can carry it). */
export function addressFor({ request, step, tab, firstTab, compare }: Omit<AddressBarView, 'still' | 'elsewhere'>): string | null {
  if (!request || step === null) return null;
  const shareTab = (SHARE_TABS as readonly string[]).includes(tab) && tab !== firstTab ? (tab as ShareTab) : undefined;
  const at = compare ? compare.step : step;
  try {
    return encodePageUrl(request, {
      ...(compare ? { compare: [...compare.variants] } : {}),
      ...(at > 0 ? { step: at } : {}),
      ...(shareTab ? { tab: shareTab } : {}),
    });
  } catch {
    // A run the readable codec cannot carry (a custom scenario's document): useSimulation's URL stays.
    return null;
  }
}

export function useAddressBar(view: AddressBarView): void {
  const { request, step, tab, firstTab, compare, still, elsewhere } = view;
  const compareKey = compare ? `${compare.variants.join(',')}@${compare.step}` : null;
  useEffect(() => {
    if (!still || elsewhere) return;
    const query = addressFor({ request, step, tab, firstTab, compare });
    if (query === null || request === null || step === null) return;
    let current = true;
    const timer = setTimeout(() => {
      if (query.length <= MAX_ADDRESS_CHARS) {
        replaceAddressQuery(query);
        return;
      }
      // Too long for a server to take back (MAX_ADDRESS_CHARS): the compact form Copy link makes, else no run at all
      // (a reload then opens the default scenario; the editor's Save scenario file keeps it).
      const shareTab: ShareTab = (SHARE_TABS as readonly string[]).includes(tab) ? (tab as ShareTab) : 'lru';
      void compactAddress({ request, step: compare ? compare.step : step, tab: shareTab, ...(compare ? { compare } : {}) }).then(
        (packed) => current && replaceAddressQuery(packed),
      );
    }, SETTLE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
    // compare by its key: a new object for the same variants and step writes nothing new.
  }, [request, step, tab, firstTab, compareKey, still, elsewhere]);
}
