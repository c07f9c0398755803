// The one way into the trace page from the app: a header button (or the
// address #trace) opens it as a modal dialog over the simulation, which
// keeps its state. The page stays mounted once opened, so closing and
// reopening keeps its results.
import { Suspense, useEffect, useRef, useState } from 'react';
import { replaceAddressHash } from '../share/address';
import { lazyPart, PartLoading } from '../util/lazyPart';
import './trace.css';

// The trace page is loaded when first opened: most visits never open it.
const TracePage = lazyPart('The trace replay page', () => import('./TracePage').then((m) => m.TracePage));

const HASH = '#trace';

export function TraceEntry() {
  const [open, setOpen] = useState(() => window.location.hash === HASH);
  const [mounted, setMounted] = useState(open);
  const dialogRef = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const onHash = () => {
      if (window.location.hash === HASH) setOpen(true);
    };
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);

  useEffect(() => {
    const dialog = dialogRef.current;
    if (!dialog) return;
    if (open && !dialog.open) {
      setMounted(true);
      dialog.showModal();
    } else if (!open && dialog.open) {
      dialog.close();
    }
  }, [open]);

  // Open: the address says so (#trace), so it can be bookmarked or sent.
  const show = () => {
    setOpen(true);
    replaceAddressHash(HASH);
  };

  const close = () => {
    setOpen(false);
    if (window.location.hash === HASH) replaceAddressHash('');
  };

  return (
    <>
      <button type="button" className="button small" onClick={show} data-testid="open-trace" aria-haspopup="dialog">
        Trace replay
      </button>
      <dialog
        ref={dialogRef}
        className="trace-dialog"
        aria-labelledby="trace-title"
        onClose={close}
        // The simulation's keyboard shortcuts stay outside.
        onKeyDown={(e) => e.stopPropagation()}
      >
        {mounted && (
          <Suspense
            fallback={
              <div className="trace-page">
                <h2 id="trace-title">Trace replay</h2>
                <PartLoading what="the trace replay page" />
              </div>
            }
          >
            <TracePage onClose={close} />
          </Suspense>
        )}
      </dialog>
    </>
  );
}
