// The scenario's heading texts: the patch an experiment reproduces, and the description.
import { useState, type ReactNode } from 'react';
import { patchLabel } from './views/comparison/model';

/** The patch an experiment reproduces: its subject, author and file. */
export function PatchLine({ patch, open = false }: { patch: string; open?: boolean }) {
  const { file, subject, byline } = patchLabel(patch);
  return (
    <p className={`scenario-patch${open ? ' open' : ''}`} id="scenario-patch" data-testid="experiment-patch" title={[subject, byline && `(${byline})`, file].filter(Boolean).join(' ')}>
      <span className="patch-kicker">Patch</span> {subject}
      {byline && <span className="muted"> ({byline})</span>}
      {file && <span className="patch-file mono"> {file}</span>}
    </p>
  );
}

/** A description's `backticked` names (the engine writes them for the docs) as code, not as backticks. */
export function withCode(text: string): ReactNode[] {
  const parts = text.split('`');
  // An unpaired backtick: the text as it is.
  if (parts.length % 2 === 0) return [text];
  return parts.map((part, i) => (i % 2 === 1 ? <code key={i}>{part}</code> : part));
}

/**
 * The patch line (for an experiment) and the description: one line each, or
 * two for the description, until the reader asks for all of both with More.
 */
export function ScenarioAbout({ patch, text }: { patch?: string; text: string }) {
  const [open, setOpen] = useState(false);
  const long = text.length > 200 || (patch !== undefined && patch.length > 80);
  return (
    <>
      {patch !== undefined && <PatchLine patch={patch} open={open} />}
      <ScenarioDescription text={text} open={open} long={long} controls={patch !== undefined ? 'scenario-patch scenario-description' : 'scenario-description'} onToggle={() => setOpen((o) => !o)} />
    </>
  );
}

function ScenarioDescription(props: { text: string; open: boolean; long: boolean; controls: string; onToggle: () => void }) {
  const { text, open, long, controls, onToggle } = props;
  return (
    <div className="scenario-about">
      <p className={`scenario-description${long && !open ? ' clamped' : ''}`} id="scenario-description">
        {withCode(text)}
      </p>
      {long && (
        <button
          type="button"
          className="link-button"
          aria-expanded={open}
          aria-controls={controls}
          onClick={onToggle}
        >
          {open ? 'Less' : 'More'}
        </button>
      )}
    </div>
  );
}
