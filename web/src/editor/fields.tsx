// The editor's inputs. Each has a key (its field's path in the scenario
// document, checks.ts); its message, when there is one, is the hint below
// it, which the input names with aria-describedby and marks aria-invalid.
import { createContext, useContext, type ReactNode } from 'react';

/** What every field needs from its editor: ids and messages by key. */
export interface FieldContext {
  /** The element id of a key's input ("" : the form). */
  inputId(key: string): string;
  /** The element id of a key's message. */
  messageId(key: string): string;
  /** The message shown for a key now (undefined: none). */
  message(key: string): string | undefined;
  /** The engine's note on a key (a likely slip that still runs: Scenario::notes), shown when it has no message. */
  note(key: string): string | undefined;
  disabled: boolean;
}

export const Fields = createContext<FieldContext | null>(null);

export function useFields(): FieldContext {
  const fields = useContext(Fields);
  if (!fields) throw new Error('editor fields outside their editor');
  return fields;
}

/** An element id for a key: paths hold "[", "]" and "." that ids are better without. */
export function keyId(prefix: string, key: string): string {
  return `${prefix}-${key.replace(/\[(\d+)\]/g, '-$1').replace(/\./g, '-') || 'form'}`;
}

interface FieldProps {
  field: string;
  label: string;
  value: string;
  onChange(value: string): void;
  /** Shown when there is no message (units, what empty means). */
  hint?: string;
  placeholder?: string;
  inputMode?: 'numeric' | 'decimal' | 'text';
  className?: string;
}

/** The hint below an input: its message when it has one, else the engine's note on it, else `hint`. */
function Hint({ field, hint }: { field: string; hint?: string }) {
  const f = useFields();
  const message = f.message(field);
  const note = message ? undefined : f.note(field);
  if (!message && !note && !hint) return <p className="hint" id={f.messageId(field)} />;
  return (
    <p className="hint" id={f.messageId(field)}>
      {message ? <span className="problem">{message}</span> : note ? <span className="note">Note: {note}</span> : hint}
    </p>
  );
}

/** A text input (numbers are typed as text, so that what was typed stays, with its message). */
export function TextField({ field, label, value, onChange, hint, placeholder, inputMode = 'numeric', className }: FieldProps) {
  const f = useFields();
  const invalid = f.message(field) !== undefined;
  return (
    <div className={`field${invalid ? ' invalid' : ''}${className ? ` ${className}` : ''}`}>
      <label htmlFor={f.inputId(field)}>{label}</label>
      <input
        id={f.inputId(field)}
        type="text"
        inputMode={inputMode}
        data-field={field}
        value={value}
        placeholder={placeholder}
        spellCheck={false}
        autoComplete="off"
        disabled={f.disabled}
        aria-invalid={invalid || undefined}
        aria-describedby={f.messageId(field)}
        onChange={(e) => onChange(e.target.value)}
      />
      <Hint field={field} hint={hint} />
    </div>
  );
}

interface SelectFieldProps<T extends string> {
  field: string;
  label: string;
  value: T;
  options: readonly { value: T; label: string }[];
  onChange(value: T): void;
  hint?: string;
  className?: string;
}

export function SelectField<T extends string>({ field, label, value, options, onChange, hint, className }: SelectFieldProps<T>) {
  const f = useFields();
  const invalid = f.message(field) !== undefined;
  const known = options.some((o) => o.value === value);
  return (
    <div className={`field${invalid ? ' invalid' : ''}${className ? ` ${className}` : ''}`}>
      <label htmlFor={f.inputId(field)}>{label}</label>
      <select
        id={f.inputId(field)}
        data-field={field}
        value={value}
        disabled={f.disabled}
        aria-invalid={invalid || undefined}
        aria-describedby={f.messageId(field)}
        onChange={(e) => onChange(e.target.value as T)}
      >
        {!known && <option value={value}>{value}</option>}
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
      <Hint field={field} hint={hint} />
    </div>
  );
}

export function CheckField({ field, label, checked, onChange, hint }: { field: string; label: string; checked: boolean; onChange(v: boolean): void; hint?: string }) {
  const f = useFields();
  return (
    <div className="field check-field">
      <label htmlFor={f.inputId(field)}>
        <input
          id={f.inputId(field)}
          type="checkbox"
          data-field={field}
          checked={checked}
          disabled={f.disabled}
          aria-describedby={f.messageId(field)}
          onChange={(e) => onChange(e.target.checked)}
        />
        <span className="mono">{label}</span>
      </label>
      <Hint field={field} hint={hint} />
    </div>
  );
}

/**
 * A group of inputs (a node, a memcg, a workload, a section) with a place
 * for messages about the group itself ("workloads: a scenario needs at
 * least one workload"), read out with the group's name.
 */
export function Group({ field, legend, actions, children, className }: { field: string; legend: ReactNode; actions?: ReactNode; children: ReactNode; className?: string }) {
  const f = useFields();
  const message = f.message(field);
  return (
    <fieldset className={`editor-group${message ? ' invalid' : ''}${className ? ` ${className}` : ''}`} aria-describedby={f.messageId(field)} aria-invalid={message ? true : undefined}>
      <legend>{legend}</legend>
      {actions && <div className="group-actions">{actions}</div>}
      {/* Focusable (not in the tab order): a refused run brings the focus here. */}
      <p className="group-message" id={f.messageId(field)} tabIndex={-1}>
        {message && <span className="problem">{message}</span>}
      </p>
      {children}
    </fieldset>
  );
}
