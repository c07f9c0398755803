// What part of a readable link could not be applied (a bad step, an unknown
// tour, ...): the rest of the link still opened.
import { useState } from 'react';
import { LINK_PART_UNUSED, LinkProblems } from './LinkProblems';

export function PageLinkNotice({ problems }: { problems: string[] }) {
  const [dismissed, setDismissed] = useState(0);
  const shown = problems.slice(dismissed);
  if (shown.length === 0) return null;
  return (
    <div className="banner banner-warning" role="alert" data-testid="page-link-problem">
      <ul>
        <li>
          <LinkProblems heading={LINK_PART_UNUSED} problems={shown} />
          <button type="button" className="link-button" onClick={() => setDismissed(problems.length)} aria-label="Dismiss">
            ✕
          </button>
        </li>
      </ul>
    </div>
  );
}
