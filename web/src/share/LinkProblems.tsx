// How every notice about a link's unused parts reads: a bold heading, then
// the problem after a dash, or the problems one to a line.

/** The heading of the notices about parts of a link left out (bad values, a step or tour it cannot show). */
export const LINK_PART_UNUSED = 'Part of this link was not used as written';

/** The most problems listed; the rest are counted. */
export const MAX_LISTED = 8;

/** The problems to list: the first few, then how many more there were. */
export function listedProblems(problems: string[], shown = MAX_LISTED): string[] {
  if (problems.length <= shown) return problems;
  const more = problems.length - shown;
  return [...problems.slice(0, shown), `and ${more.toLocaleString('en-US')} more like these, not listed`];
}

export function LinkProblems({ heading, problems }: { heading: string; problems: string[] }) {
  const listed = listedProblems(problems);
  if (listed.length === 1) {
    return (
      <span>
        <strong>{heading}</strong> — {listed[0]}.
      </span>
    );
  }
  return (
    <div>
      <strong>{heading}</strong>:
      <ul className="link-problems">
        {listed.map((p, i) => (
          <li key={i}>{p}.</li>
        ))}
      </ul>
    </div>
  );
}
