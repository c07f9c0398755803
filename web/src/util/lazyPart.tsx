// A part of the page that is loaded when first shown, in its own chunk, so the
// initial page does not carry it (docs/performance.md): React.lazy over a
// named export. A chunk that fails to load (the network went away, or a new
// deployment replaced it) shows what failed in its place; the rest of the page
// keeps working.
import { lazy, type ComponentType } from 'react';
import { errorMessage } from '../engine/host';

export function lazyPart<P extends object>(what: string, load: () => Promise<ComponentType<P>>) {
  return lazy(async (): Promise<{ default: ComponentType<P> }> => {
    try {
      return { default: await load() };
    } catch (error) {
      const message = `${what} could not be loaded (${errorMessage(error)}); reload the page to try again.`;
      return {
        default: function PartFailed() {
          return (
            <p className="part-failed" role="alert" data-testid="part-failed">
              {message}
            </p>
          );
        },
      };
    }
  });
}

/** What a lazy part shows while its chunk loads. */
export function PartLoading({ what }: { what: string }) {
  return (
    <p className="hint" role="status">
      Loading {what}…
    </p>
  );
}
