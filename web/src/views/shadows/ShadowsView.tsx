// The shadow LRU: the tracked pages that are out of memory, each at the
// refault distance (or generation) its shadow has now against the threshold
// a refault would meet now, and the last step's refault decisions with the
// rule that made each. React owns the card and the <svg>; D3 draws inside.
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import type { ShadowFrame } from '../../engine/pkg/reclaim_core';
import { counted, formatCount, formatMs, secondsColumn } from '../../util/format';
import { useElementWidth, usePrefersReducedMotion } from '../../util/hooks';
import { drawShadows, shadowChartHeight } from './draw';
import {
  chooseLruvec,
  DECISIONS,
  decisionsOf,
  decisionCounts,
  refaultModel,
  refaultRows,
  shadowLruvecKey,
  shadowModel,
  type Decision,
  type RefaultModel,
} from './model';
import './shadows.css';

export interface ShadowsViewProps {
  shadow: ShadowFrame;
  step: number;
  /** The selected tracked page, if any. */
  selected: string | null;
  onSelect(page: string | null): void;
  /** Transition length for this update in ms (0 = none). */
  transitionMs: number;
  /**
   * The lruvec chosen ("/memcg@node", shared with the LRU tab and kept in
   * shared links) and how to choose another; without them the view keeps
   * its own choice.
   */
  chosenLruvec?: string | null;
  onChooseLruvec?(key: string): void;
  /** A line under the header (side by side: the lruvec chosen on the other side has no shadows here). */
  note?: string;
}

const MODEL_TEXT: Record<RefaultModel, string> = {
  workingset_test_recent:
    'Classic LRU: a refault is activated when its refault distance (how far nonresident_age moved since eviction) is at most the workingset size (workingset_test_recent).',
  lru_gen_test_recent:
    'MGLRU (v6.12): a refault counts as recent when the generation it was evicted from is still min_seq of its type (lru_gen_test_recent); there is no distance. A recent refault feeds the PID controller (refaulted[tier]) and is counted as workingset_activate, but it is not activated: only one in a fault, or with refs of 3 or more, gets PG_workingset back. Older kernels differ where their switches say so: before v6.7 only refs at the maximum (4) restore, and PG_workingset alone; v6.1, as multi-memcg-kswapd runs it, counts a refault only when it is recent and never counts workingset_activate.',
  lru_test_refault:
    'MGLRU with the refault-distance patch (Kairui Song, RFC): a refault whose refault distance is below the workingset (lru_test_refault) is activated if it has references, and has its tier raised and PG_workingset restored either way; whether its generation is still min_seq decides where the PID feedback goes.',
};

