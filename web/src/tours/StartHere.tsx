// What a first-time visitor can do, shown on a plain scenario before its
// first step: run it, or take one of the guided tours of the five patches
// (each opens its experiment). It goes away with the first step.
import { TOURS } from '.';

export interface StartHereProps {
  disabled: boolean;
  onTour(name: string): void;
}

export function StartHere({ disabled, onTour }: StartHereProps) {
  return (
    <nav className="card start-here" aria-label="Start here">
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
