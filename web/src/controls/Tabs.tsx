// A tab list (WAI-ARIA tabs pattern): one tab stop, arrow keys (and Home,
// End) move between the tabs and select them. The page renders the panel
// of the selected tab with the id and label `tabPanelId`/`tabId` give it.
import { useRef, type KeyboardEvent } from 'react';
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
  return (
    <div className="tabs" role="tablist" aria-label={label} ref={listRef}>
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
