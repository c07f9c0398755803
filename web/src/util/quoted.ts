// How a message quotes a value taken from a link or a file.

/** The most characters of a value a message echoes. */
export const MAX_QUOTED = 60;

/**
 * A value from a link, quoted for a message (as JSON.stringify quotes it),
 * cut to its first MAX_QUOTED characters when longer, with how long it was:
 * a message names a long value without echoing all of it (a link can hold
 * hundreds of kilobytes).
 */
export function quoted(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value) ?? String(value);
  if (text.length <= MAX_QUOTED) return JSON.stringify(typeof value === 'string' ? value : text);
  return `${JSON.stringify(text.slice(0, MAX_QUOTED))}… (${text.length.toLocaleString('en-US')} characters)`;
}
