// The one place the page changes the address bar (without a history entry):
// its query, for a shared link's run in the readable form (main.tsx), the
// run when it starts (useSimulation), a tour's step (useTour), the step and
// the view once the page is still (useAddressBar); its hash, for the trace
// page while it is open (TraceEntry).
import { encodeSharedView, type SharedView } from '../scenario/share';

/**
 * The longest query the page writes in the readable form. A server refuses a
 * request line past its header limit (nginx's default buffer is 8 KB, Node's
 * and so Vite's 16 KB: a reload would fail with 431), which a custom
 * scenario's document can pass; such a run goes in the address bar in the
 * compact form Copy link makes (useAddressBar), or not at all.
 */
export const MAX_ADDRESS_CHARS = 8000;

/**
 * The compact form of `view` (what Copy link makes) for the address bar, or
 * '' (no run) when even that cannot hold it: for a run whose readable query
 * is longer than MAX_ADDRESS_CHARS.
 */
export function compactAddress(view: SharedView): Promise<string> {
  return encodeSharedView(view).catch(() => '');
}

let bootSearch: string | null = null;

/**
 * The query the session reads its run from when it starts: the address's,
 * or the readable form of a shared link whose run is too long for the
 * address bar (main.tsx keeps the compact link there and sets this).
 */
export function startingQuery(): string {
  return bootSearch ?? window.location.search;
}

export function setStartingQuery(query: string): void {
  bootSearch = query;
}

/** Puts `query` (with its `?`) in the address bar, without a history entry, if it is not there already. */
export function replaceAddressQuery(query: string): void {
  const url = `${window.location.pathname}${query}${window.location.hash}`;
  if (url !== `${window.location.pathname}${window.location.search}${window.location.hash}`) {
    window.history.replaceState(window.history.state, '', url);
  }
}

/** Puts `hash` (with its `#`, or '' for none) in the address bar, without a history entry, if it is not there already. */
export function replaceAddressHash(hash: string): void {
  if (window.location.hash !== hash) {
    window.history.replaceState(window.history.state, '', `${window.location.pathname}${window.location.search}${hash}`);
  }
}
