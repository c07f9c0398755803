// How a message quotes a value taken from a link or a file.

/** The most characters of a value a message echoes. */
export const MAX_QUOTED = 60;

/**
 * `text` cut to its first `max` characters when longer, with how long it
 * was: [head, "… (1,234 characters)"], else [text, ""].
 */
export function cut(text: string, max: number): [head: string, rest: string] {
  return text.length <= max ? [text, ''] : [text.slice(0, max), `… (${text.length.toLocaleString('en-US')} characters)`];
}

/**
 * A value from a link, quoted for a message (as JSON.stringify quotes it),
 * cut to its first MAX_QUOTED characters when longer, with how long it was:
 * a message names a long value without echoing all of it (a link can hold
 * hundreds of kilobytes).
 */
export function quoted(value: unknown): string {
  const [head, rest] = cut(typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value)), MAX_QUOTED);
  return `${JSON.stringify(head)}${rest}`;
}
