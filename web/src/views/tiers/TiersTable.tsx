// One MGLRU lruvec's tiers: how often folios evicted from each tier came
// back (refaulted), the feedback the PID controller in get_tier_idx uses to
// decide which tiers sort_folio protects.
import { useMemo } from 'react';
import type { TierView } from '../../engine/pkg/reclaim_core';
import { formatCount } from '../../util/format';
import { FOLIO_TYPES } from '../generations/model';
import { formatRate, tiersModel } from './model';

export interface TiersTableProps {
  tiers: readonly TierView[];
}

export function TiersTable({ tiers }: TiersTableProps) {
  const rows = useMemo(() => tiersModel(tiers), [tiers]);
  if (rows.length === 0) return null;
  return (
    <div className="tiers" data-tour="tiers">
      <table className="tier-table" aria-label="Tiers">
        <thead>
          <tr>
            <th scope="col" rowSpan={2}>
              tier
            </th>
            {FOLIO_TYPES.map((kind) => (
              <th key={kind} scope="colgroup" colSpan={2} className={`kind kind-${kind}`}>
                {kind}
              </th>
            ))}
          </tr>
          <tr>
            {FOLIO_TYPES.map((kind) => [
              <th key={`${kind}-counts`} scope="col" className="num">
                refaulted / total
              </th>,
              <th key={`${kind}-rate`} scope="col" className="num">
                rate
              </th>,
            ])}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.tier} data-tier={row.tier}>
              <th scope="row">{row.tier}</th>
              {FOLIO_TYPES.map((kind) => {
                const cell = row.cells[kind];
                return [
                  <td key={`${kind}-counts`} className="num" data-kind={kind}>
                    {formatCount(cell.refaulted)} / {formatCount(cell.total)}
                  </td>,
                  <td
                    key={`${kind}-rate`}
                    className={`num rate${cell.aboveTier0 ? ' above' : ''}`}
                    data-kind={kind}
                    data-rate={cell.rate ?? ''}
                    title={cell.aboveTier0 ? 'refaults more than tier 0' : undefined}
                  >
                    {formatRate(cell.rate)}
                  </td>,
                ];
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <p className="hint">
        Rate = refaulted / (evicted + protected), per tier. The PID controller protects tiers that refault more than
        tier 0 <span className="above-key">(bold)</span>.
      </p>
    </div>
  );
}
