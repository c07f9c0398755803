// A move forward and the scenario's run end (Frame.durationSteps: the step an
// experiment's figures are taken at). Play pauses there once, side by side
// too, and Run to next stops there when nothing comes before it; from there
// each goes on past it.

/** The run's end when it lies ahead of `step` (a move from `step` stops there), else null. */
export function runEndAhead(step: number, runEnd: number | undefined): number | null {
  return runEnd !== undefined && runEnd > step ? runEnd : null;
}

/** The steps of a play tick of `speed` from `step`, not past `stopAt` (null: nothing to stop at). */
export function tickSteps(speed: number, step: number, stopAt: number | null): number {
  return stopAt === null ? speed : Math.min(speed, stopAt - step);
}