export function ShadowsView({ shadow, step, selected, onSelect, transitionMs, chosenLruvec, onChooseLruvec, note }: ShadowsViewProps) {
  const [ownChoice, setOwnChoice] = useState<string | null>(null);
  const chosen = onChooseLruvec ? (chosenLruvec ?? null) : ownChoice;
  const setChosen = onChooseLruvec ?? setOwnChoice;
  const lruvec = chooseLruvec(shadow, chosen, selected);
  const model = useMemo(() => (lruvec ? shadowModel(shadow, lruvec) : null), [shadow, lruvec]);
  const containerRef = useRef<HTMLDivElement>(null);
  const svgRef = useRef<SVGSVGElement>(null);
  const width = useElementWidth(containerRef);
  const reducedMotion = usePrefersReducedMotion();
  const summaryId = useId();
  const selectId = useId();
  const onSelectRef = useRef(onSelect);
  useEffect(() => {
    onSelectRef.current = onSelect;
  }, [onSelect]);
  const lastWidth = useRef(0);
  const lastModel = useRef<unknown>(null);
  useEffect(() => {
    const svg = svgRef.current;
    if (!svg || !model || width <= 0) return;
    const resized = lastWidth.current !== width;
    lastWidth.current = width;
    const newData = lastModel.current !== model;
    lastModel.current = model;
    drawShadows(svg, model, {
      width,
      duration: reducedMotion || resized || !newData ? 0 : transitionMs,
      selected,
      onSelect: (page) => onSelectRef.current(page),
    });
  }, [model, width, reducedMotion, transitionMs, selected]);

  return (
    <section className="card shadows" aria-label="Shadow LRU" data-model={shadow.model} data-tour="shadows">
      <div className="card-header">
        <h2 className="card-title">
          Shadow LRU{' '}
          {model && (
            <>
              <span className="mono">{model.memcg}</span>
              <span className="muted"> · node {model.node}</span>
            </>
          )}
        </h2>
        {shadow.lruvecs.length > 1 && lruvec && (
          <span className="shadow-picker">
            <label htmlFor={selectId}>Lruvec</label>
            <select id={selectId} value={shadowLruvecKey(lruvec)} onChange={(e) => setChosen(e.target.value)}>
              {shadow.lruvecs.map((l) => (
                <option key={shadowLruvecKey(l)} value={shadowLruvecKey(l)}>
                  {l.memcg} on node {l.node} — {counted(l.shadowsTotal, 'shadow')}
                </option>
              ))}
            </select>
          </span>
        )}
      </div>
      {note && (
        <p className="hint shadow-note" data-testid="shadow-note">
          {note}
        </p>
      )}
      <p className="shadow-intro">
        <code>{shadow.model}</code> {MODEL_TEXT[refaultModel(shadow)]}
      </p>
      {lruvec && model ? (
        <>
          <dl className="shadow-facts">
            <div>
              <dt>shadows</dt>
              <dd data-testid="shadow-count">
                {formatCount(model.total)}
                {model.total > model.dots.length && <span className="muted"> ({formatCount(model.dots.length)} shown)</span>}
              </dd>
            </div>
            <div>
              <dt>{model.model === 'lru_gen_test_recent' ? 'would be recent now' : 'would activate now'}</dt>
              <dd>{formatCount(model.activate)}</dd>
            </div>
            {model.model !== 'lru_gen_test_recent' && (
              <div>
                <dt>nonresident_age</dt>
                <dd className="mono">{formatCount(model.nonresidentAge)}</dd>
              </div>
            )}
            {model.generation && (
              <div>
                <dt>min_seq[anon] · [file] · max_seq</dt>
                <dd className="mono">
                  {model.generation.minSeq.anon} · {model.generation.minSeq.file} · {model.generation.maxSeq}
                </dd>
              </div>
            )}
          </dl>
          <ul className="legend-row shadow-legend" aria-hidden="true">
            <li>
              <span className="shadow-key anon filled" /> anon
            </li>
            <li>
              <span className="shadow-key file filled" /> file
            </li>
            <li>
              <span className="shadow-key hollow" /> a refault now would not {model.model === 'lru_gen_test_recent' ? 'be recent' : 'activate'}
            </li>
            <li>
              <span className="shadow-key filled" /> would {model.model === 'lru_gen_test_recent' ? 'be recent' : 'activate'}
            </li>
            {model.distance && (
              <li>
                <span className="shadow-key line" /> workingset threshold (shaded: activates)
              </li>
            )}
          </ul>
          <div ref={containerRef} className="chart shadow-chart" style={{ height: shadowChartHeight(model) }}>
            <svg ref={svgRef} role="group" aria-label={`Shadow LRU of ${model.memcg} on node ${model.node}`}
              aria-describedby={summaryId} data-testid="shadow-chart" />
          </div>
          <p id={summaryId} className="visually-hidden">
            {model.summary}
          </p>
          {model.distance && model.distance.thresholds.length > 0 && (
            <ul className="threshold-rules" aria-label="Thresholds now">
              {model.distance.thresholds.map((t) => (
                <li key={t.kind} className={`kind-${t.kind}`} data-testid="threshold-rule" data-kind={t.kind} data-pages={t.pages}>
                  {t.rule}
                </li>
              ))}
            </ul>
          )}
        </>
      ) : (
        <p className="empty">No lruvec has shadows yet.</p>
      )}
      <RefaultTable shadow={shadow} step={step} onSelect={onSelect} selected={selected} />
    </section>
  );
}

interface RefaultTableProps {
  shadow: ShadowFrame;
  step: number;
  selected: string | null;
  onSelect(page: string | null): void;
}

