// An experiment's before/after table: what `reclaim-sim compare` prints, with
// the patch author's figures beside the headline metrics. The comparison
// itself is asked for from the form ("Run comparison"); this view shows its
// state and its result, and offers to check it on seeds 1 to 5 ("Check
// seeds 1–5"), which adds a column counting where each headline held.
import { useId, useMemo, useRef, useState, type ReactNode } from 'react';
import type { ExperimentInfo, ScenarioRequest } from '../../engine/pkg/reclaim_core';
import { sameRun } from '../../scenario/url';
import { CHECK_PACE, CHECK_SEEDS, SEED_RANGE, type ComparisonState, type SeedCheckRunner } from '../../useComparison';
import { formatCount, keepTogether } from '../../util/format';
import { useColumnsToTheRight } from '../../util/hooks';
import {
  AFTER,
  DEFAULT_BASELINE,
  compareCommand,
  comparisonTable,
  exactMetric,
  formatMetric,
  metricUnit,
  isCheckOf,
  limitsParagraphs,
  tableRequest,
  whyParagraph,
  withSeedCheck,
  type ComparisonTable,
} from './model';
import { withRecordedSeeds } from './ranges';
import { TallyCell } from './TallyCell';
import { useRecordedRange } from './useRecordedRanges';
import { withCode } from '../../ScenarioText';
import { BreakableName } from '../../util/BreakableName';

export interface ComparisonViewProps {
  experiment: ExperimentInfo;
  state: ComparisonState;
  /** The run the form and the stepping views are on now (the table may be of another one). */
  current: ScenarioRequest;
  /** The check of the table's parameters over seeds 1 to 5 (no check offered without it). */
  seedCheck?: SeedCheckRunner;
  /** Runs the comparison of `current` (a button here, beside the form's); none without it. */
  onRun?: () => void;
}

/** Runs the comparison of the run the page is on, with its parameters as they are. */
function RunButton({ seed, onRun }: { seed: number; onRun(): void }) {
  return (
    <p className="comparison-run">
      <button type="button" className="button primary" onClick={onRun} data-testid="comparison-run" data-focus-partner="comparison-heading">
        Compare now
      </button>{' '}
      <span className="hint">every variant to the end, with the parameters running now, seed {seed}</span>
    </p>
  );
}

