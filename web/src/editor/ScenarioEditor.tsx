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
import { counted } from '../util/format';

/** Wait after the last change before asking the engine. */
const CHECK_DELAY_MS = 150;

/** The document to start from: the running custom scenario's, else the template. */
export function startingDoc(request: ScenarioRequest): ScenarioDoc {
  const doc = customDocument(request);
  return doc ? ({ ...doc, seed: request.seed } as unknown as ScenarioDoc) : templateDoc(request.seed);
}

/** The message at the top; `focus`: the place (checks.ts) to bring into view and focus with it. */
type Status = { kind: 'info' | 'error'; message: string; focus?: string } | null;

/**
 * What a place of the editor is called on screen: the legends of its groups
 * and its input's label ("Workloads › reader › Size (pages)"); "" for the form.
 */
function nameOf(element: HTMLElement): string {
  const parts: string[] = [];
  for (let group = element.closest('fieldset'); group; group = group.parentElement?.closest('fieldset') ?? null) {
    const legend = group.querySelector(':scope > legend')?.textContent?.trim();
    if (legend) parts.unshift(legend);
  }
  const label = element instanceof HTMLInputElement || element instanceof HTMLSelectElement ? element.labels?.[0]?.textContent?.trim() : undefined;
  if (label) parts.push(label);
  return parts.join(' › ');
}

export interface ScenarioEditorProps {
  /** The running request: the editor starts from it. */
  request: ScenarioRequest;
  disabled: boolean;
  /** Runs a custom scenario's request in the page's engine. */
  onRun(request: ScenarioRequest): void;
  /** A custom scenario the engine refused to run (a link's): the form opens on it instead, its problems marked. */
  rejected?: ScenarioRequest | null;
  /** `rejected` is in the form now. */
  onRejectedOpened?(): void;
}

