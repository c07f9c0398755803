// The trace replay page: a trace file through the engine under the chosen
// policies side by side (docs/trace-replay.md).
import { useEffect, useRef, useState } from 'react';
import { TraceForm } from './TraceForm';
import { MissRatioChart, ReplayProgressBar, ResultsTable } from './TraceResults';
import { useTraceReplay } from './useTraceReplay';

export function TracePage({ onClose }: { onClose(): void }) {
  const { state, start, cancel } = useTraceReplay();
  // Loaded after the dialog opened (its own chunk): the dialog itself had the focus; the first control takes it,
  // as it does when the dialog opens again.
  const closeRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const close = closeRef.current;
    if (close && document.activeElement === close.closest('dialog')) close.focus();
  }, []);
  const [cachePages, setCachePages] = useState(0);
  const progress = state.phase === 'done' ? state.report : state.phase === 'idle' ? null : state.progress;
  return (
    <div className="trace-page">
      <header className="trace-head">
        <div>
          <h2 id="trace-title">Trace replay</h2>
          <p className="muted">
            Each request reads one 4 KiB page of a file through the page cache of a memcg limited to the cache size: the engine's own
            reclaim path under MGLRU, the classic LRU, or a textbook policy.
          </p>
        </div>
        <button ref={closeRef} type="button" className="button" onClick={onClose} data-testid="trace-close">
          Close
        </button>
      </header>
      <div className="trace-grid">
        <TraceForm
          running={state.phase === 'running'}
          onRun={(file, options) => {
            setCachePages(options.cachePages);
            start(file, options);
          }}
          onCancel={cancel}
        />
        <div className="trace-results" aria-live="polite">
          {state.phase === 'idle' && <p className="placeholder card">Choose a trace, the policies and a cache size, then Replay.</p>}
          {state.phase === 'running' && <ReplayProgressBar bytesRead={state.bytesRead} totalBytes={state.totalBytes} requests={state.progress?.trace.requests ?? 0} />}
          {state.phase === 'failed' && (
            <p className="trace-error" role="alert" data-testid="trace-error">
              <strong>{state.file}</strong> could not be replayed: {state.message}
            </p>
          )}
          {state.phase === 'cancelled' && <p className="hint">Cancelled; the figures below are up to where it stopped.</p>}
          {progress && progress.results.length > 0 && <MissRatioChart results={progress.results} />}
          {progress && progress.results.length > 0 && (
            <ResultsTable results={progress.results} trace={progress.trace} cachePages={cachePages} seconds={state.phase === 'done' ? state.seconds : undefined} />
          )}
        </div>
      </div>
    </div>
  );
}