function listNames(names: string[]): string {
  if (names.length <= 1) return names.join('');
  return `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

export function ComparisonView({ experiment, state, current, seedCheck, onRun }: ComparisonViewProps) {
  const result = state.result?.experiment === experiment.name ? state.result : null;
  const check = seedCheck?.state;
  const recorded = useRecordedRange(experiment);
  const table = useMemo(
    () => (result ? withRecordedSeeds(experiment, withSeedCheck(experiment, comparisonTable(experiment, result), check), recorded) : null),
    [experiment, result, check, recorded],
  );
  const running = state.status === 'running' && state.request?.name === experiment.name;
  const failed = state.status === 'failed' && state.request?.name === experiment.name;
  const variants = listNames(experiment.variants.map((v) => v.name));
  const tableRun = table ? tableRequest(table) : null;
  const outdated = tableRun !== null && !running && !sameRun(tableRun, current, { variant: true });
  const checkRunning = check?.status === 'running';
  const checkMatches = tableRun !== null && isCheckOf(check, tableRun);

  return (
    <section className="card comparison" aria-labelledby="comparison-heading" data-tour="comparison">
      <div className="card-header">
        {/* Takes the focus from Compare now, which goes while the comparison runs (it may take longer than
            the focus rescue waits for a control to come back); the table comes in below it. */}
        <h2 className="card-title" id="comparison-heading" tabIndex={-1} data-focus-name="comparison-heading">
          Before and after the patch
        </h2>
        {table && (
          <span className="badge" title="Headline metrics that moved the way the patch says, on this seed">
            {table.held} of {table.held + table.notHeld} headlines held{state.request ? ` on seed ${state.request.seed}` : ''}
          </span>
        )}
      </div>

      <div className="comparison-status" aria-live="polite">
        {running ? (
          <p className="running">
            <span className="spinner" aria-hidden="true" />
            Running… every variant ({variants}) to the end on seed {state.request?.seed}.
          </p>
        ) : failed ? (
          <p className="problem" role="alert">
            The comparison failed: {state.error}
          </p>
        ) : !table ? (
          <p>
            {onRun ? (
              <>
                <strong>Compare now</strong> runs the {variants} variants to the end on the same seed, with the
                parameters running now (a second or a few)
              </>
            ) : (
              <>
                <strong>Run comparison</strong> in the form runs the {variants} variants to the end on the same seed (a
                second or a few)
              </>
            )}
            , and the table shows every metric for each, the change, and the patch author&apos;s own figures. To try
            other values, change them in the form and press its <strong>Run comparison</strong>. To watch the mechanism
            instead, pick a variant above and step it in the LRU, System and Memcgs tabs.
          </p>
        ) : outdated ? (
          <p>
            These results are for another seed or other parameters than the ones running now; press{' '}
            <strong>{onRun ? 'Compare now' : 'Run comparison'}</strong> to update them.
          </p>
        ) : null}
        {/* No results for the run on the page yet: run them from here too. */}
        {onRun && !running && !failed && (!table || outdated) && <RunButton seed={current.seed} onRun={onRun} />}
      </div>

      {table && (
        <ResultTable table={table} experiment={experiment} busy={running}>
          {tableRun && seedCheck && (
            <div className="seed-check">
              <button type="button" className="button small" onClick={() => seedCheck.run(tableRun)} disabled={running || checkRunning} data-focus-name="seed-check">
                Check seeds {SEED_RANGE}
              </button>
              <p aria-live="polite">
                {checkRunning ? (
                  <>
                    <span className="spinner" aria-hidden="true" />
                    Running every variant on seeds {SEED_RANGE}, {CHECK_PACE} ({check.progress} of {CHECK_SEEDS.length} done)…
                  </>
                ) : check?.status === 'failed' && checkMatches ? (
                  <span className="problem" role="alert">
                    The check failed: {check.error}
                  </span>
                ) : table?.seedsRecorded ? (
                  <>
                    The column <em>seeds {SEED_RANGE}</em> counts the seeds on which each headline moved the way the patch
                    says at the default parameters, as <code>npm run experiments</code> recorded it with the native engine
                    (docs/experiments.md); <strong>Check seeds {SEED_RANGE}</strong> runs it again here.
                  </>
                ) : table?.seedsChecked ? (
                  <>
                    The column <em>seeds {SEED_RANGE}</em> counts the seeds on which each headline moved the way the patch
                    says, with these parameters (docs/experiments.md counts the same at the defaults).
                  </>
                ) : (
                  <>One seed can be a draw: run the comparison on seeds {SEED_RANGE} and count where each headline holds.</>
                )}
              </p>
            </div>
          )}
        </ResultTable>
      )}
    </section>
  );
}

function ResultTable({
  table,
  experiment,
  busy,
  children,
}: {
  table: ComparisonTable;
  experiment: ExperimentInfo;
  busy: boolean;
  /** Shown between the table and its notes. */
  children?: ReactNode;
}) {
  const otherBaselines = table.rows.some((r) => r.baseline !== DEFAULT_BASELINE);
  const metricHelp = useMemo(() => new Map(experiment.metrics.map((m) => [m.name, m.help])), [experiment]);
  // A headline that did not hold points to the text that says why (below the
  // table): to the paragraph that first names its metric, marked until the next.
  const whyId = useId();
  const paragraphs = useMemo(() => limitsParagraphs(experiment.limits), [experiment.limits]);
  const [whyAt, setWhyAt] = useState<number | null>(null);
  const showWhy = (metric: string) => {
    const at = whyParagraph(paragraphs, metric);
    setWhyAt(at);
    const why = document.getElementById(`${whyId}-${at}`);
    const reduce = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    why?.scrollIntoView({ block: 'start', behavior: reduce ? 'auto' : 'smooth' });
    why?.focus({ preventScroll: true });
  };
  const scrollRef = useRef<HTMLDivElement>(null);
  const hidden = useColumnsToTheRight(scrollRef);
  return (
    <>
      {hidden.length > 0 && (
        <p className="scroll-hint" data-testid="comparison-more">
          More columns to the right ({hidden.join(', ')}): scroll the table sideways →
        </p>
      )}
      <div ref={scrollRef} className={`table-scroll comparison-scroll${busy ? ' busy' : ''}`} aria-busy={busy || undefined}>
        <table className="comparison-table" aria-label="Comparison">
          <thead>
            <tr>
              <th scope="col">metric</th>
              {table.columns.map((c) => (
                <th
                  scope="col"
                  key={c.variant}
                  className={`num variant${c.variant === AFTER ? ' after' : ''}`}
                  title={c.description}
                  data-variant={c.variant}
                >
                  <BreakableName name={c.variant} />
                </th>
              ))}
              <th
                scope="col"
                className="num"
                title={`after against ${DEFAULT_BASELINE}${otherBaselines ? ' (or the baseline named)' : ''}: the relative change, (after − ${DEFAULT_BASELINE}) / ${DEFAULT_BASELINE}, in %; for a metric shown in % (a ratio, a CV, an efficiency), the difference in percentage points (pp); "from 0" where ${DEFAULT_BASELINE} was 0, so no % can be given`}
              >
                change
              </th>
              <th scope="col" title="Whether our after moved the way the patch says, on this seed">
                as the patch says
              </th>
              {table.seedsChecked && (
                <th scope="col" className="num" title={`On how many of seeds ${SEED_RANGE} the headline moved the way the patch says`}>
                  seeds {SEED_RANGE}
                  {table.seedsRecorded && <span className="th-note"> (recorded)</span>}
                </th>
              )}
              <th scope="col" className="author" title="The patch author's figure without the patch, as the patch reports it (their machine and scale)">
                author before
              </th>
              <th scope="col" className="author" title="The patch author's figure with the patch, as the patch reports it">
                author after
              </th>
            </tr>
          </thead>
          <tbody>
            {table.rows.map((row) => (
              <tr key={row.metric} data-metric={row.metric} className={row.headline ? 'headline' : undefined}>
                <th scope="row">
                  <span className="mono" title={metricHelp.get(row.metric)}>
                    {row.metric}
                  </span>
                  {row.headline && <span className="headline-tag">headline</span>}
                </th>
                {row.values.map((v, i) => (
                  <td
                    key={table.columns[i]!.variant}
                    className="num"
                    data-variant={table.columns[i]!.variant}
                    data-value={v ?? ''}
                    title={v === null ? undefined : exactMetric(v, row.metric)}
                  >
                    <MetricValue value={v} metric={row.metric} />
                  </td>
                ))}
                <td className="num change" data-change={row.change ?? ''}>
                  {row.changeText}
                  {row.baseline !== DEFAULT_BASELINE && <span className="vs"> vs {row.baseline}</span>}
                </td>
                <td className="verdict-cell">
                  {row.headline && (
                    <span className={`verdict ${row.headline.verdict}`} data-verdict={row.headline.verdict}>
                      {row.headline.verdictText}
                      {row.headline.baseline !== DEFAULT_BASELINE && ` than ${row.headline.baseline}`}
                    </span>
                  )}
                  {row.headline?.verdict === 'not-held' && experiment.limits && (
                    <button type="button" className="link-button why-link" onClick={() => showWhy(row.metric)} title="Where it does not hold, and why (below the table)">
                      why?
                    </button>
                  )}
                </td>
                {table.seedsChecked && <TallyCell tally={row.seeds} />}
                <td className="author">{row.headline && keepTogether(row.headline.authorBefore)}</td>
                <td className="author">{row.headline && keepTogether(row.headline.authorAfter)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {children}
      <div className="comparison-notes">
        <h3 className="legend-heading">Metrics</h3>
        <dl className="variant-legend metric-legend" aria-label="What the metrics measure">
          {table.rows.map((row) => (
            <div key={row.metric}>
              <dt className="mono">{row.metric}</dt>
              <dd>{withCode(metricHelp.get(row.metric) ?? '')}</dd>
            </div>
          ))}
        </dl>
        <p className="change-note">
          <em>change</em>: after against {DEFAULT_BASELINE}
          {otherBaselines ? ' (or the baseline named)' : ''}, in % of it; for a metric shown in %, the difference in
          percentage points (pp); <em>from 0</em> where it was 0, so no % can be given.
        </p>
        <h3 className="legend-heading">Variants</h3>
        <dl className="variant-legend">
          {table.columns.map((c) => (
            <div key={c.variant}>
              <dt className="mono">{c.variant}</dt>
              <dd>{withCode(c.description)}</dd>
            </div>
          ))}
        </dl>
        <p>
          Seed {formatCount(table.seed)} ·{' '}
          {table.params.map(([k, v], i) => (
            <span key={k}>
              {i > 0 && ' '}
              <span className="mono">
                {k}={v}
              </span>
            </span>
          ))}
          . The simulator is scaled down, so absolute numbers differ
          from the author&apos;s; the direction is what should match. Same numbers from the command line:
        </p>
        <code className="command">{compareCommand(experiment, table.seed, table.params)}</code>
        {experiment.limits && (
          <section className="comparison-limits" aria-label="Where it does not hold">
            <h3>Where it does not hold, and why</h3>
            {paragraphs.map((paragraph, i) => (
              <p key={i} id={`${whyId}-${i}`} tabIndex={-1} className={whyAt === i ? 'why-target' : undefined}>
                {withCode(keepTogether(paragraph))}
              </p>
            ))}
          </section>
        )}
      </div>
    </>
  );
}

/**
 * A metric's value with its unit (formatMetric), the unit free to go under
 * the number when the table needs the room (a rate's "reads/s" in a
 * three-variant table at 1,280 px), never inside either.
 */
function MetricValue({ value, metric }: { value: number | null; metric: string }) {
  const text = formatMetric(value, metric);
  const unit = metricUnit(metric);
  if (unit === undefined || !text.endsWith(` ${unit}`)) return <span className="nowrap">{text}</span>;
  return (
    <>
      <span className="nowrap">{text.slice(0, -unit.length - 1)}</span> <span className="nowrap unit">{unit}</span>
    </>
  );
}
