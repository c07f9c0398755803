// Keeps keyboard focus on the page when the control that has it is disabled
// (Play while playing, Previous on a tour's first step) or re-rendered away
// (a form rebuilt for a new scenario): the browser would drop focus to
// <body>, and a keyboard or screen-reader user would lose their place.

/** How long after the loss a replacement may still take the focus, ms. */
const RETRY_MS = 3000;

/** Controls that can take focus, enabled. */
const FOCUSABLE = 'button:not(:disabled), select:not(:disabled), input:not(:disabled), textarea:not(:disabled), a[href], [tabindex="0"]';

function disabled(element: HTMLElement): boolean {
  return element.matches(':disabled');
}

/**
 * A name for a control that a re-rendered copy of it shares: its accessible
 * label, name, <label> or text (not its id, which React's useId changes on
 * a remount). Null for a control with none of them: nothing to match it by.
 */
function signature(element: HTMLElement): string | null {
  const label = (element as HTMLInputElement).labels?.[0];
  const name = element.getAttribute('aria-label') ?? element.getAttribute('name') ?? (label?.textContent ?? '').trim();
  const text = name ? '' : (element.textContent ?? '').trim();
  return name || text ? `${element.tagName}|${name}|${text}` : null;
}

/**
 * Where focus should go instead of `lost`: its partner (`data-focus-partner`
 * names the `data-focus-name` of the control that takes over, as Pause does
 * for Play), or, when `lost` was replaced, the control that replaced it.
 * Null when there is no such control: focus then stays where the browser put it.
 */
function replacement(root: HTMLElement, lost: HTMLElement, signatureOfLost: string | null): HTMLElement | null {
  const partner = lost.dataset.focusPartner;
  if (partner) {
    const next = root.querySelector<HTMLElement>(`[data-focus-name="${CSS.escape(partner)}"]`);
    if (next && !disabled(next)) return next;
  }
  if (!lost.isConnected && signatureOfLost !== null) {
    for (const candidate of root.querySelectorAll<HTMLElement>(FOCUSABLE)) {
      if (signature(candidate) === signatureOfLost) return candidate;
    }
  }
  return null;
}

/**
 * Watches `root` for the focused control being disabled or removed and moves
 * focus to its replacement. Returns a function that stops watching.
 */
export function installFocusRescue(root: HTMLElement): () => void {
  let last: { element: HTMLElement; signature: string | null; lostAt: number } | null = null;
  const onFocusIn = (event: FocusEvent) => {
    const element = event.target as HTMLElement;
    last = { element, signature: signature(element), lostAt: 0 };
  };
  const onFocusOut = (event: FocusEvent) => {
    // Focus moved on to something else: nothing to rescue. Else the browser may be dropping
    // it from a control just disabled (its focus fixup comes after the change that disabled it).
    if (event.relatedTarget) last = null;
    else setTimeout(rescue, 0);
  };
  const rescue = () => {
    if (!last) return;
    const { element, signature: was } = last;
    // A disabled control may still hold the focus until the browser's fixup: it is lost all the same.
    const active = document.activeElement;
    if (active && active !== document.body && active !== element) return;
    // It still has the focus, and may keep it.
    if (active === element && !disabled(element)) return;
    // Still there and usable, yet not focused: the user moved the focus away (a click on the
    // page): nothing to rescue, now or when the control is disabled later.
    if (element.isConnected && !disabled(element)) {
      last = null;
      return;
    }
    // The replacement may come a render later (Play is enabled once the run has stopped):
    // each change of the page tries again, for a while (not to steal the focus much later).
    const now = performance.now();
    if (last.lostAt === 0) last.lostAt = now;
    else if (now - last.lostAt > RETRY_MS) {
      last = null;
      return;
    }
    const next = replacement(root, element, was);
    if (next) {
      last = null;
      next.focus();
    }
  };
  const observer = new MutationObserver(rescue);
  observer.observe(root, { subtree: true, childList: true, attributes: true, attributeFilter: ['disabled'] });
  root.addEventListener('focusin', onFocusIn);
  root.addEventListener('focusout', onFocusOut);
  return () => {
    observer.disconnect();
    root.removeEventListener('focusin', onFocusIn);
    root.removeEventListener('focusout', onFocusOut);
  };
}
