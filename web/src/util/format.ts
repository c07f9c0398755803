// Number and time formatting shared by the views. Pure functions.

/** Bytes in one simulated page (folios are order 0). */
export const PAGE_SIZE = 4096;

const grouped = new Intl.NumberFormat('en-US');

/** 1234567 -> "1,234,567". */
export function formatCount(value: number): string {
  return grouped.format(value);
}

/** The label of a long move's progress: "Going to step 1,234". */
export function goingToStep(step: number): string {
  return `Going to step ${formatCount(step)}`;
}

/** "1 sleep", "2,048 pages": a count and its noun, plural unless the count is 1. */
export function counted(n: number, noun: string): string {
  return `${formatCount(n)} ${plural(n, noun)}`;
}

/** The noun alone, plural unless `n` is 1: plural(2, 'memcg') -> "memcgs". */
export function plural(n: number, noun: string): string {
  return n === 1 ? noun : `${noun}s`;
}

/** A signed change: "+12", "−3" (a real minus sign), "0". */
export function formatDelta(delta: number): string {
  if (delta === 0) return '0';
  return delta > 0 ? `+${grouped.format(delta)}` : `−${grouped.format(-delta)}`;
}

/** Pages as a size with a binary unit: 2048 -> "8 MiB". */
export function formatPages(pages: number): string {
  const bytes = pages * PAGE_SIZE;
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const digits = value >= 100 || Number.isInteger(value) ? 0 : 1;
  return `${value.toFixed(digits)} ${units[unit]}`;
}

const thousandths = { minimumFractionDigits: 3, maximumFractionDigits: 3 };
/** Seconds to the microsecond, with no more than three trailing zeros' worth of digits shown. */
const microseconds = { minimumFractionDigits: 3, maximumFractionDigits: 6 };
const COLUMN_MICROSECONDS = { minimumFractionDigits: 6, maximumFractionDigits: 6 };

/** Whether formatMs writes `ns` in seconds (from 1 s on). */
function inSecondsAt(ns: number): boolean {
  return Math.abs(ns) >= 1e9;
}

/** Whether a column of times reads in seconds: when any of them does (formatMs's `inSeconds` for all of them). */
export function secondsColumn(times: readonly number[]): boolean {
  return times.some(inSecondsAt);
}

/**
 * A point in simulated time, the one format of the header, tables and
 * titles, always to the microsecond: milliseconds below 1 s
 * (12345678 ns -> "12.346 ms"), seconds from then on, with three decimals
 * or as many more as the microseconds need (5e9 ns -> "5.000 s",
 * 1010250000 ns -> "1.01025 s"). `inSeconds` writes seconds below 1 s
 * too, for a column whose later rows are past 1 s (800e6 ns -> "0.800 s").
 * Exported data keeps raw nanoseconds.
 */
export function formatMs(ns: number, inSeconds = false): string {
  // A column in seconds (secondsColumn) keeps every microsecond digit, so its rows line up.
  if (inSeconds) return `${(Math.round(ns / 1e3) / 1e6).toLocaleString('en-US', COLUMN_MICROSECONDS)} s`;
  if (inSecondsAt(ns)) return `${(Math.round(ns / 1e3) / 1e6).toLocaleString('en-US', microseconds)} s`;
  return `${(ns / 1e6).toLocaleString('en-US', thousandths)} ms`;
}

/** A duration in the unit that reads best: "850 ns", "12.5 µs", "3.20 ms", "1.25 s". */
export function formatDuration(ns: number): string {
  if (ns < 1e3) return `${Math.round(ns)} ns`;
  if (ns < 1e6) return `${trim(ns / 1e3)} µs`;
  if (ns < 1e9) return `${trim(ns / 1e6)} ms`;
  return `${trim(ns / 1e9)} s`;
}

function trim(value: number): string {
  return value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2);
}

/**
 * A time axis's tick labels, all in one unit: the unit of the axis's last
 * time (s from 1 s on, else ms from 1 ms, else µs), with the decimals the
 * ticks' spacing needs (0.2 s apart: "1.2 s"; 500 ms apart: "1.5 s").
 * `ticks` are the scale's ticks, in ns.
 */
export function timeTickFormat(ticks: readonly number[], endNs: number): (ns: number) => string {
  const [unit, size] = endNs >= 1e9 ? ['s', 1e9] : endNs >= 1e6 ? ['ms', 1e6] : ['µs', 1e3];
  const step = ticks.length > 1 ? Math.abs(ticks[1]! - ticks[0]!) / size : 1;
  const decimals = step > 0 ? Math.min(3, Math.max(0, Math.ceil(-Math.log10(step) - 1e-9))) : 0;
  return (ns) => `${(ns / size).toFixed(decimals)} ${unit}`;
}

/**
 * `text` with a number and its unit kept on one line (a no-break space
 * between "101.6" and "ms", "-42" and "%", "1" and "GiB") and "-EAGAIN"
 * unbroken at its hyphen: for prose and table cells that wrap.
 */
export function keepTogether(text: string): string {
  return text.replace(/(\d) (%|pp|ms|µs|s|GiB|MiB|KiB|pages)(?=$|[\s),.;:])/g, '$1\u00a0$2').replace(/-EAGAIN/g, '\u2011EAGAIN');
}
