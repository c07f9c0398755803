// The timeline: a slider over every step reached so far (scrubbing goes to
// exactly the step under it: the engine restores a checkpoint and replays),
// a field to go to any step, "Run to next" with the kind of event to stop
// at, and the progress of a long seek or run.
import { useEffect, useId, useState, type FormEvent } from 'react';
import { MAX_SEEK_STEP, RUN_KINDS, type RunKind } from '../engine/protocol';
import type { Busy } from '../simulationState';
import { runEndAhead } from './runEnd';
import { formatCount } from '../util/format';
import './timeline.css';

/** A run to the next event stops after this many steps if it finds none. */
export const RUN_MAX_STEPS = 10_000;

/**
 * How far "Run to next" goes from `step` when it finds nothing: to the
 * scenario's run end when that is ahead and closer (as Play stops there;
 * `runEnd` is then that step), else RUN_MAX_STEPS.
 */
export function runToNextLimit(step: number, runEnd: number | undefined): { maxSteps: number; runEnd?: number } {
  const end = runEndAhead(step, runEnd);
  if (end !== null && end - step <= RUN_MAX_STEPS) return { maxSteps: end - step, runEnd: end };
  return { maxSteps: RUN_MAX_STEPS };
}

export interface TimelineControlsProps {
  /** False while no engine is running. */
  enabled: boolean;
  /** The step shown. */
  step: number;
  /** The furthest step reached: the end of the slider. */
  furthest: number;
  /** The scenario's duration in steps (Frame.durationSteps): past it, the timeline says so. */
  runEnd?: number;
  busy: Busy | null;
  onSeek(step: number): void;
  /** Without it, no "Run to next" (compare mode: the two sides would stop at different steps). */
  onRunUntil?(kind: string, label: string, maxSteps: number, runEnd?: number): void;
  /** Stops a long seek or run where it has got to (a Stop button and Escape while one runs). */
  onStop?(): void;
  /** Whether the run has MGLRU (default true); without it, "Run to next" cannot stop at its aging or evictions. */
  mglru?: boolean;
  /** The group's accessible name (default "Timeline controls"). */
  label?: string;
  /** The kind "Run to next" offers first (EXPERIMENT_RUN_KIND), until one is chosen; it starts over when this changes. */
  defaultKind?: RunKind;
}

