// Links as mail clients, chat programs and web archives hand them on: the
// query percent-encoded once or twice (or the whole "?..." folded into the
// path), its "&" escaped as "&amp;", a ")" or ">" or "." stuck to its end.
// Each is undone before the link is read, and said in a note, so that the
// reader learns why the link looked odd rather than getting the default
// scenario with a message about a parameter named "amp;scenario".

export interface RepairedAddress {
  pathname: string;
  search: string;
  /** What was undone, a phrase each, for the notice of the parts of a link not used as written (none for a link as written). */
  notes: string[];
}

/** How many times at most a link's query is percent-decoded (a link forwarded twice is encoded twice). */
const MAX_DECODES = 3;

function decodeOnce(text: string): string | null {
  try {
    return decodeURIComponent(text);
  } catch {
    return null;
  }
}

/** Characters a sentence or an angle-bracketed link puts after a link, raw or percent-encoded. */
const TRAILING = /(?:[.,;:!?)>'"]|%29|%3E|%22|%27)+$/i;

export function repairAddress(pathname: string, search: string): RepairedAddress {
  const notes: string[] = [];
  let path = pathname;
  let query = search.startsWith('?') ? search.slice(1) : search;

  // The whole "?v=..." percent-encoded into the path: "/%3Fv%3D1%26scenario%3D...".
  if (query === '' && /%(?:25)*3F/i.test(path)) {
    let decoded = path;
    for (let i = 0; i < MAX_DECODES && !decoded.includes('?'); i++) decoded = decodeOnce(decoded) ?? decoded;
    const at = decoded.indexOf('?');
    if (at >= 0) {
      path = decoded.slice(0, at) || '/';
      query = decoded.slice(at + 1);
      notes.push('it was percent-encoded whole (its "?" read "%3F"): read decoded');
    }
  }

  // A query with no "=" but an encoded one: "v%3D2%26s%3D...", or "%253D" when encoded twice.
  let times = 0;
  while (times < MAX_DECODES && !query.includes('=') && /%(?:25)*3D/i.test(query)) {
    const decoded = decodeOnce(query);
    if (decoded === null || decoded === query) break;
    query = decoded;
    times++;
  }
  if (times > 0) notes.push(`its query was percent-encoded ${times === 1 ? 'once' : `${times} times`} too often: read decoded`);

  if (/&amp;/i.test(query)) {
    query = query.replace(/&amp;/gi, '&');
    notes.push('its "&" were written "&amp;" (HTML-escaped, as a web page or an HTML mail shows them): read as "&"');
  }

  const trailing = TRAILING.exec(query);
  if (trailing && query.includes('=')) {
    const kept = query.slice(0, trailing.index);
    const shown = decodeOnce(trailing[0]) ?? trailing[0];
    query = kept;
    // A "." after a number ("&step=105.") reads as the same number either way: nothing to tell.
    if (!(shown === '.' && /\d$/.test(kept))) notes.push(`"${shown}" after its end (where a sentence or a mail client put it) was left out`);
  }

  return { pathname: path, search: query === '' ? '' : `?${query}`, notes };
}
