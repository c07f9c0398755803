// The transport: step back and forward, play, pause, reset and the play speed.
import { TICK_MS } from '../useSimulation';
import { PauseIcon, PlayIcon, ResetIcon, StepBackIcon, StepIcon } from './icons';

/** Steps per tick offered by the speed selector. */
export const SPEEDS = [1, 10, 100, 1000] as const;

export interface StepControlsProps {
  /** False while no engine is running (loading, failed). */
  enabled: boolean;
  playing: boolean;
  speed: number;
  /** False at step 0. */
  canStepBack: boolean;
  /**
   * A long jump or run is going: stepping and playing wait for it to be
   * stopped (Stop, Escape) rather than queue behind it unseen.
   */
  busy?: boolean;
  onStepBack(): void;
  onStep(): void;
  onPlay(): void;
  onPause(): void;
  onReset(): void;
  onSpeed(speed: number): void;
}

export function StepControls(props: StepControlsProps) {
  const { enabled, playing, speed } = props;
  const moving = enabled && !props.busy;
  const waitNote = props.busy ? ' — stop the jump or run first' : '';
  return (
    <div className="transport" role="group" aria-label="Simulation controls">
      <button type="button" className="button" onClick={props.onStepBack} disabled={!moving || !props.canStepBack}
        data-focus-partner="step" aria-keyshortcuts="ArrowLeft" title={`Go back one step (←)${waitNote}`}>
        <StepBackIcon />
        Step back
      </button>
      <button type="button" className="button" onClick={props.onStep} disabled={!moving} data-focus-name="step" aria-keyshortcuts="ArrowRight"
        title={`Advance one step (→)${waitNote}`}>
        <StepIcon />
        Step forward
      </button>
      <button type="button" className="button primary" onClick={props.onPlay} disabled={!moving || playing}
        data-focus-name="play" data-focus-partner="pause" aria-keyshortcuts="Space" title={`Run continuously (Space)${waitNote}`}>
        <PlayIcon />
        Play
      </button>
      <button type="button" className="button" onClick={props.onPause} disabled={!enabled || !playing}
        data-focus-name="pause" data-focus-partner="play" aria-keyshortcuts="Space" title="Stop running (Space)">
        <PauseIcon />
        Pause
      </button>
      <button type="button" className="button" onClick={props.onReset} disabled={!enabled}
        title="Restart this scenario from step 0">
        <ResetIcon />
        Reset
      </button>
      <SpeedSelect speed={speed} disabled={!enabled} onSpeed={props.onSpeed} />
      {/* The keys, in sight for whoever presents (the buttons name them to assistive technology: aria-keyshortcuts). */}
      <span className="key-hint" aria-hidden="true" title="Keyboard: → steps forward, ← steps back, Space plays or pauses (not while a field has the focus)">
        <kbd>←</kbd>
        <kbd>→</kbd> step · <kbd>Space</kbd> play
      </span>
    </div>
  );
}

/** What a tick is, for the Speed list's tooltip. */
const SPEED_HELP = `Play moves the run this many steps a tick, a tick every ${TICK_MS} ms or as soon as the engine is done (about ${Math.round(1000 / TICK_MS)} ticks a second); a step is the scenario's step of simulated time. 1 step a tick shows each move; more steps reach later moments sooner`;

/** "Speed": how many steps a play tick takes (the page's controls and compare mode's). */
export function SpeedSelect({ speed, disabled, onSpeed }: { speed: number; disabled: boolean; onSpeed(speed: number): void }) {
  return (
    <label className="speed" title={SPEED_HELP}>
      <span>Speed</span>
      <select value={speed} onChange={(e) => onSpeed(Number(e.target.value))} disabled={disabled}>
        {SPEEDS.map((s) => (
          <option key={s} value={s}>
            {s === 1 ? '1 step' : `${s.toLocaleString('en-US')} steps`} / tick
          </option>
        ))}
      </select>
    </label>
  );
}
