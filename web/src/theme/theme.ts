// Light and dark themes. The page follows the system's colour scheme
// (prefers-color-scheme) unless the reader picks one; the pick is kept in
// localStorage. The resolved theme is written to <html data-theme>, which
// styles/theme.css keys its colour variables on (the views read their colours from
// those variables, so every chart follows).
import { useEffect, useState } from 'react';

export type ThemeChoice = 'system' | 'light' | 'dark';
export type Theme = 'light' | 'dark';

export const THEME_STORAGE_KEY = 'reclaim-lab.theme';
const DARK_QUERY = '(prefers-color-scheme: dark)';

/** The reader's stored pick ('system' when none, or when storage is unavailable). */
export function storedTheme(): ThemeChoice {
  try {
    const value = window.localStorage.getItem(THEME_STORAGE_KEY);
    return value === 'light' || value === 'dark' ? value : 'system';
  } catch {
    return 'system';
  }
}

function storeTheme(choice: ThemeChoice): void {
  try {
    if (choice === 'system') window.localStorage.removeItem(THEME_STORAGE_KEY);
    else window.localStorage.setItem(THEME_STORAGE_KEY, choice);
  } catch {
    // Private windows may refuse storage: the pick then lasts for this page only.
  }
}

export function resolveTheme(choice: ThemeChoice): Theme {
  if (choice !== 'system') return choice;
  return window.matchMedia(DARK_QUERY).matches ? 'dark' : 'light';
}

/** Writes the theme to the document (call before the first render to avoid a flash of the other theme). */
export function applyTheme(choice: ThemeChoice): void {
  document.documentElement.dataset.theme = resolveTheme(choice);
}

/** The reader's theme pick, applied to the document and stored; 'system' follows changes of the system's scheme. */
export function useTheme(): [ThemeChoice, (choice: ThemeChoice) => void] {
  const [choice, setChoice] = useState<ThemeChoice>(storedTheme);
  useEffect(() => {
    applyTheme(choice);
    storeTheme(choice);
    if (choice !== 'system') return;
    const query = window.matchMedia(DARK_QUERY);
    const follow = () => applyTheme('system');
    query.addEventListener('change', follow);
    return () => query.removeEventListener('change', follow);
  }, [choice]);
  return [choice, setChoice];
}
