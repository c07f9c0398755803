// Keyboard handling shared by the listboxes of dots (the generations'
// tracked folios, on SVG or on a canvas, and the shadow LRU's shadows):
// arrows move between options, Home/End jump, Enter or Space selects,
// Escape clears. DOM-only, no React.

/** What a key does in a listbox: move to an option, select the current one, or clear the selection. */
export type ListboxAction = { move: number } | { select: true } | { clear: true };

/** The action of `key` on the option at `here` of `count` (in reading order); undefined for keys a listbox leaves alone. */
export function listboxAction(key: string, here: number, count: number): ListboxAction | undefined {
  switch (key) {
    case 'ArrowRight':
    case 'ArrowDown':
      return { move: Math.min(count - 1, here + 1) };
    case 'ArrowLeft':
    case 'ArrowUp':
      return { move: Math.max(0, here - 1) };
    case 'Home':
      return { move: 0 };
    case 'End':
      return { move: count - 1 };
    case 'Enter':
    case ' ':
      return { select: true };
    case 'Escape':
      return { clear: true };
    default:
      return undefined;
  }
}

/**
 * Handles `event` on the option at `here` of `options` (in reading order):
 * moves the focus or calls `onSelect`, and keeps the key from the page's own
 * shortcuts (→ steps, Space plays). Keys it does not know pass through.
 */
export function listboxKey(event: KeyboardEvent, options: readonly SVGElement[], here: number, page: string, onSelect: (page: string | null) => void): void {
  const action = listboxAction(event.key, here, options.length);
  if (!action) return;
  event.preventDefault();
  event.stopPropagation();
  if ('move' in action) options[action.move]?.focus();
  else onSelect('select' in action ? page : null);
}