/** This step's refault decisions: what was compared, what was decided, and the rule. */
function RefaultTable({ shadow, step, selected, onSelect }: RefaultTableProps) {
  const [filter, setFilter] = useState<Decision | 'all'>('all');
  const filterId = useId();
  const rows = useMemo(() => refaultRows(shadow.refaults), [shadow.refaults]);
  const counts = useMemo(() => decisionCounts(shadow.refaults), [shadow.refaults]);
  const shown = filter === 'all' ? rows : rows.filter((r) => r.decision === filter);
  const n = (d: Decision) => counts.byDecision[d].anon + counts.byDecision[d].file;
  // The table lists every lruvec's refaults (the card above shows one): with more than one, each row names its own.
  const lruvecs = new Set(rows.map((r) => r.lruvec));
  const many = lruvecs.size > 1;
  // One unit down the time column.
  const seconds = secondsColumn(rows.map((r) => r.timeNs));
  return (
    <div className="refaults">
      <div className="refaults-head">
        <h3 className="refaults-title">
          Refaults at step {formatCount(step)}
          {many ? `, in ${formatCount(lruvecs.size)} lruvecs` : ''}
          {' · '}
          <span className="muted" data-testid="refault-total">
            {formatCount(counts.total + shadow.refaultsDropped)}
            {shadow.refaultsDropped > 0 && ` (${formatCount(shadow.refaultsDropped)} not listed)`}
          </span>
        </h3>
        <ul className="decision-counts" aria-label="Decisions">
          {DECISIONS.filter((d) => n(d) > 0).map((d) => (
            <li key={d} className={`decision decision-${d.replace(' ', '-')}`} data-decision={d} data-count={n(d)}>
              {d} {formatCount(n(d))}
            </li>
          ))}
          {counts.restore.anon + counts.restore.file > 0 && (
            <li className="decision decision-restore" data-decision="restore" data-count={counts.restore.anon + counts.restore.file}>
              restore {formatCount(counts.restore.anon + counts.restore.file)}
            </li>
          )}
        </ul>
        <span className="refault-filter">
          <label htmlFor={filterId}>Show</label>
          <select id={filterId} value={filter} onChange={(e) => setFilter(e.target.value as Decision | 'all')}>
            <option value="all">every decision</option>
            {decisionsOf(refaultModel(shadow)).map((d) => (
              <option key={d} value={d}>
                {d}
              </option>
            ))}
          </select>
        </span>
      </div>
      {rows.length === 0 ? (
        <p className="empty">{step === 0 ? 'Step forward: refaults come once pages have been evicted.' : 'No refault in this step.'}</p>
      ) : (
        <div className="refaults-scroll">
          <table className="refault-table" aria-label="Refault decisions">
            <thead>
              <tr>
                <th scope="col">time</th>
                {many && <th scope="col">lruvec</th>}
                <th scope="col">page</th>
                <th scope="col">compared</th>
                <th scope="col">decision</th>
              </tr>
            </thead>
            {shown.map((r) => (
              <tbody key={r.key} data-testid="refault-row" data-decision={r.decision} data-activate-counted={r.activateCounted} data-kind={r.kind} data-page={r.page}
                className={r.page === selected ? 'selected' : undefined}>
                <tr>
                  <td className="num">{formatMs(r.timeNs, seconds)}</td>
                  {many && <td className="mono nowrap">{r.lruvec}</td>}
                  <td>
                    {r.tracked ? (
                      <button type="button" className={`link-button page-button kind-${r.kind}`} aria-pressed={r.page === selected}
                        aria-label={`Select ${r.page}`} onClick={() => onSelect(r.page)}>
                        {r.page}
                      </button>
                    ) : (
                      <span className={`mono page-untracked kind-${r.kind}`}>{r.page}</span>
                    )}
                  </td>
                  <td className="mono nowrap">
                    {r.checks.map((c) => (
                      <span key={c} className="check">
                        {c}
                      </span>
                    ))}
                  </td>
                  <td className="nowrap">
                    <span className={`decision decision-${r.decision.replace(' ', '-')}`}>{r.decision}</span>
                    {r.extras.map((x) => (
                      <span key={x} className="decision-extra">
                        {x}
                      </span>
                    ))}
                  </td>
                </tr>
                <tr className="rule-row">
                  <td />
                  <td colSpan={many ? 4 : 3} className="rule">
                    {r.rule}
                  </td>
                </tr>
              </tbody>
            ))}
          </table>
        </div>
      )}
    </div>
  );
}
