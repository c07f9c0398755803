// The custom scenario card beside the parameter form: closed, one button that
// opens the editor; open, the editor (it starts from the running custom
// scenario, or from a template when a built-in one runs). A running custom
// scenario opens it at once.
import { Suspense, useEffect, useId, useRef, useState } from 'react';
import type { ScenarioRequest } from '../engine/pkg/reclaim_core';
import { customTitle, isCustomRequest } from '../scenario/custom';
import { encodeScenarioUrl } from '../scenario/url';
import { MAX_ADDRESS_CHARS, compactAddress } from '../share/address';
import { lazyPart, PartLoading } from '../util/lazyPart';
import './editor.css';

// The editor is loaded when first opened: most visits never open it.
const ScenarioEditor = lazyPart('The scenario editor', () => import('./ScenarioEditor').then((m) => m.ScenarioEditor));

export interface CustomScenarioProps {
  request: ScenarioRequest;
  /** A custom scenario (a link's) the engine refused to run: the editor opens on it. */
  rejected?: ScenarioRequest | null;
  /** The editor has taken `rejected` into its form. */
  onRejectedOpened?(): void;
  disabled: boolean;
  onRun(request: ScenarioRequest): void;
}

/**
 * Whether a custom run cannot be kept in the address bar or a link: too
 * large even for the compact form (compactAddress gives no query).
 */
function useNoLink(request: ScenarioRequest): boolean {
  const [tooLarge, setTooLarge] = useState<string | null>(null);
  useEffect(() => {
    if (!isCustomRequest(request) || encodeScenarioUrl(request).length <= MAX_ADDRESS_CHARS) return;
    let current = true;
    void compactAddress({ request, step: 0, tab: 'lru' }).then((packed) => current && setTooLarge(packed === '' ? request.name : null));
    return () => {
      current = false;
    };
  }, [request]);
  return tooLarge === request.name;
}

export function CustomScenario({ request, rejected = null, onRejectedOpened, disabled, onRun }: CustomScenarioProps) {
  const [open, setOpen] = useState(() => isCustomRequest(request) || rejected !== null);
  // A refused link's scenario opens the editor on it.
  useEffect(() => {
    if (rejected) setOpen(true);
  }, [rejected]);
  const noLink = useNoLink(request);
  const id = useId();
  const card = useRef<HTMLElement>(null);
  const opened = useRef(false);
  // Opening the editor hides the form above it (editor.css): the sidebar goes back to its top, where the editor now starts.
  // Closing it brings the form back above: the card's button, which keeps the focus, is kept in view.
  useEffect(() => {
    if (open && opened.current) card.current?.scrollIntoView?.({ block: 'start' });
    if (!open && opened.current && card.current?.contains(document.activeElement)) {
      (document.activeElement as HTMLElement).scrollIntoView?.({ block: 'nearest' });
    }
    opened.current = true;
  }, [open]);
  return (
    <section ref={card} className="card custom-scenario" data-open={open || undefined} aria-labelledby={`${id}-title`}>
      <div className="card-header">
        <h2 className="card-title" id={`${id}-title`}>
          Custom scenario
        </h2>
        <button type="button" className="button small" aria-expanded={open} aria-controls={`${id}-body`} onClick={() => setOpen((o) => !o)}>
          {open ? 'Close editor' : 'Edit scenario'}
        </button>
      </div>
      {noLink && (
        <p className="hint no-link" role="status" data-testid="no-link">
          This scenario is too large for a link, even in the compact form Copy link makes: the address bar cannot hold it, so a reload opens
          the default scenario. Save it as a file to keep it.
        </p>
      )}
      <div id={`${id}-body`} className="custom-body">
        {open ? (
          <>
            <p className="hint editor-back">The built-in scenarios and their parameters come back with Close editor.</p>
            <Suspense fallback={<PartLoading what="the scenario editor" />}>
              <ScenarioEditor request={request} rejected={rejected} onRejectedOpened={onRejectedOpened} disabled={disabled} onRun={onRun} />
            </Suspense>
          </>
        ) : (
          <p className="hint custom-intro">
            {isCustomRequest(request)
              ? `Running “${customTitle(request)}”. Edit it, save it or load another file.`
              : 'Your own machine, memcgs, workloads and switches, or a scenario file (.json).'}
          </p>
        )}
      </div>
    </section>
  );
}
