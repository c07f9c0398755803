// What part of a readable link could not be applied (a bad step, an unknown
// tour, ...): the rest of the link still opened.
import { useState } from 'react';

export function PageLinkNotice({ problems }: { problems: string[] }) {
  const [dismissed, setDismissed] = useState(0);
  const shown = problems.slice(dismissed);
  if (shown.length === 0) return null;
  return (
    <div className="banner banner-warning" role="alert" data-testid="page-link-problem">
      <ul>
        <li>
          <span>
            <strong>Part of this link was not used as written</strong> — {shown.join('; ')}.
          </span>
          <button type="button" className="link-button" onClick={() => setDismissed(problems.length)} aria-label="Dismiss">
            ✕
          </button>
        </li>
      </ul>
    </div>
  );
}
