// The selected tracked page: where its folio is now and the decisions the
// engine recorded about it (Engine.history), newest first.
import { useId, useMemo } from 'react';
import type { FolioHistory as History, TrackedFolioView } from '../../engine/pkg/reclaim_core';
import { formatCount, formatMs } from '../../util/format';
import { folioStateText, historyRows } from './model';

export interface FolioHistoryProps {
  page: string;
  /** The page in the current frame (undefined when the scenario does not track it). */
  folio: TrackedFolioView | undefined;
  /** Whether the page's lruvec runs MGLRU. */
  lruGen: boolean;
  /** The page's history as of the shown step (null while it loads). */
  history: History | null;
  /** The step the history was read at (null while it loads). */
  historyStep: number | null;
  /** Why the history could not be read, if it could not. */
  error: string | null;
  onClose(): void;
}

export function FolioHistory({ page, folio, lruGen, history, historyStep, error, onClose }: FolioHistoryProps) {
  const headingId = useId();
  const rows = useMemo(() => historyRows(history), [history]);
  const state = folio?.state ?? 'untracked';
  return (
    <section
      className="card folio-history"
      aria-labelledby={headingId}
      data-page={page}
      data-history-step={historyStep ?? undefined}
    >
      <div className="card-header">
        <h2 className="card-title" id={headingId}>
          Folio history
        </h2>
        <button type="button" className="link-button close" aria-label="Close folio history" onClick={onClose}>
          ✕
        </button>
      </div>
      <div className="folio-facts">
        <code className={`folio-page kind-${folio?.kind ?? 'none'}`} data-testid="folio-page">
          {page}
        </code>
        <span className={`folio-state state-${state}`} data-testid="folio-state">
          {folioStateText(folio, lruGen)}
        </span>
        {folio && <span className="muted mono folio-memcg">{folio.memcg}</span>}
      </div>
      {error ? (
        <p className="empty" role="alert">
          The history could not be read: {error}
        </p>
      ) : rows.length === 0 ? (
        <p className="empty">{history ? 'No decisions about this folio yet.' : 'Loading…'}</p>
      ) : (
        <ol className="history-list" aria-label={`Decisions about ${page}, newest first`}>
          {rows.map((r) => (
            <li key={r.key} className="history-row" data-function={r.function}>
              <span className="history-step" title={formatMs(r.timeNs)}>
                step {formatCount(r.step)}
              </span>
              <code className="history-function">{r.function}</code>
              <span className="history-reason">{r.reason}</span>
            </li>
          ))}
        </ol>
      )}
      <p className="card-footnote">Newest first; the engine keeps the most recent decisions about each tracked folio.</p>
    </section>
  );
}