export function ScenarioEditor({ request, disabled, onRun, rejected, onRejectedOpened }: ScenarioEditorProps) {
  const id = useId();
  const [draft, setDraft] = useState<Draft>(() => draftOf(startingDoc(request)));
  const [engine, setEngine] = useState<{ json: string; problems: Problem[]; notes: Problem[] } | null>(null);
  const [status, setStatus] = useState<Status>(null);
  const fileRef = useRef<HTMLInputElement>(null);
  const statusRef = useRef<HTMLParagraphElement>(null);
  // A new message is brought into view (the sidebar may be scrolled past it);
  // one about a field brings that field into view instead, with its own
  // message under it, clear of the sticky Run bar (scroll-margin, editor.css),
  // and focuses it.
  useEffect(() => {
    if (!status) return;
    const target = status.focus === undefined ? null : placeElement(status.focus);
    if (!target) {
      statusRef.current?.scrollIntoView?.({ block: 'nearest' });
      return;
    }
    (target.closest('.field') ?? target).scrollIntoView?.({ block: 'nearest' });
    target.focus({ preventScroll: true });
    // eslint-disable-next-line react-hooks/exhaustive-deps -- only a new message moves the view
  }, [status]);
  // An edit answers the last refusal: its message goes (the fields keep their own marks, live).
  const update: Update = (change) => {
    setDraft((d) => change(d));
    setStatus((s) => (s?.kind === 'error' ? null : s));
  };

  const local = useMemo(() => draftProblems(draft), [draft]);
  const json = useMemo(() => (local.length === 0 ? JSON.stringify(docOf(draft)) : null), [draft, local]);
  const size = json === null ? null : sizeProblem(json);

  // The engine's check of the document, once the page's checks pass.
  useEffect(() => {
    if (json === null) return;
    let current = true;
    const timer = setTimeout(() => {
      engineCheck(json).then(
        (check) => current && setEngine({ json, problems: check.problems, notes: check.notes }),
        (error: unknown) =>
          current && setEngine({ json, problems: [{ field: FORM_KEY, message: `the engine could not check it: ${error instanceof Error ? error.message : String(error)}` }], notes: [] }),
      );
    }, CHECK_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [json]);

  // The last document the page's checks passed: while a field has a problem of its own, the engine's marks are
  // those of its check, or none if it was not checked (an edit since made another document).
  const [lastDocument, setLastDocument] = useState<string | null>(json);
  useEffect(() => {
    if (json !== null) setLastDocument(json);
  }, [json]);

  const places = useMemo(() => placesOf(draft), [draft]);
  // The engine's marks, in the editor's units. While a field has a problem of
  // the page's own (there is no document to check), the last check's marks
  // stay on the other fields, if the check was of the last document: not
  // those of an earlier one (a path set to "box" and back to "/box", then a
  // field cleared before the check of "/box").
  const localPlaces = new Set(local.map((p) => placeField(p.field, places)));
  const engineProblems = (engine && engine.json === (json ?? lastDocument) ? engine.problems : [])
    .filter((p) => json !== null || !localPlaces.has(placeField(p.field, places)))
    .map(inEditorUnits);
  const problems: Problem[] = [...local, ...(size ? [size] : []), ...engineProblems];
  const messages = messagesByPlace(problems, places);
  const checked = json !== null && engine?.json === json;
  // Likely slips the engine runs as written (memory.low above memory.max): beside their fields, never refused.
  const engineNotes = checked && engine ? engine.notes : [];
  const notes = messagesByPlace(engineNotes.map(inEditorUnits), places);

  const fields: FieldContext = {
    inputId: (key) => keyId(`${id}-in`, key),
    messageId: (key) => keyId(`${id}-msg`, key),
    message: (key) => messages.get(key),
    note: (key) => notes.get(key),
    disabled,
  };

  /** The element of a place: its input, else its message (a group's, the form's). */
  function placeElement(place: string): HTMLElement | null {
    return document.getElementById(fields.inputId(place)) ?? document.getElementById(fields.messageId(place));
  }

  /**
   * The message about problems that stop a run or a save: `lead`, then the
   * first problem in the editor's order (top to bottom), named as the editor
   * shows it; its field is brought into view and focused.
   */
  const refuse = (lead: string, list: readonly Problem[]) => {
    let first: { problem: Problem; place: string; element: HTMLElement | null } | null = null;
    for (const problem of list) {
      const place = placeField(problem.field, places);
      const element = placeElement(place);
      if (!first || (element && (!first.element || first.element.compareDocumentPosition(element) & Node.DOCUMENT_POSITION_PRECEDING))) {
        first = { problem, place, element };
      }
    }
    if (!first) {
      setStatus({ kind: 'error', message: lead });
      return;
    }
    const { problem, place, element } = first;
    const where = element ? nameOf(element) : '';
    const what = place === problem.field || place === FORM_KEY ? problem.message : `${problem.field}: ${problem.message}`;
    const more = list.length > 1 ? ` (${list.length - 1} more marked)` : '';
    setStatus({ kind: 'error', message: `${lead} ${where ? `${where}: ` : ''}${what}${more}`, focus: place });
  };

  const run = async (event: FormEvent) => {
    event.preventDefault();
    if (json === null || size) {
      refuse('Fix the marked fields first.', problems);
      return;
    }
    // The engine's problems (in the editor's units): those of the last check, else a new check's.
    const check = checked ? null : await engineCheck(json).catch(() => ({ problems: [] as Problem[], notes: [] as Problem[] }));
    const found = check ? check.problems : engineProblems;
    if (found.length > 0) {
      if (check) setEngine({ json, problems: found, notes: check.notes });
      refuse('The engine cannot run this scenario.', checked ? found : found.map(inEditorUnits));
      return;
    }
    const doc = docOf(draft);
    setStatus({ kind: 'info', message: `Running ${doc.name} (seed ${doc.seed}).` });
    onRun(customRequest(doc, doc.seed));
  };

  const save = () => {
    if (json === null) {
      refuse('Fix the marked fields before saving.', local);
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
      setStatus({ kind: 'error', message: `${file.name} cannot be opened: it is larger than ${MAX_FILE_BYTES / 1024} KiB.` });
      return;
    }
    await openDocument(file.name, await file.text(), (n) => (n > 0 ? `Loaded ${file.name}: ${counted(n, 'problem')}, marked below.` : `Loaded ${file.name}. Run it with Run scenario.`));
  };

  /** A scenario document from outside (a file, a link the engine refused) into the form, its problems marked. */
  const openDocument = async (what: string, text: string, said: (problems: number) => string) => {
    const read = await readScenarioFile(what, text, engineCheck);
    if (!read.ok) {
      setStatus({ kind: 'error', message: read.message });
      return;
    }
    const next = draftOf(read.doc);
    setDraft(next);
    // The last engine check was of the document before: its marks do not belong to this one.
    setEngine(null);
    // The page's own checks count too (the engine takes an empty workload name, the editor does not).
    const own = draftProblems(next);
    const n = own.length + read.problems.filter((p) => !own.some((o) => o.field === p.field)).length;
    setStatus({ kind: n > 0 ? 'error' : 'info', message: said(n) });
  };

  // A link's scenario the engine refused: the form opens on it, its problems marked.
  const rejectedText = rejected?.name;
  useEffect(() => {
    if (rejectedText === undefined) return;
    onRejectedOpened?.();
    void openDocument("The link's scenario", rejectedText, (n) =>
      n > 0 ? `The link's scenario did not run: ${counted(n, 'problem')}, marked below. Fix them and press Run scenario.` : "The link's scenario is in the form. Run it with Run scenario.",
    );
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per refused link
  }, [rejectedText]);

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
        <p className="group-message form-message" id={fields.messageId(FORM_KEY)} tabIndex={-1} data-testid="editor-form-message">
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
            {counted(draft.base.proactive.length, 'memory.reclaim writer')} kept from the file (not editable here).
          </p>
        )}
        <div className="form-actions">
          <button type="submit" className="button primary" disabled={disabled}>
            Run scenario
          </button>
          <span className="editor-check muted" aria-live="polite">
            {problems.length > 0
              ? counted(problems.length, 'problem')
              : checked
                ? `Checked by the engine${engineNotes.length > 0 ? `: ${counted(engineNotes.length, 'note')}` : ''}`
                : ''}
          </span>
        </div>
      </form>
    </Fields.Provider>
  );
}
