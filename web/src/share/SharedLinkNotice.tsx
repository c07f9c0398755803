// The message shown when a shared link cannot be opened (the page runs the
// default scenario instead): what is wrong with it, in the codec's words.
import { useState } from 'react';
import type { SharedLink } from '../scenario/share';

export function SharedLinkNotice({ link }: { link: SharedLink }) {
  const [dismissed, setDismissed] = useState(false);
  if (link.kind !== 'error' || dismissed) return null;
  return (
    <div className="banner banner-warning" role="alert" data-testid="link-problem">
      <ul>
        <li>
          <span>
            <strong>This shared link cannot be opened</strong> — {link.problem}. Opening the default scenario instead.
          </span>
          <button type="button" className="link-button" onClick={() => setDismissed(true)} aria-label="Dismiss">
            ✕
          </button>
        </li>
      </ul>
    </div>
  );
}
