// How far "Run to next" goes when it finds nothing: to the run's end when it
// is ahead (as Play stops there), else RUN_MAX_STEPS.
import { describe, expect, it } from 'vitest';
import { RUN_MAX_STEPS, runToNextLimit } from '../../web/src/controls/TimelineControls';
import { runEndAhead, tickSteps } from '../../web/src/controls/runEnd';

describe('Run to next: how far it goes', () => {
  it("to the run's end when that is ahead", () => {
    expect(runToNextLimit(0, 500)).toEqual({ maxSteps: 500, runEnd: 500 });
    expect(runToNextLimit(499, 500)).toEqual({ maxSteps: 1, runEnd: 500 });
  });
  it("RUN_MAX_STEPS at or past the run's end, with no run end, or when the end is further than that", () => {
    expect(runToNextLimit(500, 500)).toEqual({ maxSteps: RUN_MAX_STEPS });
    expect(runToNextLimit(800, 500)).toEqual({ maxSteps: RUN_MAX_STEPS });
    expect(runToNextLimit(0, undefined)).toEqual({ maxSteps: RUN_MAX_STEPS });
    expect(runToNextLimit(0, 0)).toEqual({ maxSteps: RUN_MAX_STEPS });
    expect(runToNextLimit(0, 60_000)).toEqual({ maxSteps: RUN_MAX_STEPS });
  });
});

describe("Play and the run's end (the page's player and side by side's)", () => {
  it('stops at the run end when it is ahead, with a last tick that lands on it', () => {
    expect(runEndAhead(0, 500)).toBe(500);
    expect(runEndAhead(500, 500)).toBeNull();
    expect(runEndAhead(800, 500)).toBeNull();
    expect(runEndAhead(0, undefined)).toBeNull();
    expect(runEndAhead(0, 0)).toBeNull();
    expect(tickSteps(100, 450, 500)).toBe(50);
    expect(tickSteps(100, 300, 500)).toBe(100);
    expect(tickSteps(100, 600, null)).toBe(100);
  });
});
