// The scenario editor: a custom scenario's machine, memcgs, workloads,
// switches, seed and duration, started from the running custom scenario
// (or, for a built-in one, from a template), run in the page's engine.
// Every input is checked as it changes: the page checks the text (numbers,
// required values), the engine checks the document (validateScenario), and
// each message is shown next to the input of the field it names. Scenario
// files (.json, the format `reclaim-sim run FILE.json` reads) load and save
// here; a broken file is reported and leaves the editor as it was.
import { useEffect, useId, useMemo, useRef, useState, type ChangeEvent, type FormEvent } from 'react';
import type { ScenarioRequest } from '../engine/pkg/reclaim_core';
import { download } from '../export/figure';
import { customDocument, customRequest } from '../scenario/custom';
import { FORM_KEY, draftProblems, inEditorUnits, messagesByPlace, placeField, placesOf, sizeProblem, type Problem } from './checks';
import { engineCheck } from './engineCheck';
import { Fields, keyId, type FieldContext } from './fields';
import { MAX_FILE_BYTES, readScenarioFile, scenarioFileName, scenarioFileText } from './file';
import { docOf, draftOf } from './draft';
import { templateDoc, type Draft, type ScenarioDoc } from './model';
import { MachineSection, RunSection, SwitchesSection, type Update } from './sections';
import { MemcgsSection, WorkloadsSection } from './tasks';
import './editor.css';

/** Wait after the last change before asking the engine. */
const CHECK_DELAY_MS = 150;

/** The document to start from: the running custom scenario's, else the template. */
export function startingDoc(request: ScenarioRequest): ScenarioDoc {
  const doc = customDocument(request);
  return doc ? ({ ...doc, seed: request.seed } as unknown as ScenarioDoc) : templateDoc(request.seed);
}

type Status = { kind: 'info' | 'error'; message: string } | null;

export interface ScenarioEditorProps {
  /** The running request: the editor starts from it. */
  request: ScenarioRequest;
  disabled: boolean;
  /** Runs a custom scenario's request in the page's engine. */
  onRun(request: ScenarioRequest): void;
}

