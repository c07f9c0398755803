// The last step's engine decisions: which kernel function decided what, and
// why. Identical decisions are listed once with a count; kinds can be hidden.
import { useEffect, useRef, useState } from 'react';
import type { EventView } from '../../engine/pkg/reclaim_core';
import ENGINE_CONSTANTS from '../../engine/pkg/engine-constants.json';
import { formatCount } from '../../util/format';
import { capGroups, filterKinds, groupEvents, visibleGroups } from './model';
import { BreakableName } from '../../util/BreakableName';

/** At most this many distinct decisions are listed; the rest are counted. */
export const EVENT_LIST_CAP = 100;

export interface EventListProps {
  step: number;
  events: readonly EventView[];
  dropped: number;
  /** The kinds seen so far in this run; the filter offers every kind the engine has, and these if others. */
  kinds: readonly string[];
  /** The kind of event Run to next stopped this step for: its rows are marked, the first scrolled to in the list. */
  runKind?: string;
}

export function EventList({ step, events, dropped, kinds, runKind }: EventListProps) {
  const listRef = useRef<HTMLOListElement>(null);
  const [hidden, setHidden] = useState<ReadonlySet<string>>(() => new Set());
  const groups = groupEvents(events);
  const visible = visibleGroups(groups, hidden);
  const { shown, unlisted } = capGroups(visible, EVENT_LIST_CAP);
  const filtered = groups.length - visible.length;
  const filteredEvents = groups.filter((g) => hidden.has(g.kind)).reduce((sum, g) => sum + g.count, 0);
  const toggle = (kind: string, show: boolean) =>
    setHidden((h) => {
      const next = new Set(h);
      if (show) next.delete(kind);
      else next.add(kind);
      return next;
    });
  const countOf = (kind: string) => events.reduce((n, e) => n + (e.kind === kind ? 1 : 0), 0);
  // The row Run to next stopped for, within the list's own scroll (the page stays where the reader looks).
  useEffect(() => {
    const list = listRef.current;
    const row = runKind ? list?.querySelector<HTMLElement>('li[data-matched]') : null;
    if (list && row) list.scrollTop = row.offsetTop - list.offsetTop - 4;
  }, [runKind, step]);
  return (
    <section className="card events" aria-labelledby="events-heading" data-tour="events">
      <div className="card-header">
        <h2 className="card-title" id="events-heading">
          Events <span className="muted">at step {formatCount(step)}</span>
        </h2>
        <span className="badge" title="Events in this step">
          {formatCount(events.length + dropped)}
        </span>
      </div>
      <fieldset className="kind-filter" aria-label="Event kinds">
        {filterKinds(kinds).map((kind) => {
          const n = countOf(kind);
          return (
            <label key={kind} className={`kind-option kind-${kind.replace(/[^a-z0-9-]/gi, '-')}${n === 0 ? ' none' : ''}`}>
              <input type="checkbox" checked={!hidden.has(kind)} onChange={(e) => toggle(kind, e.target.checked)}
                data-kind={kind} />
              {kind}
              <span className="kind-count" title="In this step">{formatCount(n)}</span>
            </label>
          );
        })}
      </fieldset>
      {shown.length === 0 ? (
        <p className="empty">
          {step === 0
            ? 'Step forward to see what reclaim decides.'
            : filtered > 0
              ? 'Every decision of this step is of a hidden kind.'
              : 'No reclaim decisions in this step.'}
        </p>
      ) : (
        <ol className="event-list" aria-label="Events of the last step" ref={listRef}>
          {shown.map((g, i) => {
            const matched = runKind !== undefined && g.runKinds.includes(runKind);
            return (
            <li key={i} className={`event kind-${g.kind.replace(/[^a-z0-9-]/gi, '-')}${matched ? ' event-matched' : ''}`} data-function={g.function}
              data-kind={g.kind} data-matched={matched ? '' : undefined} title={matched ? 'Run to next stopped at this step for this event' : undefined}>
              <span className="event-kind">{g.kind}</span>
              <code className="event-function">
                <BreakableName name={g.function} />
              </code>
              <span className="event-reason">{g.reason}</span>
              <span className="event-count" aria-label={`${g.count} times`}>
                {g.count > 1 ? `×${formatCount(g.count)}` : ''}
              </span>
            </li>
            );
          })}
        </ol>
      )}
      {(unlisted > 0 || dropped > 0 || filteredEvents > 0) && (
        <p className="card-footnote">
          {filteredEvents > 0 && `${formatCount(filteredEvents)} events of hidden kinds. `}
          {unlisted > 0 && `${formatCount(unlisted)} more events not listed. `}
          {dropped > 0 && `${formatCount(dropped)} more events of this step were counted but not recorded (the engine records ${ENGINE_CONSTANTS.eventsPerStep} a step, and a few more of the rare kinds).`}
        </p>
      )}
    </section>
  );
}
