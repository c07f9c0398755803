// Keyboard handling shared by the SVG listboxes of dots (the generations'
// tracked folios, the shadow LRU's shadows): arrows move between options,
// Home/End jump, Enter or Space selects, Escape clears. DOM-only, no React.

/**
 * Handles `event` on the option at `here` of `options` (in reading order):
 * moves the focus or calls `onSelect`, and keeps the key from the page's own
 * shortcuts (→ steps, Space plays). Keys it does not know pass through.
 */
export function listboxKey(event: KeyboardEvent, options: readonly SVGElement[], here: number, page: string, onSelect: (page: string | null) => void): void {
  let next: number | null = null;
  switch (event.key) {
    case 'ArrowRight':
    case 'ArrowDown':
      next = Math.min(options.length - 1, here + 1);
      break;
    case 'ArrowLeft':
    case 'ArrowUp':
      next = Math.max(0, here - 1);
      break;
    case 'Home':
      next = 0;
      break;
    case 'End':
      next = options.length - 1;
      break;
    case 'Enter':
    case ' ':
      onSelect(page);
      break;
    case 'Escape':
      onSelect(null);
      break;
    default:
      return;
  }
  event.preventDefault();
  event.stopPropagation();
  if (next !== null) options[next]?.focus();
}