export function TimelineControls({
  enabled,
  step,
  furthest,
  runEnd,
  busy,
  onSeek,
  onRunUntil,
  onStop,
  mglru = true,
  label: groupLabel = 'Timeline controls',
  defaultKind,
}: TimelineControlsProps) {
  // While scrubbing, the slider shows where it was dragged until that step arrives.
  const [dragged, setDragged] = useState<number | null>(null);
  useEffect(() => {
    if (dragged === step) setDragged(null);
  }, [dragged, step]);
  useEffect(() => {
    if (!enabled) setDragged(null);
  }, [enabled]);
  const limit = runToNextLimit(step, runEnd);
  const [goTo, setGoTo] = useState('');
  const firstKind = defaultKind ?? RUN_KINDS[0].kind;
  const [chosenKind, setKind] = useState<string>(firstKind);
  useEffect(() => setKind(firstKind), [firstKind]);
  // With MGLRU off, its events cannot happen: their options are disabled and
  // a choice of one falls back to the first kind a run can stop at.
  const possible = (k: (typeof RUN_KINDS)[number]) => mglru || !k.mglruOnly;
  const kind = RUN_KINDS.some((k) => k.kind === chosenKind && possible(k)) ? chosenKind : RUN_KINDS.find(possible)!.kind;
  const ids = useId();
  // Escape stops a long seek or run, wherever the focus is.
  const stoppable = busy !== null && onStop !== undefined;
  useEffect(() => {
    if (!stoppable) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onStop?.();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [stoppable, onStop]);
  const end = Math.max(furthest, step);
  const shown = dragged ?? step;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const target = Number(goTo);
    if (goTo.trim() === '' || !Number.isInteger(target) || target < 0 || target > MAX_SEEK_STEP) return;
    onSeek(target);
  };
  const label = RUN_KINDS.find((k) => k.kind === kind)?.label ?? kind;
  const percent = busy && busy.total > 0 ? Math.floor((100 * busy.done) / busy.total) : 0;

  return (
    <div className="timeline-bar" role="group" aria-label={groupLabel}>
      <div className="timeline-scrub">
        <label htmlFor={`${ids}-range`} className="timeline-label">
          Timeline
        </label>
        <input
          id={`${ids}-range`}
          type="range"
          min={0}
          max={end}
          step={1}
          value={shown}
          disabled={!enabled || end === 0}
          aria-valuetext={`step ${formatCount(shown)} of ${formatCount(end)}`}
          onChange={(e) => {
            const target = Number(e.target.value);
            setDragged(target);
            onSeek(target);
          }}
        />
        <span className="timeline-end muted" data-testid="timeline-end">
          {formatCount(end)} reached
        </span>
        {runEnd !== undefined && runEnd > 0 && step === runEnd && (
          <span
            className="timeline-past"
            data-testid="timeline-at-end"
            title={`The scenario's run ends in step ${formatCount(runEnd)}: an experiment's figures are taken here. Play stopped here; played again, the run goes on past it.`}
          >
            the run&apos;s end
          </span>
        )}
        {runEnd !== undefined && runEnd > 0 && step > runEnd && (
          <span
            className="timeline-past"
            data-testid="timeline-past"
            title={`The scenario's run ends in step ${formatCount(runEnd)}: reclaim-sim run stops at the end of that step, and an experiment's figures are taken at the run's duration. The run goes on past it.`}
          >
            past the run&apos;s end (step {formatCount(runEnd)})
          </span>
        )}
      </div>
      <form className="timeline-goto" onSubmit={submit}>
        <label htmlFor={`${ids}-goto`}>Go to step</label>
        <input
          id={`${ids}-goto`}
          type="number"
          inputMode="numeric"
          min={0}
          max={MAX_SEEK_STEP}
          step={1}
          value={goTo}
          placeholder={String(step)}
          disabled={!enabled}
          onChange={(e) => setGoTo(e.target.value)}
        />
        <button type="submit" className="button" disabled={!enabled || busy !== null || goTo.trim() === ''}>
          Go
        </button>
      </form>
      {onRunUntil && (
        <div className="timeline-run">
          <label htmlFor={`${ids}-kind`}>Stop at</label>
          <select id={`${ids}-kind`} value={kind} disabled={!enabled} onChange={(e) => setKind(e.target.value)}>
            {RUN_KINDS.map((k) => (
              <option key={k.kind} value={k.kind} disabled={!possible(k)}>
                {possible(k) ? k.label : `${k.label}: MGLRU only`}
              </option>
            ))}
          </select>
          <button
            type="button"
            className="button"
            disabled={!enabled || busy !== null}
            title={
              limit.runEnd !== undefined
                ? `Step until the next ${label}: at most to the run's end (step ${formatCount(limit.runEnd)}); from there, at most ${formatCount(RUN_MAX_STEPS)} steps`
                : `Step until the next ${label}: at most ${formatCount(RUN_MAX_STEPS)} steps`
            }
            onClick={() => onRunUntil(kind, label, limit.maxSteps, limit.runEnd)}
          >
            Run to next
          </button>
        </div>
      )}
      {busy && (
        <div className="timeline-progress">
          <div className="timeline-progress-status" role="status" data-testid="busy">
            <progress max={busy.total} value={busy.done} aria-label={busy.label} />
            <span>
              {busy.label}: {percent}%
            </span>
          </div>
          {onStop && (
            <button type="button" className="button small" onClick={onStop} title="Stop here (Escape); the step reached is shown">
              Stop
            </button>
          )}
        </div>
      )}
    </div>
  );
}
