// The one place the page changes the address bar (without a history entry):
// its query, for a shared link's run in the readable form (main.tsx), the
// run when it starts (useSimulation), a tour's step (useTour), the step and
// the view once the page is still (useAddressBar); its hash, for the trace
// page while it is open (TraceEntry).

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
