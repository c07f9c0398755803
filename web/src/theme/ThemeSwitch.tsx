// The theme picker: System (follow prefers-color-scheme), Light or Dark.
import { useTheme, type ThemeChoice } from './theme';

const CHOICES: { value: ThemeChoice; label: string }[] = [
  { value: 'system', label: 'System' },
  { value: 'light', label: 'Light' },
  { value: 'dark', label: 'Dark' },
];

export function ThemeSwitch() {
  const [choice, setChoice] = useTheme();
  return (
    <div className="theme-switch">
      <label htmlFor="theme-select">Theme</label>
      <select id="theme-select" value={choice} onChange={(e) => setChoice(e.target.value as ThemeChoice)} title="Colours: follow the system, or always light or dark">
        {CHOICES.map((c) => (
          <option key={c.value} value={c.value}>
            {c.label}
          </option>
        ))}
      </select>
    </div>
  );
}
