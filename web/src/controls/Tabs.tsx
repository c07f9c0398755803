// A tab list (WAI-ARIA tabs pattern): one tab stop, arrow keys (and Home,
// End) move between the tabs and select them. The page renders the panel
// of the selected tab with the id and label `tabPanelId`/`tabId` give it.
import { useEffect, useLayoutEffect, useRef, useState, type KeyboardEvent, type RefObject } from 'react';
import { pressedByPointer } from './stepKeys';

export interface TabInfo<K extends string> {
  key: K;
  label: string;
  /** A short note after the label ("3 zones"), if any. */
  note?: string;
}

export interface TabsProps<K extends string> {
  /** The accessible name of the tab list. */
  label: string;
  /** A prefix for the tabs' and panels' ids. */
  idPrefix: string;
  tabs: readonly TabInfo<K>[];
  selected: K;
  onSelect(key: K): void;
}

export const tabId = (prefix: string, key: string) => `${prefix}-tab-${key}`;
export const tabPanelId = (prefix: string, key: string) => `${prefix}-panel-${key}`;

export function Tabs<K extends string>({ label, idPrefix, tabs, selected, onSelect }: TabsProps<K>) {
  const listRef = useRef<HTMLDivElement>(null);
  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, index: number) => {
    // A tab a click focused leaves the arrows to the page's step keys.
    if (pressedByPointer(event.currentTarget)) return;
    let next: number | null = null;
    if (event.key === 'ArrowRight') next = (index + 1) % tabs.length;
    else if (event.key === 'ArrowLeft') next = (index - 1 + tabs.length) % tabs.length;
    else if (event.key === 'Home') next = 0;
    else if (event.key === 'End') next = tabs.length - 1;
    if (next === null) return;
    // The page's own shortcuts (→ steps) must not see these keys.
    event.preventDefault();
    event.stopPropagation();
    const tab = tabs[next]!;
    onSelect(tab.key);
    listRef.current?.querySelector<HTMLButtonElement>(`#${CSS.escape(tabId(idPrefix, tab.key))}`)?.focus();
  };
  const compact = useCompactWhenWrapped(listRef);
  return (
    <div className={compact ? 'tabs compact' : 'tabs'} role="tablist" aria-label={label} ref={listRef}>
      {tabs.map((t, i) => {
        const isSelected = t.key === selected;
        return (
          <button
            key={t.key}
            type="button"
            role="tab"
            id={tabId(idPrefix, t.key)}
            className="tab"
            aria-selected={isSelected}
            aria-controls={isSelected ? tabPanelId(idPrefix, t.key) : undefined}
            tabIndex={isSelected ? 0 : -1}
            onClick={() => onSelect(t.key)}
            onKeyDown={(e) => onKeyDown(e, i)}
          >
            {t.label}
            {t.note && <span className="tab-note">{t.note}</span>}
          </button>
        );
      })}
    </div>
  );
}

/**
 * Whether the tab list drops its notes (the counts beside the labels): once
 * they would wrap it onto a second line, and until its width changes. A
 * count that grows while a run plays (Shadows 9, then 10) then cannot make
 * the tabs, and everything under them, jump between one line and two.
 */
function useCompactWhenWrapped(listRef: RefObject<HTMLDivElement | null>): boolean {
  const [compact, setCompact] = useState(false);
  // Before the browser paints: measured with the notes, dropped at once if they wrap.
  useLayoutEffect(() => {
    const tabs = listRef.current?.children;
    if (compact || !tabs || tabs.length < 2) return;
    const first = tabs[0] as HTMLElement;
    const last = tabs[tabs.length - 1] as HTMLElement;
    if (last.offsetTop > first.offsetTop) setCompact(true);
  });
  // Another width: measure again with the notes.
  useEffect(() => {
    const list = listRef.current;
    if (!list || typeof ResizeObserver === 'undefined') return;
    let width = list.clientWidth;
    const observer = new ResizeObserver(() => {
      if (list.clientWidth === width) return;
      width = list.clientWidth;
      setCompact(false);
    });
    observer.observe(list);
    return () => observer.disconnect();
  }, [listRef]);
  return compact;
}
