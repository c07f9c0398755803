// The page's step keys, shared by the page's own run and side by side:
// → steps, ← steps back, Space plays or pauses, unless the key belongs to
// what has the focus (a field, a tab list or a button the keyboard
// focused, a box that scrolls sideways, Space in a dialog; on the timeline
// slider the arrows move it, but → at its end steps on and Space plays).
import { useEffect, useLayoutEffect, useRef } from 'react';

/**
 * The button or tab the pointer last pressed, while it keeps the focus: a
 * click leaves the focus there, and a presenter who clicked Step forward or
 * a tab and then presses Space or → means the page's keys (play, step), not
 * the button's or the tab list's. A keyboard user who reaches it with Tab
 * keeps the element's own keys.
 */
let pointerPressed: Element | null = null;

if (typeof window !== 'undefined') {
  window.addEventListener(
    'pointerdown',
    (event) => {
      pointerPressed = event.target instanceof Element ? event.target.closest('button, [role="tab"]') : null;
    },
    true,
  );
  // Focus that moves elsewhere (Tab, a dialog taking it) ends the pointer's claim.
  window.addEventListener(
    'focusin',
    (event) => {
      if (event.target !== pointerPressed) pointerPressed = null;
    },
    true,
  );
  window.addEventListener(
    'keydown',
    (event) => {
      if (event.key === 'Tab') pointerPressed = null;
      // Space on a button the pointer pressed is the page's key (useStepKeys plays or pauses with it), also
      // while the page's keys wait (side by side still starting): it never presses the button a second time,
      // which would undo the click (close side by side just opened).
      else if (event.key === ' ' && event.target instanceof HTMLButtonElement && pressedByPointer(event.target)) event.preventDefault();
    },
    true,
  );
}

/** Whether `element` has the focus because the pointer pressed it (not the keyboard). */
export function pressedByPointer(element: EventTarget | null): boolean {
  return element !== null && element === pointerPressed;
}

/** Whether `key` belongs to the focused element rather than to the step keys. */
export function isTyping(target: EventTarget | null, key: string): boolean {
  if (!(target instanceof HTMLElement)) return false;
  // A slider (the timeline) moves with the arrow keys, but Space is not its key, and neither is → at its
  // end: the timeline ends at the furthest step reached, so → there steps on, as it does on the page.
  if (target instanceof HTMLInputElement && target.type === 'range') {
    if (key === ' ') return false;
    if (key === 'ArrowRight' && Number(target.value) >= Number(target.max)) return false;
    return true;
  }
  if (target.isContentEditable || /^(INPUT|SELECT|TEXTAREA)$/.test(target.tagName)) return true;
  // A tab list moves between its tabs with the arrow keys (unless a click put the focus there).
  if (target.getAttribute('role') === 'tab' && key.startsWith('Arrow')) return !pressedByPointer(target);
  // A focused box that scrolls (a wide table at high zoom) scrolls with the arrow keys.
  if ((key === 'ArrowLeft' || key === 'ArrowRight') && target.scrollWidth > target.clientWidth && /^(auto|scroll)$/.test(getComputedStyle(target).overflowX)) {
    return true;
  }
  // Space presses a focused button (unless a click put the focus there); the arrow keys do nothing there.
  if (key === ' ' && target.tagName === 'BUTTON') return !pressedByPointer(target);
  // In a dialog (the tour's panel, which takes the focus to its title when it
  // opens), Space is the reader's: it must not set the run going under the
  // step being read. The arrow keys still step, as the step's check notices.
  return key === ' ' && target.closest('[role="dialog"]') !== null;
}

export interface StepKeys {
  /** False while the keys should do nothing (no engine, a long run going, another owner of the keys). */
  enabled: boolean;
  playing: boolean;
  step(): void;
  stepBack(): void;
  play(): void;
  pause(): void;
}

/** Listens for the step keys on the window while `keys.enabled`. */
export function useStepKeys(keys: StepKeys): void {
  const latest = useRef(keys);
  useLayoutEffect(() => {
    latest.current = keys;
  });
  useEffect(() => {
    if (!keys.enabled) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target, event.key)) return;
      const k = latest.current;
      if (event.key === 'ArrowRight') {
        event.preventDefault();
        k.step();
      } else if (event.key === 'ArrowLeft') {
        event.preventDefault();
        k.stepBack();
      } else if (event.key === ' ') {
        event.preventDefault();
        if (k.playing) k.pause();
        else k.play();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [keys.enabled]);
}
