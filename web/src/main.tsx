import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { decodeSharedLink, type SharedLink } from './scenario/share';
import { PAGE_KEYS, encodeScenarioUrl } from './scenario/url';
import { decodePageView, hasPageKeys, readHash } from './scenario/pageUrl';
import { repairAddress } from './scenario/repair';
import type { PageLink } from './share/usePageLink';
import { applyTheme, storedTheme } from './theme/theme';
import { MAX_ADDRESS_CHARS, replaceAddressHash, replaceAddressQuery, setStartingQuery } from './share/address';
import './styles.css';
import { installFocusRescue } from './util/focus';

// The theme first, so the page never flashes in the other one.
applyTheme(storedTheme());

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');
const root = createRoot(container);
installFocusRescue(container);

/**
 * A shared link (?v=2&s=...) is read before the app starts: its run goes in
 * the address bar as a plain v=1 URL, which the session opens as usual, and
 * the app brings back the rest (step, tab, selection). A link that cannot be
 * read leaves an empty query string: the default scenario, and the message.
 */
async function openSharedLink(): Promise<SharedLink> {
  const link = await decodeSharedLink(window.location.search);
  if (link.kind === 'none') return link;
  let query = '';
  let opened: SharedLink = link;
  if (link.kind === 'ok') {
    try {
      query = encodeScenarioUrl(link.view.request);
    } catch (error) {
      opened = { kind: 'error', problem: error instanceof Error ? error.message : String(error) };
    }
  }
  // A run too long for the readable form (a large custom scenario) keeps the compact link in the address bar.
  if (query.length > MAX_ADDRESS_CHARS) setStartingQuery(query);
  else replaceAddressQuery(query);
  return opened;
}

/**
 * A readable link's page keys (?v=1&scenario=...&step=105&tab=system, or
 * &tour=...&tourStep=3): read before the app starts, applied once its run
 * is up (share/usePageLink.ts). The run keys are useSimulation's to read.
 */
function readPageLink(search: string): PageLink | null {
  if (!hasPageKeys(search)) return null;
  const query = new URLSearchParams(search);
  const run = [...query].filter(([key]) => key !== 'v' && !(PAGE_KEYS as readonly string[]).includes(key));
  return { ...decodePageView(search), scenario: query.get('scenario'), run };
}

/** The URL's hash: a link's keys put after "#" are moved to the query first; another unknown hash goes. */
function readAddressHash(): string | null {
  const { pathname, search: query, hash } = window.location;
  const reading = readHash(hash, query);
  if (reading.query !== undefined) window.history.replaceState(window.history.state, '', `${pathname}${reading.query}`);
  else if (reading.drop) replaceAddressHash('');
  return reading.message;
}

/**
 * A link mangled on its way (percent-encoded again, "&amp;", a ")" at its
 * end) is repaired in the address bar before anything reads it; the notes
 * say what was undone.
 */
function repairLink(): string[] {
  const { pathname, search: query, hash } = window.location;
  const repaired = repairAddress(pathname, query);
  if (repaired.notes.length > 0) window.history.replaceState(window.history.state, '', `${repaired.pathname}${repaired.search}${hash}`);
  return repaired.notes;
}

const repairNotes = repairLink();
const hashNote = readAddressHash();
const linkNotes = [...repairNotes, ...(hashNote ? [hashNote] : [])];
const search = window.location.search;
void openSharedLink().then(
  (shared) =>
    root.render(
      <StrictMode>
        <App shared={shared} page={shared.kind === 'none' ? readPageLink(search) : null} linkNotes={linkNotes} />
      </StrictMode>,
    ),
  (error: unknown) => {
    console.error('reading the shared link failed', error);
    root.render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  },
);
