// The last step's engine decisions: which kernel function decided what, and
// why. Identical decisions are listed once with a count.
import type { EventView } from '../../engine/pkg/reclaim_core';
import { formatCount } from '../../util/format';
import { groupEvents } from './model';

/** At most this many distinct decisions are listed; the rest are counted. */
export const EVENT_LIST_CAP = 100;

export interface EventListProps {
  step: number;
  events: readonly EventView[];
  dropped: number;
}

export function EventList({ step, events, dropped }: EventListProps) {
  const groups = groupEvents(events);
  const shown = groups.slice(0, EVENT_LIST_CAP);
  const unlisted = groups.slice(EVENT_LIST_CAP).reduce((sum, g) => sum + g.count, 0);
  return (
    <section className="card events" aria-labelledby="events-heading">
      <div className="card-header">
        <h2 className="card-title" id="events-heading">
          Events <span className="muted">at step {formatCount(step)}</span>
        </h2>
        <span className="badge" title="Events in this step">
          {formatCount(events.length + dropped)}
        </span>
      </div>
      {shown.length === 0 ? (
        <p className="empty">
          {step === 0 ? 'Step forward to see what reclaim decides.' : 'No reclaim decisions in this step.'}
        </p>
      ) : (
        <ol className="event-list" aria-label="Events of the last step">
          {shown.map((g, i) => (
            <li key={i} className={`event kind-${g.kind.replace(/[^a-z0-9-]/gi, '-')}`} data-function={g.function}>
              <span className="event-kind">{g.kind}</span>
              <code className="event-function" title={g.function}>{g.function}</code>
              <span className="event-reason">{g.reason}</span>
              <span className="event-count" aria-label={`${g.count} times`}>
                {g.count > 1 ? `×${formatCount(g.count)}` : ''}
              </span>
            </li>
          ))}
        </ol>
      )}
      {(unlisted > 0 || dropped > 0) && (
        <p className="card-footnote">
          {unlisted > 0 && `${formatCount(unlisted)} more events not listed. `}
          {dropped > 0 && `${formatCount(dropped)} events of this step were not kept by the engine.`}
        </p>
      )}
    </section>
  );
}
