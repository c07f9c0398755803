// The trace page's controls: the file (picker or drop), its format, the
// policies to run side by side, the cache size; run and cancel.
import { useId, useState, type DragEvent, type FormEvent } from 'react';
import type { Policy, ReplayOptions } from '../engine/pkg/reclaim_core';
import { formatCount, formatPages } from '../util/format';
import { DEFAULT_CACHE_PAGES, FORMATS, parseCachePages, POLICIES, type FormatChoice } from './model';

export interface TraceFormProps {
  running: boolean;
  onRun(file: File, options: ReplayOptions): void;
  onCancel(): void;
}

/** The sample trace: a seeded zipf stream, small enough to make and replay in a moment. */
export const SAMPLE = { requests: 200_000, pages: 20_000, zipf: 0.9, seed: 1 } as const;
export const SAMPLE_NAME = 'sample-zipf.oracleGeneral.bin';
/** The same trace from the command line. */
export const SAMPLE_COMMAND = `npm run sim -- gen-trace ${SAMPLE_NAME} --requests ${SAMPLE.requests} --pages ${SAMPLE.pages} --zipf ${SAMPLE.zipf} --seed ${SAMPLE.seed}`;

/** Makes the sample with the engine (loaded here on first use; the replay runs in its worker). */
async function makeSample(): Promise<Uint8Array<ArrayBuffer>> {
  const engine = await import('../engine/pkg/reclaim_core');
  await engine.default();
  return new Uint8Array(engine.sampleTrace(SAMPLE.requests, SAMPLE.pages, SAMPLE.zipf, SAMPLE.seed));
}

function formatBytes(bytes: number): string {
  return bytes >= 1 << 20 ? `${(bytes / (1 << 20)).toFixed(1)} MiB` : `${formatCount(Math.ceil(bytes / 1024))} KiB`;
}

