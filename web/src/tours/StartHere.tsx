// What a first-time visitor can do, shown on a plain scenario before its
// first step: run it, or take one of the guided tours of the five patches
// (each opens its experiment). It goes away with the first step, and for
// good once closed (a teacher projecting the page wants the views higher).
import { useState } from 'react';
import { TOURS } from '.';
import './start-here.css';

export interface StartHereProps {
  disabled: boolean;
  onTour(name: string): void;
}

/** Where the browser remembers that the strip was closed. */
const CLOSED_KEY = 'reclaim-lab:start-here-closed';

function closedBefore(): boolean {
  try {
    return window.localStorage.getItem(CLOSED_KEY) === '1';
  } catch {
    return false; // storage refused (a private window's policy): the strip shows.
  }
}

export function StartHere({ disabled, onTour }: StartHereProps) {
  const [closed, setClosed] = useState(closedBefore);
  if (closed) return null;
  const close = () => {
    setClosed(true);
    try {
      window.localStorage.setItem(CLOSED_KEY, '1');
    } catch {
      // Not remembered: it shows again on the next visit.
    }
  };
  return (
    <nav className="card start-here" aria-label="Start here">
      <button type="button" className="link-button start-here-close" onClick={close} data-focus-partner="step" aria-label="Close Start here" title="Close (for good in this browser)">
        ✕
      </button>
      <p>
        <strong>Start here:</strong> press <strong>Play</strong> or <strong>Step forward</strong> (→) to watch this
        scenario reclaim, or take a guided tour of one of the five kernel patches (it opens the patch&apos;s experiment,
        with its before/after table):
      </p>
      <ul>
        {TOURS.map((t) => (
          <li key={t.experiment}>
            <button type="button" className="link-button" disabled={disabled} title={t.summary} onClick={() => onTour(t.experiment)}>
              {t.title}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  );
}
