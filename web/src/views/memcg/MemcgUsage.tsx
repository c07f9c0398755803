// memory.current against memory.max for each memcg in the frame.
import type { LruvecView } from '../../engine/pkg/reclaim_core';
import { formatCount, formatPages } from '../../util/format';

export interface MemcgUsageProps {
  lruvecs: readonly LruvecView[];
}

interface Usage {
  memcg: string;
  current: number;
  max: number | null;
}

/** One row per memcg (a memcg has a lruvec on every node; the charge is the memcg's). */
export function memcgUsage(lruvecs: readonly LruvecView[]): Usage[] {
  const byMemcg = new Map<string, Usage>();
  for (const l of lruvecs) {
    if (!byMemcg.has(l.memcg)) byMemcg.set(l.memcg, { memcg: l.memcg, current: l.memoryCurrent, max: l.memoryMax ?? null });
  }
  return [...byMemcg.values()];
}

export function MemcgUsage({ lruvecs }: MemcgUsageProps) {
  const rows = memcgUsage(lruvecs);
  if (rows.length === 0) return null;
  return (
    <section className="card memcg" aria-label="Memory cgroups">
      {rows.map((u) => {
        const ratio = u.max ? Math.min(1, u.current / u.max) : null;
        const level = ratio === null ? 'ok' : ratio >= 0.98 ? 'full' : ratio >= 0.85 ? 'high' : 'ok';
        return (
          <div className="memcg-row" key={u.memcg} data-memcg={u.memcg}>
            <div className="memcg-line">
              <span className="memcg-name mono">{u.memcg}</span>
              <span className="memcg-figure">
                <span className="label">memory.current</span> <strong data-testid="memory-current">{formatCount(u.current)}</strong>
              </span>
              <span className="memcg-figure">
                <span className="label">memory.max</span>{' '}
                <strong data-testid="memory-max">{u.max === null ? 'max' : formatCount(u.max)}</strong>{' '}
                {/* "max" is what the cgroup file reads when there is no limit: no unit after it. */}
                <span className="muted">{u.max === null ? '(no limit)' : 'pages'}</span>
              </span>
              <span className="muted">
                {formatPages(u.current)} / {u.max === null ? 'unlimited' : formatPages(u.max)}
              </span>
              {ratio !== null && <span className="percent">{(ratio * 100).toFixed(0)}%</span>}
            </div>
            <div
              className={`meter meter-${level}`}
              role="meter"
              aria-label={`memory.current of ${u.memcg}`}
              aria-valuemin={0}
              aria-valuemax={u.max ?? u.current}
              aria-valuenow={u.current}
              aria-valuetext={`${formatCount(u.current)} of ${u.max === null ? 'unlimited' : formatCount(u.max)} pages`}
            >
              <div className="meter-fill" style={{ width: `${(ratio ?? 0) * 100}%` }} />
            </div>
          </div>
        );
      })}
    </section>
  );
}
