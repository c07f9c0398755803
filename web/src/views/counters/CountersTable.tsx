// /proc/vmstat as the engine counts it: kernel names, kernel order, and the
// change since the previous frame shown.
import { useId, useMemo, useState } from 'react';
import type { Counter } from '../../engine/pkg/reclaim_core';
import { BreakableName } from '../../util/BreakableName';
import { formatCount, formatDelta } from '../../util/format';
import { counterHelp } from './help';
import { counterRows } from './model';

export interface CountersTableProps {
  counters: readonly Counter[];
  previous: readonly Counter[] | null;
  /** Steps between the previous frame and this one (for the Δ column's meaning); null without one. */
  stepsSincePrevious: number | null;
}

export function CountersTable({ counters, previous, stepsSincePrevious }: CountersTableProps) {
  const [hideZero, setHideZero] = useState(false);
  // What each counter means, written under its name: for keyboard and touch users and a projector, where a tooltip does not show.
  const [explain, setExplain] = useState(false);
  // Compare mode shows two of these: ids of their own.
  const headingId = useId();
  const rows = useMemo(() => counterRows(counters, previous), [counters, previous]);
  const shown = hideZero ? rows.filter((r) => r.value !== 0 || (r.delta ?? 0) !== 0) : rows;
  const deltaNote =
    previous === null || stepsSincePrevious === null
      ? 'Δ: no earlier frame to compare with (at the start, or after going back to a step whose step before was not shown); step forward to see each step’s change'
      : `Δ: change over the last ${stepsSincePrevious === 1 ? 'step' : `${formatCount(stepsSincePrevious)} steps`}`;

  return (
    <section className="card counters" aria-labelledby={headingId} data-tour="counters">
      <div className="card-header">
        <h2 className="card-title" id={headingId}>
          /proc/vmstat
        </h2>
        <label className="toggle">
          <input type="checkbox" checked={hideZero} onChange={(e) => setHideZero(e.target.checked)} />
          Hide zeros
        </label>
        <label className="toggle">
          <input type="checkbox" checked={explain} onChange={(e) => setExplain(e.target.checked)} />
          Meanings
        </label>
      </div>
      {/* A scroller the keyboard reaches (arrows scroll it): named like its table. */}
      <div className="table-scroll" role="region" aria-label="/proc/vmstat counters" tabIndex={0}>
        <table className="counter-table" aria-label="Counters">
          <thead>
            <tr>
              <th scope="col">name</th>
              <th scope="col" className="num">
                value
              </th>
              <th scope="col" className="num" title={deltaNote}>
                Δ
              </th>
            </tr>
          </thead>
          <tbody>
            {shown.map((row) => (
              <tr key={row.name} className={row.delta ? 'changed' : undefined} data-counter={row.name}>
                <th scope="row" className="mono" title={explain ? undefined : (counterHelp(row.name) ?? undefined)}>
                  <BreakableName name={row.name} />
                  {explain && counterHelp(row.name) && <span className="counter-meaning">{counterHelp(row.name)}</span>}
                </th>
                <td className="num" data-value={row.value}>
                  {formatCount(row.value)}
                </td>
                <td
                  className={`num delta${row.delta ? (row.delta > 0 ? ' up' : ' down') : ''}`}
                  data-delta={row.delta ?? ''}
                >
                  {row.delta === null ? '—' : formatDelta(row.delta)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        {shown.length === 0 && <p className="empty">All counters are zero.</p>}
      </div>
      <p className="card-footnote">{deltaNote}</p>
    </section>
  );
}
