// The open tour's panel: a non-modal dialog at the bottom of the window with
// the step's title and text (announced when it changes), where the run is
// going, whether the text holds of what the page shows, and Previous, Next
// and Exit tour. Escape closes it too; focus goes to the panel when the tour
// opens and back to where it was when it closes. The step's view element
// is ringed (highlight.ts). The reader can move the panel to the other side
// or fold it down to its buttons, to see a wide table it would cover; either
// lasts until the next step, whose text opens again. The first time a tour
// opens its steps are fetched (loadTour): the panel says so if that takes
// a while, and if it fails, with Try again.
import { useEffect, useId, useRef, useState } from 'react';
import { useTourHighlight } from './highlight';
import type { TourController } from './useTour';
import './tour.css';

/** How long a tour's steps may take to arrive before the panel says they are loading. */
const LOADING_SHOWN_AFTER_MS = 300;

export interface TourPanelProps {
  tour: TourController;
}

export function TourPanel({ tour }: TourPanelProps) {
  const { open, loading } = tour;
  const ids = useId();
  const panelRef = useRef<HTMLDivElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const returnTo = useRef<HTMLElement | null>(null);
  const isOpen = open !== null || loading !== null;
  const key = open ? `${open.tour.experiment}#${open.index}` : '';
  const { side: placed, found } = useTourHighlight(open?.step ?? null, !!open && !open.moving, key);
  // The reader can move the panel to the other side, to read what it covers; until the next step.
  const [moved, setMoved] = useState<string | null>(null);
  const side = moved === key ? (placed === 'left' ? 'right' : 'left') : placed;
  const [folded, setFolded] = useState<string | null>(null);
  const isFolded = folded === key;

  // Focus: into the panel when the tour opens, back where it was when it closes.
  useEffect(() => {
    if (!isOpen) return;
    const before = document.activeElement;
    returnTo.current = before instanceof HTMLElement && before !== document.body ? before : null;
    headingRef.current?.focus();
    return () => {
      const target = returnTo.current;
      if (target && target.isConnected) target.focus();
      else document.getElementById('tour-button')?.focus();
    };
  }, [isOpen]);

  // A tour whose steps are still on their way: the panel says so only if they take a while (or fail),
  // so that a quick load goes straight to the step, on the side the step puts it.
  const waiting = !open && loading !== null;
  const [slow, setSlow] = useState(false);
  useEffect(() => {
    setSlow(false);
    if (!waiting) return;
    const timer = setTimeout(() => setSlow(true), LOADING_SHOWN_AFTER_MS);
    return () => clearTimeout(timer);
  }, [waiting]);
  const showLoading = waiting && (slow || loading?.error != null);

  // The loading panel, then the step's, takes the focus from where it was when the tour opened
  // (the opener, or the loading panel's heading, which the step's replaces), unless the reader moved it.
  const hasSteps = open !== null;
  useEffect(() => {
    if (!hasSteps && !showLoading) return;
    const at = document.activeElement;
    if (at === null || at === document.body || at === returnTo.current || !at.isConnected) headingRef.current?.focus();
  }, [hasSteps, showLoading]);

  // A step's text longer than the panel: a fade above the buttons says there is more below, until it is read.
  const [more, setMore] = useState(false);
  useEffect(() => {
    const panel = panelRef.current;
    if (!panel) return;
    const measure = () => setMore(panel.scrollHeight - panel.scrollTop - panel.clientHeight > 4);
    measure();
    panel.addEventListener('scroll', measure, { passive: true });
    window.addEventListener('resize', measure);
    return () => {
      panel.removeEventListener('scroll', measure);
      window.removeEventListener('resize', measure);
    };
  }, [key, hasSteps, isFolded]);

  // Escape closes the tour (unless something else used the key).
  const { exit } = tour;
  useEffect(() => {
    if (!isOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape' && !event.defaultPrevented) {
        event.preventDefault();
        exit();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [isOpen, exit]);

  if (!open) {
    if (!loading || !showLoading) return null;
    // The tour's steps are on their way (the first time it opens), or could not be fetched.
    return (
      <div
        ref={panelRef}
        className={`tour-panel tour-${side}`}
        role="dialog"
        aria-modal="false"
        aria-labelledby={`${ids}-title`}
        data-testid="tour-panel"
        data-tour-name={loading.tour.experiment}
        data-state={loading.error ? 'failed' : 'loading'}
      >
        <p className="tour-kicker">
          <span className="tour-name">Tour · {loading.tour.title}</span>
        </p>
        <h2 className="tour-title" id={`${ids}-title`} ref={headingRef} tabIndex={-1} data-testid="tour-title">
          {loading.tour.title}
        </h2>
        {loading.error ? (
          <p className="tour-problem" role="alert" data-testid="tour-problem" title={loading.error}>
            The tour&apos;s steps could not be loaded (the connection, or a new version of the site?).{' '}
            <button type="button" className="link-button" onClick={() => tour.start(loading.tour.experiment, loading.index)}>
              Try again
            </button>
          </p>
        ) : (
          <p className="tour-status" role="status">
            <span className="spinner" aria-hidden="true" /> Loading the tour…
          </p>
        )}
        <div className="tour-buttons">
          <button type="button" className="button tour-exit" onClick={tour.exit}>
            Exit tour
          </button>
        </div>
      </div>
    );
  }
  const { step, index, moving, problem } = open;
  const count = open.tour.steps.length;
  const state = moving ? 'moving' : problem ? 'problem' : 'ready';
  return (
    <div
      ref={panelRef}
      className={`tour-panel tour-${side}${isFolded ? ' tour-folded' : ''}`}
      role="dialog"
      aria-modal="false"
      aria-labelledby={`${ids}-title`}
      aria-describedby={`${ids}-text`}
      data-testid="tour-panel"
      data-tour-name={open.tour.experiment}
      data-tour-step={index + 1}
      data-state={state}
      data-anchor-found={found}
      data-folded={isFolded}
      data-more={more ? '' : undefined}
    >
      <p className="tour-kicker">
        <span className="tour-name">Tour · {open.tour.title}</span>
        <span className="tour-count" data-testid="tour-count">
          Step {index + 1} of {count}
        </span>
      </p>
      {/* Above the step's text, so that it is seen without scrolling the panel. */}
      {!moving && problem && (
        <p className="tour-problem" data-testid="tour-problem">
          The page no longer shows what this step describes: {problem}.{' '}
          <button type="button" className="link-button" onClick={tour.again}>
            Show this step again
          </button>
        </p>
      )}
      <div aria-live="polite" aria-atomic="true" id={`${ids}-body`}>
        <h2 className={`tour-title${isFolded ? ' visually-hidden' : ''}`} id={`${ids}-title`} ref={headingRef} tabIndex={-1} data-testid="tour-title">
          {step.title}
        </h2>
        <p className="tour-text" id={`${ids}-text`} data-testid="tour-text">
          {step.text}
        </p>
      </div>
      <p className="tour-status" role="status">
        {moving ? (
          <>
            <span className="spinner" aria-hidden="true" /> {step.compare ? 'Running every variant to the end…' : `Going to this moment of the ${step.variant} variant…`}
          </>
        ) : problem ? null : (
          <span className="tour-where">
            Variant <strong>{step.variant}</strong>
            {step.compare ? ', Comparison tab' : ''}
          </span>
        )}
      </p>
      <div className="tour-buttons">
        <button type="button" className="button" onClick={tour.previous} disabled={index === 0} data-focus-partner="tour-next">
          Previous
        </button>
        {index + 1 < count ? (
          <button type="button" className="button primary" onClick={tour.next} data-focus-name="tour-next" data-focus-partner="tour-finish">
            Next
          </button>
        ) : (
          // The last step ends the tour where Next was, rather than leaving a Next that cannot go on.
          <button type="button" className="button primary" onClick={tour.exit} data-focus-name="tour-finish">
            Finish
          </button>
        )}
        <button
          type="button"
          className="button tour-fold"
          onClick={() => setFolded(isFolded ? null : key)}
          aria-expanded={!isFolded}
          aria-controls={`${ids}-body`}
          aria-label={isFolded ? "Show this step's text" : "Fold the tour panel down to its buttons"}
          title={isFolded ? "Show this step's text again" : 'Fold this panel down to its buttons, to see what it covers'}
          data-testid="tour-fold"
        >
          {isFolded ? '▴' : '▾'}
        </button>
        <button
          type="button"
          className="button tour-move"
          onClick={() => setMoved(moved === key ? null : key)}
          aria-label={`Move the tour panel to the ${side === 'left' ? 'right' : 'left'}`}
          title="Move this panel to the other side of the window, to see what it covers"
          data-testid="tour-move"
        >
          {side === 'left' ? '→' : '←'}
        </button>
        {index + 1 < count && (
          <button type="button" className="button tour-exit" onClick={tour.exit}>
            Exit tour
          </button>
        )}
      </div>
    </div>
  );
}
