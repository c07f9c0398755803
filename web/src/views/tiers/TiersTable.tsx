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
                    className={`num rate${cell.protectedTier ? ' above' : ''}`}
                    data-kind={kind}
                    data-rate={cell.rate ?? ''}
                    data-protected={cell.protectedTier || undefined}
                    title={cell.protectedTier ? 'protected by sort_folio: above tier_idx' : undefined}
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
        Rate = refaulted / (evicted + protected), per tier. sort_folio protects the tiers above tier_idx, their rates
        in <span className="above-key">bold</span>; tier_idx is the last tier whose rate stays below a tier 0 with a
        margin, the other type&apos;s for the type get_type_to_scan picks, else its own (get_tier_idx, gains 1:2). Tier
        0 is never protected.
      </p>
    </div>
  );
}
