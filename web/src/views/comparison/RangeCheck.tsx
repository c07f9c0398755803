// "Across the parameter ranges": the experiment's headlines checked with each
// parameter at the low and the high end of its range, on seeds 1 to 5, in a
// worker of its own. The table is the one docs/experiments.md prints below
// each experiment (`reclaim-sim sweep NAME`), made here from the same engine.
import { useEffect, useState } from 'react';
import type { ExperimentInfo } from '../../engine/pkg/reclaim_core';
import { CHECK_SEEDS, SEED_RANGE, rangeCheckRequest, type RangeCheckRunner } from '../../useComparison';
import { formatCount } from '../../util/format';
import { rangeProgress, rangeRuns, rangeShortfalls, timeLeft } from './ranges';
import { TallyCell } from './TallyCell';

export function RangeCheck({ experiment, check }: { experiment: ExperimentInfo; check: RangeCheckRunner }) {
  const { state } = check;
  const mine = state.request?.name === experiment.name;
  const running = mine && state.status === 'running';
  const result = state.result?.experiment === experiment.name ? state.result : null;
  const runs = rangeRuns(experiment, CHECK_SEEDS);
  const at = running ? rangeProgress(experiment, state.progress, CHECK_SEEDS) : null;
  const summary = result ? rangeShortfalls(result) : null;
  // When the running check started (wall clock, for the estimate of what is left).
  const [startedAt, setStartedAt] = useState<number | null>(null);
  useEffect(() => {
    setStartedAt(running ? performance.now() : null);
  }, [running, state.request]);
  const left = running && startedAt !== null && at ? timeLeft(performance.now() - startedAt, state.progress, at.total) : null;

  return (
    <section className="card range-check" aria-labelledby="range-check-heading">
      <div className="card-header">
        <h2 className="card-title" id="range-check-heading">
          Across the parameter ranges
        </h2>
        {summary && (
          <span className="badge" title="Headline cells that held on every seed">
            {summary.cells - summary.short} of {summary.cells} cells held on seeds {SEED_RANGE}
          </span>
        )}
      </div>
      <div className="seed-check">
        <button
          type="button"
          className="button small"
          onClick={() => check.run(rangeCheckRequest(experiment.name))}
          disabled={running}
        >
          Check the ranges
        </button>
        {running && (
          <button type="button" className="button small" onClick={check.cancel}>
            Stop
          </button>
        )}
        <p aria-live="polite">
          {running && at ? (
            <>
              <span className="spinner" aria-hidden="true" />
              Running every variant at <span className="mono">{at.point}</span> on seed {at.seed} ({formatCount(state.progress)} of{' '}
              {formatCount(at.total)} runs done{left ? `, ${left}` : ''})…
            </>
          ) : mine && state.status === 'failed' ? (
            <span className="problem" role="alert">
              The range check failed: {state.error}
            </span>
          ) : (
            <>
              Each parameter at the low and the high end of its range, the others at their defaults, on seeds {SEED_RANGE}:{' '}
              {formatCount(experiment.ranges.length)} points, {formatCount(runs)} comparisons, one after the other (as long as
              pressing <strong>Run comparison</strong> {formatCount(runs)} times). A cell counts the seeds on which the headline
              moved the way the patch says, and how many of the others tied (no change either way).
            </>
          )}
        </p>
      </div>
      {result && (
        <div className="table-scroll range-scroll">
          <table className="comparison-table range-table" aria-label="Across the parameter ranges">
            <thead>
              <tr>
                <th scope="col">parameter point</th>
                {experiment.headlines.map((h) => (
                  <th scope="col" className="num" key={h.metric}>
                    <span className="mono">{h.metric}</span>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {result.rows.map((row) => (
                <tr key={row.point} data-point={row.point}>
                  <th scope="row" className="mono">
                    {row.point}
                  </th>
                  {row.tallies.map((t, i) => (
                    <TallyCell key={experiment.headlines[i]?.metric ?? i} tally={t} metric={experiment.headlines[i]?.metric ?? ''} />
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p className="range-note">
        The same table from the command line: <code className="command">npm run sim -- sweep {experiment.name}</code>
        {summary && summary.short > 0 && (
          <>
            {' '}
            Of the {formatCount(summary.short)} cells short of every seed, {formatCount(summary.tiesOnly)} only tied where they
            missed. Why they do not hold is in the comparison&apos;s <em>Where it does not hold, and why</em>.
          </>
        )}
      </p>
    </section>
  );
}
