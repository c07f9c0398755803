// The scenario editor: scenario or experiment, seed and one input per
// parameter, all taken from the engine's listScenarios(). Choosing another
// scenario or experiment opens it at once, with its defaults; applying the
// form restarts the engine and rewrites the URL (the parent does both). For
// an experiment the form's main action is "Run comparison": every variant
// run to the end with the form's values. A custom scenario (the editor's)
// shows as one entry; the form then changes only its seed. The guided tours
// are listed too: choosing one opens its experiment with the tour.
import { useId, useState, type ChangeEvent, type FormEvent } from 'react';
import type { ExperimentInfo, ParamInfo, ScenarioList, ScenarioRequest } from '../engine/pkg/reclaim_core';
import { findExperiment, findScenario, paramDefaults, paramProblem } from '../scenario/presets';
import { makeRequest, paramEntries } from '../scenario/params';
import { isCustomName, runLabel } from '../scenario/custom';
import { encodeScenarioUrl } from '../scenario/url';
import { wholeProblem } from '../editor/checks';
import { patchLabel } from '../views/comparison/model';

interface Draft {
  name: string;
  seed: string;
  params: Record<string, string>;
}

function draftOf(request: ScenarioRequest): Draft {
  const params = Object.fromEntries(paramEntries(request).map(([k, v]) => [k, String(v)]));
  return { name: request.name, seed: String(request.seed), params };
}

function seedProblem(text: string): string | null {
  // Empty is no whole number here (the editor's fields say "required").
  return text.trim() === '' ? 'a whole number ≥ 0' : wholeProblem(text);
}

function valueProblem(param: ParamInfo, text: string | undefined): string | null {
  if (text === undefined || text.trim() === '') return 'required';
  return paramProblem(param, Number(text));
}

/** An experiment as the list names it: its title and its patch's subject. */
function experimentLabel(e: Pick<ExperimentInfo, 'title' | 'patch'>): string {
  return `${e.title} — ${patchLabel(e.patch).subject}`;
}

function formatRange(param: ParamInfo): string {
  const fmt = (v: number) => v.toLocaleString('en-US', { maximumFractionDigits: 6 });
  return `${fmt(param.min)} – ${fmt(param.max)}`;
}

export interface ScenarioFormProps {
  scenarios: ScenarioList;
  /** The running request; the form starts from it (re-key the form to reload it). */
  request: ScenarioRequest;
  disabled: boolean;
  onApply(request: ScenarioRequest): void;
  /** Runs an experiment's comparison with the form's values (and applies them). */
  onCompare(request: ScenarioRequest): void;
  /** The guided tours, by the experiment they run; choosing one calls `onTour`. */
  tours?: readonly { experiment: string; title: string }[];
  onTour?(experiment: string): void;
}

/** The picker's value of a tour's entry. */
const TOUR_PREFIX = 'tour:';

const textParams = (values: Record<string, number>) =>
  Object.fromEntries(Object.entries(values).map(([k, v]) => [k, String(v)]));