export function ScenarioEditor({ request, disabled, onRun }: ScenarioEditorProps) {
  const id = useId();
  const [draft, setDraft] = useState<Draft>(() => draftOf(startingDoc(request)));
  const [engine, setEngine] = useState<{ json: string; problems: Problem[] } | null>(null);
  const [status, setStatus] = useState<Status>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const statusRef = useRef<HTMLParagraphElement>(null);
  // A new message is brought into view (the sidebar may be scrolled past it).
  useEffect(() => {
    if (status) statusRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [status]);
  const update: Update = (change) => setDraft((d) => change(d));

  const local = useMemo(() => draftProblems(draft), [draft]);
  const json = useMemo(() => (local.length === 0 ? JSON.stringify(docOf(draft)) : null), [draft, local]);
  const size = json === null ? null : sizeProblem(json);

  // The engine's check of the document, once the page's checks pass.
  useEffect(() => {
    if (json === null) return;
    let current = true;
    const timer = setTimeout(() => {
      engineCheck(json).then(
        (check) => current && setEngine({ json, problems: check.problems }),
        (error: unknown) =>
          current && setEngine({ json, problems: [{ field: FORM_KEY, message: `the engine could not check it: ${error instanceof Error ? error.message : String(error)}` }] }),
      );
    }, CHECK_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [json]);

  const places = useMemo(() => placesOf(draft), [draft]);
  // The engine's marks, in the editor's units. While a field has a problem of
  // the page's own (there is no document to check), the last check's marks
  // stay on the other fields.
  const localPlaces = new Set(local.map((p) => placeField(p.field, places)));
  const engineProblems = (engine && (json === null || engine.json === json) ? engine.problems : [])
    .filter((p) => json !== null || !localPlaces.has(placeField(p.field, places)))
    .map(inEditorUnits);
  const problems: Problem[] = [...local, ...(size ? [size] : []), ...engineProblems];
  const messages = messagesByPlace(problems, places);
  const checked = json !== null && engine?.json === json;

  const fields: FieldContext = {
    inputId: (key) => keyId(`${id}-in`, key),
    messageId: (key) => keyId(`${id}-msg`, key),
    message: (key) => messages.get(key),
    disabled,
  };

  /** Moves the focus to the first problem's input (or group). */
  const focusFirst = (list: readonly Problem[]) => {
    const first = list[0];
    if (!first) return;
    const place = placeField(first.field, places);
    const target = document.getElementById(fields.inputId(place)) ?? document.getElementById(fields.messageId(place));
    target?.focus();
  };

  const run = async (event: FormEvent) => {
    event.preventDefault();
    if (json === null || size) {
      setStatus({ kind: 'error', message: 'Fix the fields marked below first.' });
      focusFirst(problems);
      return;
    }
    const check = checked ? { problems: engineProblems } : await engineCheck(json).catch(() => ({ problems: [] as Problem[] }));
    if (check.problems.length > 0) {
      setEngine({ json, problems: check.problems });
      setStatus({ kind: 'error', message: 'The engine cannot run this scenario: see the fields marked below.' });
      focusFirst(check.problems);
      return;
    }
    const doc = docOf(draft);
    setStatus({ kind: 'info', message: `Running ${doc.name} (seed ${doc.seed}).` });
    onRun(customRequest(doc, doc.seed));
  };

  const save = () => {
    if (json === null) {
      setStatus({ kind: 'error', message: 'Fix the fields marked below before saving.' });
      focusFirst(local);
      return;
    }
    const doc = docOf(draft);
    download(new Blob([scenarioFileText(doc)], { type: 'application/json' }), scenarioFileName(doc));
    setStatus({ kind: 'info', message: `Saved ${scenarioFileName(doc)}.` });
  };

  const load = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (file.size > MAX_FILE_BYTES) {
      setStatus({ kind: 'error', message: `${file.name} is not a scenario file: it is larger than ${MAX_FILE_BYTES / 1024} KiB.` });
      return;
    }
    const read = await readScenarioFile(file.name, await file.text(), engineCheck);
    if (!read.ok) {
      setStatus({ kind: 'error', message: read.message });
      return;
    }
    setDraft(draftOf(read.doc));
    const n = read.problems.length;
    setStatus({
      kind: n > 0 ? 'error' : 'info',
      message: n > 0 ? `Loaded ${file.name}: ${n} problem${n === 1 ? '' : 's'}, marked below.` : `Loaded ${file.name}. Run it with Run scenario.`,
    });
  };

  const formMessage = messages.get(FORM_KEY);
  return (
    <Fields.Provider value={fields}>
      <form className="scenario-editor" onSubmit={(e) => void run(e)} noValidate aria-labelledby={`${id}-title`}>
        <div className="editor-files">
          <button type="button" className="button small" disabled={disabled} onClick={() => fileRef.current?.click()}>
            Load scenario file…
          </button>
          <input
            ref={fileRef}
            type="file"
            accept=".json,application/json"
            hidden
            aria-label="Scenario file to load"
            data-testid="scenario-file"
            onChange={(e) => void load(e)}
          />
          <button type="button" className="button small" onClick={save}>
            Save scenario file
          </button>
        </div>
        <p ref={statusRef} className={`editor-status${status?.kind === 'error' ? ' error' : ''}`} role="status" data-testid="editor-status">
          {status?.message}
        </p>
        <p className="group-message form-message" id={fields.messageId(FORM_KEY)} data-testid="editor-form-message">
          {formMessage && <span className="problem">{formMessage}</span>}
        </p>
        <h3 className="visually-hidden" id={`${id}-title`}>
          Custom scenario editor
        </h3>
        <RunSection draft={draft} update={update} />
        <MachineSection draft={draft} update={update} />
        <MemcgsSection draft={draft} update={update} />
        <WorkloadsSection draft={draft} update={update} />
        <SwitchesSection knobs={draft.knobs} update={update} />
        {draft.base.proactive && draft.base.proactive.length > 0 && (
          <p className="hint">
            {draft.base.proactive.length} memory.reclaim writer{draft.base.proactive.length === 1 ? '' : 's'} kept from the file (not editable here).
          </p>
        )}
        <div className="form-actions">
          <button type="submit" className="button primary" disabled={disabled}>
            Run scenario
          </button>
          <span className="editor-check muted" aria-live="polite">
            {problems.length > 0 ? `${problems.length} problem${problems.length === 1 ? '' : 's'}` : checked ? 'Checked by the engine' : ''}
          </span>
        </div>
      </form>
    </Fields.Provider>
  );
}
