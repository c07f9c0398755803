// "Across the parameter ranges": the experiment's headlines checked with each
// parameter at the low and the high end of its range, on seeds 1 to 5, in
// workers of its own (one per core). The table is the one docs/experiments.md
// prints below each experiment (`reclaim-sim sweep NAME`), made here from the
// same engine; it fills in point by point while the check runs. Until it is
// run, the table shows what `npm run experiments` recorded natively.
import { useEffect, useState } from 'react';
import type { ExperimentInfo } from '../../engine/pkg/reclaim_core';
import { CHECK_PACE, CHECK_SEEDS, SEED_RANGE, rangeCheckRequest, type RangeCheckRunner } from '../../useComparison';
import { download } from '../../export/figure';
import { rangesCsv } from '../../export/tables';
import { formatCount } from '../../util/format';
import { formatElapsed, rangeRunWork, rangeRuns, rangeShortfalls, shortfallSentence, timeLeft } from './ranges';
import { TallyCell } from './TallyCell';
import { useRecordedRange } from './useRecordedRanges';

export interface RangeCheckProps {
  experiment: ExperimentInfo;
  check: RangeCheckRunner;
  /** Runs the comparison at a point (its parameters, the others at their defaults), to watch why a cell came out as it did. */
  onOpenPoint?: (params: Map<string, number>) => void;
}

export function RangeCheck({ experiment, check, onOpenPoint }: RangeCheckProps) {
  const { state } = check;
  const mine = state.request?.name === experiment.name;
  const running = mine && state.status === 'running';
  const checked = state.result?.experiment === experiment.name ? state.result : null;
  const recorded = useRecordedRange(experiment);
  // The last finished check in this browser, else the recorded table.
  const result = checked ?? recorded;
  const isRecorded = checked === null && recorded !== null;
  // While it runs, the rows done so far (the others pending).
  const shown = running ? state.partial : result;
  const runs = rangeRuns(experiment, CHECK_SEEDS);
  const summary = result && !running ? rangeShortfalls(result) : null;
  // When the running check started (wall clock, for the estimate of what is left).
  const [startedAt, setStartedAt] = useState<number | null>(null);
  useEffect(() => {
    setStartedAt(running ? performance.now() : null);
  }, [running, state.request]);
  // A costly point can keep every worker busy for a minute: the time so far
  // (and the estimate with it) moves on every second rather than only when a run ends.
  const [, setTick] = useState(0);
  useEffect(() => {
    if (!running) return;
    const timer = window.setInterval(() => setTick((t) => t + 1), 1000);
    return () => window.clearInterval(timer);
  }, [running]);
  const elapsed = running && startedAt !== null ? performance.now() - startedAt : 0;
  const left = running && startedAt !== null ? timeLeft(elapsed, state.progress, runs, rangeRunWork(recorded, CHECK_SEEDS.length)) : null;

  return (
    <section className="card range-check" aria-labelledby="range-check-heading">
      <div className="card-header">
        <h2 className="card-title" id="range-check-heading">
          Across the parameter ranges
        </h2>
        {summary && (
          <span className="badge" title="Headline cells that held on every seed">
            {summary.cells - summary.short} of {summary.cells} cells held on seeds {SEED_RANGE}
            {isRecorded ? ' (recorded)' : ''}
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
        {summary && result && (
          <button
            type="button"
            className="button small"
            onClick={() =>
              download(
                new Blob([rangesCsv({ headlines: experiment.headlines.map((h) => h.metric), result, recorded: isRecorded })], { type: 'text/csv' }),
                `${experiment.name}-ranges.csv`,
              )
            }
          >
            Save table as CSV
          </button>
        )}
        <p aria-live="polite">
          {running ? (
            <>
              <span className="spinner" aria-hidden="true" />
              Running every variant at each point on seeds {SEED_RANGE}, {CHECK_PACE} ({formatCount(state.progress)} of{' '}
              {formatCount(runs)} runs done, {formatElapsed(elapsed)} so far{left ? `, ${left}` : ''})…
            </>
          ) : mine && state.status === 'failed' ? (
            <span className="problem" role="alert">
              The range check failed: {state.error}
            </span>
          ) : (
            <>
              {isRecorded && (
                <>
                  <strong>Recorded</strong> by <code>npm run experiments</code> with the native engine (the table in
                  docs/experiments.md); <strong>Check the ranges</strong> runs it again here.{' '}
                </>
              )}
              Each parameter at the low and the high end of its range, the others at their defaults, on seeds {SEED_RANGE}:{' '}
              {formatCount(experiment.ranges.length)} points, {formatCount(runs)} comparisons, {CHECK_PACE} (a comparison is what{' '}
              <strong>Run comparison</strong> runs). A cell counts the seeds on which the headline moved the way the patch says, and
              how many of the others tied (no change either way).
            </>
          )}
        </p>
      </div>
      {shown && (
        <div className="table-scroll range-scroll">
          <table
            className="comparison-table range-table"
            aria-label="Across the parameter ranges"
            aria-busy={running}
            data-source={running ? 'running' : isRecorded ? 'recorded' : 'checked'}
          >
            <thead>
              <tr>
                <th scope="col">parameter point</th>
                {experiment.headlines.map((h) => (
                  <th scope="col" className="num" key={h.metric}>
                    <span className="mono" title={experiment.metrics.find((m) => m.name === h.metric)?.help}>
                      {h.metric}
                    </span>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {shown.rows.map((row) => (
                <tr key={row.point} data-point={row.point} className={row.pending ? 'pending' : undefined}>
                  <th scope="row" className="mono">
                    {onOpenPoint ? (
                      <button
                        type="button"
                        className="point-button"
                        title={`Run the comparison with ${row.point === 'defaults' ? 'the default parameters' : row.point} (the others at their defaults)`}
                        onClick={() => {
                          onOpenPoint(experiment.ranges.find((r) => r.point === row.point)?.params ?? new Map());
                          document.getElementById('comparison-heading')?.scrollIntoView({ block: 'start' });
                        }}
                      >
                        {row.point}
                      </button>
                    ) : (
                      row.point
                    )}
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
        {onOpenPoint && shown && <>Press a point to run the comparison with its parameters and watch why a cell came out as it did. </>}
        The same table from the command line: <code className="command">npm run sim -- sweep {experiment.name}</code>
        {summary && summary.short > 0 && (
          <>
            {' '}
            {shortfallSentence(summary)}{' '}
            Why {summary.short === 1 ? 'it does' : 'they do'} not hold is in the comparison&apos;s <em>Where it does not hold, and why</em>.
          </>
        )}
      </p>
    </section>
  );
}