export function ScenarioForm({ scenarios, request, disabled, onApply, onCompare, tours = [], onTour }: ScenarioFormProps) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(request));
  const [showProblems, setShowProblems] = useState(false);
  const formId = useId();
  const info = findScenario(scenarios, draft.name);
  const experiment = findExperiment(scenarios, draft.name);
  const params = info?.params ?? [];

  const problems = new Map<string, string>();
  const seedError = seedProblem(draft.seed);
  if (seedError) problems.set('seed', seedError);
  for (const p of params) {
    const problem = valueProblem(p, draft.params[p.name]);
    if (problem) problems.set(p.name, problem);
  }

  const build = (): ScenarioRequest =>
    makeRequest(
      draft.name,
      Number(draft.seed.trim()),
      Object.fromEntries(params.map((p) => [p.name, Number(draft.params[p.name])])),
      // The variant is chosen beside the views; the form keeps the running one.
      draft.name === request.name ? request.variant : undefined,
    );
  let dirty = true;
  if (problems.size === 0) {
    try {
      dirty = encodeScenarioUrl(build()) !== encodeScenarioUrl(request);
    } catch {
      dirty = true;
    }
  }

  /**
   * Runs `action` with the form's request, or shows the problems (under
   * each field, and in one line above the buttons, which stay in view) and
   * brings the first field into view with the focus: it may be far down
   * the list, and under the buttons that stick to the foot of the sidebar.
   */
  const validated = (action: (request: ScenarioRequest) => void) => {
    if (problems.size > 0) {
      setShowProblems(true);
      const first = document.getElementById(`${formId}-${[...problems.keys()][0]}`);
      first?.focus({ preventScroll: true });
      first?.scrollIntoView({ block: 'center', behavior: 'auto' });
      return;
    }
    setShowProblems(false);
    action(build());
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    validated(experiment ? onCompare : onApply);
  };

  const setParam = (name: string, text: string) => setDraft((d) => ({ ...d, params: { ...d.params, [name]: text } }));
  const toDefaults = (name: string) => {
    const scenario = findScenario(scenarios, name);
    const defaults = scenario ? paramDefaults(scenario) : {};
    setDraft((d) => ({ ...d, name, params: textParams(defaults) }));
  };
  /** Opens another scenario or experiment at its defaults (keeping the seed typed, when it is one). */
  const open = (name: string) => {
    if (name.startsWith(TOUR_PREFIX)) {
      onTour?.(name.slice(TOUR_PREFIX.length));
      return;
    }
    const scenario = findScenario(scenarios, name);
    const defaults = scenario ? paramDefaults(scenario) : {};
    const seed = seedError ? request.seed : Number(draft.seed.trim());
    setDraft((d) => ({ ...d, name, params: textParams(defaults) }));
    setShowProblems(false);
    onApply(makeRequest(name, seed, defaults));
  };

  const problemOf = (key: string) => (showProblems ? problems.get(key) : undefined);
  // What stops the buttons, next to them: "readers: from 1 to 64".
  const shown = showProblems ? [...problems].map(([key, problem]) => `${key}: ${problem}`) : [];
  const formProblems = shown.length > 0 && (
    <p className="form-problems" role="alert">
      {shown.length === 1 ? `Not run: ${shown[0]}` : `Not run: ${shown.length} values to fix (${shown.join('; ')})`}
    </p>
  );

  return (
    <form className="card scenario-form" onSubmit={submit} noValidate aria-labelledby={`${formId}-title`}>
      <div className="card-header">
        <h2 className="card-title" id={`${formId}-title`}>
          {experiment ? 'Experiment' : 'Scenario'}
        </h2>
      </div>
      {/* The fieldset only disables the fields together while the engine loads: no group of its own. */}
      <fieldset disabled={disabled} role="presentation">
        <div className="field">
          <label htmlFor={`${formId}-scenario`}>Scenario</label>
          {/* The list is narrower than its long titles: the one chosen is whole in its tooltip. */}
          <select
            id={`${formId}-scenario`}
            value={draft.name}
            onChange={(e) => open(e.target.value)}
            title={experiment ? experimentLabel(experiment) : (info?.title ?? draft.name)}
          >
            {!info && <option value={draft.name}>{isCustomName(draft.name) ? `Custom: ${runLabel(draft)}` : draft.name}</option>}
            <optgroup label="Scenarios">
              {scenarios.scenarios.map((s) => (
                <option key={s.name} value={s.name}>
                  {s.title}
                </option>
              ))}
            </optgroup>
            {scenarios.experiments.length > 0 && (
              <optgroup label="Experiments: a kernel patch before and after">
                {scenarios.experiments.map((e) => (
                  <option key={e.name} value={e.name}>
                    {experimentLabel(e)}
                  </option>
                ))}
              </optgroup>
            )}
            {tours.length > 0 && onTour && (
              <optgroup label="Guided tours: one patch, step by step">
                {tours.map((t) => (
                  <option key={t.experiment} value={`${TOUR_PREFIX}${t.experiment}`}>
                    Tour: {t.title}
                  </option>
                ))}
              </optgroup>
            )}
          </select>
        </div>
        <div className={`field${problemOf('seed') ? ' invalid' : ''}`}>
          <label htmlFor={`${formId}-seed`}>Seed</label>
          <div className="input-row">
            <input
              id={`${formId}-seed`}
              name="seed"
              type="number"
              inputMode="numeric"
              min={0}
              step={1}
              value={draft.seed}
              aria-invalid={problemOf('seed') ? true : undefined}
              aria-describedby={`${formId}-seed-hint`}
              onChange={(e) => setDraft((d) => ({ ...d, seed: e.target.value }))}
            />
            <button
              type="button"
              className="button small"
              title="Pick a random seed"
              onClick={() => setDraft((d) => ({ ...d, seed: String(1 + Math.floor(Math.random() * 99_999)) }))}
            >
              Random
            </button>
          </div>
          <p className="hint" id={`${formId}-seed-hint`}>
            {problemOf('seed') ?? 'Same seed, same run.'}
          </p>
        </div>
        {params.map((p) => {
          const problem = problemOf(p.name);
          // What the list and the number field share.
          const control = {
            id: `${formId}-${p.name}`,
            name: p.name,
            'data-param': p.name,
            value: draft.params[p.name] ?? '',
            'aria-invalid': problem ? true : undefined,
            'aria-describedby': `${formId}-${p.name}-hint`,
            onChange: (e: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => setParam(p.name, e.target.value),
          };
          return (
            <div className={`field${problem ? ' invalid' : ''}`} key={p.name}>
              <label htmlFor={`${formId}-${p.name}`} className="mono">
                {p.name}
              </label>
              {p.choices.length > 0 ? (
                // An option, not a quantity: a list of what each value means.
                <select {...control}>
                  {p.choices.map((label, i) => (
                    <option key={label} value={String(p.min + i)}>
                      {p.min + i} · {label}
                    </option>
                  ))}
                </select>
              ) : (
                <input {...control} type="number" min={p.min} max={p.max} step={p.integer ? 1 : 'any'} />
              )}
              <p className="hint" id={`${formId}-${p.name}-hint`}>
                {problem ? <span className="problem">{problem}</span> : p.choices.length === 0 && <span className="range">{formatRange(p)}</span>}
                {p.help && <span className="help">{p.choices.length === 0 || problem ? ' · ' : ''}{p.help}</span>}
              </p>
            </div>
          );
        })}
        {experiment ? (
          <div className="form-actions wrap">
            {formProblems}
            <button
              type="submit"
              className="button primary wide"
              title="Run every variant to the end with these values (and step them)"
            >
              Run comparison
            </button>
            <button
              type="button"
              className="button"
              disabled={!dirty}
              title="Step the variant with these values, without comparing"
              onClick={() => validated(onApply)}
            >
              Apply
            </button>
            <button type="button" className="button" onClick={() => toDefaults(draft.name)}>
              Defaults
            </button>
          </div>
        ) : (
          <div className="form-actions wrap">
            {formProblems}
            <button type="submit" className="button primary" disabled={!dirty}>
              Apply
            </button>
            <button type="button" className="button" onClick={() => toDefaults(draft.name)}>
              Defaults
            </button>
          </div>
        )}
      </fieldset>
    </form>
  );
}
