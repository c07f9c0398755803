// The last step's engine decisions: which kernel function decided what, and why.
import type { EventView } from '../../engine/pkg/reclaim_core';
import { formatCount } from '../../util/format';

/** At most this many events are listed; the rest are counted. */
export const EVENT_LIST_CAP = 100;

export interface EventListProps {
  step: number;
  events: readonly EventView[];
  dropped: number;
}

export function EventList({ step, events, dropped }: EventListProps) {
  const shown = events.slice(0, EVENT_LIST_CAP);
  const hidden = events.length - shown.length + dropped;
  return (
    <section className="card events" aria-labelledby="events-heading">
      <div className="card-header">
        <h2 className="card-title" id="events-heading">
          Events <span className="muted">at step {formatCount(step)}</span>
        </h2>
        <span className="badge">{formatCount(events.length + dropped)}</span>
      </div>
      {shown.length === 0 ? (
        <p className="empty">{step === 0 ? 'Step forward to see what reclaim decides.' : 'No events in this step.'}</p>
      ) : (
        <ol className="event-list" aria-label="Events of the last step">
          {shown.map((e, i) => (
            <li key={i} className={`event kind-${e.kind.replace(/[^a-z0-9-]/gi, "-")}`}>
              <span className="event-kind">{e.kind}</span>
              <code className="event-function">{e.function}</code>
              <span className="event-reason">{e.reason}</span>
            </li>
          ))}
        </ol>
      )}
      {hidden > 0 && <p className="card-footnote">{formatCount(hidden)} more events in this step not listed.</p>}
    </section>
  );
}