export function TraceForm({ running, onRun, onCancel }: TraceFormProps) {
  const id = useId();
  const [file, setFile] = useState<File | null>(null);
  const [format, setFormat] = useState<FormatChoice>('auto');
  const [policies, setPolicies] = useState<Policy[]>(POLICIES.map((p) => p.policy));
  const [cacheText, setCacheText] = useState(String(DEFAULT_CACHE_PAGES));
  const [objectPages, setObjectPages] = useState(false);
  const [dragging, setDragging] = useState(false);
  const cache = parseCachePages(cacheText);
  const cacheError = 'error' in cache ? cache.error : null;
  const cachePages = 'pages' in cache ? cache.pages : 0;
  const problem = !file ? 'Choose a trace file first.' : policies.length === 0 ? 'Choose at least one policy.' : cacheError;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!file || problem || 'error' in cache) return;
    onRun(file, {
      policies: POLICIES.map((p) => p.policy).filter((p) => policies.includes(p)),
      cachePages: cache.pages,
      format: format === 'auto' ? undefined : format,
      name: file.name,
      objectPages,
    });
  };
  const drop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const dropped = event.dataTransfer.files[0];
    if (dropped) setFile(dropped);
  };
  const [sampling, setSampling] = useState(false);
  const [sampleError, setSampleError] = useState<string | null>(null);
  // The sample, made by the engine as `reclaim-sim gen-trace` makes it, with a cache a quarter of its pages.
  const trySample = async () => {
    setSampling(true);
    setSampleError(null);
    try {
      const bytes = await makeSample();
      setFile(new File([bytes], SAMPLE_NAME));
      setFormat('auto');
      setCacheText(String(SAMPLE.pages / 4));
    } catch (error) {
      setSampleError(`The sample could not be made: ${error instanceof Error ? error.message : String(error)}`);
    } finally {
      setSampling(false);
    }
  };
  const toggle = (p: Policy, on: boolean) => setPolicies((ps) => (on ? [...ps.filter((x) => x !== p), p] : ps.filter((x) => x !== p)));

  return (
    <form className="card trace-form" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <div className="card-header">
        <h3 className="card-title" id={`${id}-title`}>
          Trace and cache
        </h3>
      </div>
      <div className="trace-form-body">
        <div
          className={`drop-zone${dragging ? ' dragging' : ''}`}
          data-testid="trace-drop-zone"
          onDragOver={(e) => {
            e.preventDefault();
            setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={drop}
        >
          <p>Drop a trace file here, or</p>
          <label className="button small" htmlFor={`${id}-file`}>
            Choose a file…
          </label>
          <input
            id={`${id}-file`}
            className="visually-hidden"
            type="file"
            data-testid="trace-file-input"
            aria-describedby={`${id}-file-hint`}
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
          />
          <p className="sample-line">
            No trace at hand?{' '}
            <button
              type="button"
              className="link-button"
              data-testid="trace-sample"
              disabled={running || sampling}
              title={`${formatCount(SAMPLE.requests)} zipf-popular requests (s = ${SAMPLE.zipf}) over ${formatCount(SAMPLE.pages)} pages, seed ${SAMPLE.seed}: ${SAMPLE_COMMAND}`}
              onClick={() => void trySample()}
            >
              {sampling ? 'Making the sample…' : 'Try a sample trace'}
            </button>
          </p>
          {sampleError && (
            <p className="form-problems" role="alert">
              {sampleError}
            </p>
          )}
          <p className="hint" id={`${id}-file-hint`} data-testid="trace-file-name">
            {file ? (
              <>
                <span className="mono">{file.name}</span> · {formatBytes(file.size)}
              </>
            ) : (
              'oracleGeneral (.bin, .zst) or CSV / text; read as a stream, up to millions of requests'
            )}
          </p>
        </div>

        <div className="field">
          <label htmlFor={`${id}-format`}>Format</label>
          <select id={`${id}-format`} value={format} onChange={(e) => setFormat(e.target.value as FormatChoice)}>
            {FORMATS.map((f) => (
              <option key={f.value} value={f.value}>
                {f.label}
              </option>
            ))}
          </select>
        </div>

        <fieldset className="trace-policies">
          <legend>Policies, side by side</legend>
          {POLICIES.map((p) => (
            <label key={p.policy} className="check">
              <input
                type="checkbox"
                checked={policies.includes(p.policy)}
                data-testid={`trace-policy-${p.policy}`}
                onChange={(e) => toggle(p.policy, e.target.checked)}
              />
              <span className={`swatch policy-${p.policy}`} aria-hidden="true" />
              <span>
                {p.label} <span className="muted">· {p.kernel ? 'kernel' : 'textbook'}</span>
              </span>
            </label>
          ))}
        </fieldset>

        <div className={`field${cacheError ? ' invalid' : ''}`}>
          <label htmlFor={`${id}-cache`}>Cache size (memory.max, 4 KiB pages)</label>
          <input
            id={`${id}-cache`}
            type="text"
            inputMode="numeric"
            value={cacheText}
            data-testid="trace-cache-pages"
            aria-invalid={cacheError ? true : undefined}
            aria-describedby={`${id}-cache-hint`}
            onChange={(e) => setCacheText(e.target.value)}
          />
          <p className="hint" id={`${id}-cache-hint`}>
            {cacheError ? <span className="problem">{cacheError}</span> : `${formatCount(cachePages)} pages = ${formatPages(cachePages)}`}
          </p>
        </div>

        <label className="check">
          <input type="checkbox" checked={objectPages} onChange={(e) => setObjectPages(e.target.checked)} />
          <span>Objects larger than 4 KiB read all their pages (size column)</span>
        </label>
      </div>
      <div className="form-actions trace-actions">
        <button type="submit" className="button primary" disabled={running || problem !== null} data-testid="trace-run" data-focus-name="trace-run" data-focus-partner="trace-cancel" aria-describedby={problem ? `${id}-problem` : undefined}>
          Replay
        </button>
        <button type="button" className="button" disabled={!running} onClick={onCancel} data-testid="trace-cancel" data-focus-name="trace-cancel" data-focus-partner="trace-run">
          Cancel
        </button>
        {problem && (
          <span className="hint" id={`${id}-problem`}>
            {problem}
          </span>
        )}
      </div>
    </form>
  );
}
