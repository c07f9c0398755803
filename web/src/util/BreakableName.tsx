// A kernel name (a counter, a function) or a variant name that may wrap
// after its underscores and hyphens, so that a narrow column wraps a long
// name rather than cutting it off or pushing the numbers out. Its text is
// the name itself.
import { Fragment } from 'react';

/** `name` with a line-break opportunity after each underscore and hyphen. */
export function BreakableName({ name }: { name: string }) {
  const parts = name.split(/(?<=[_-])/);
  return (
    <>
      {parts.map((part, i) => (
        <Fragment key={i}>
          {part}
          {i < parts.length - 1 && <wbr />}
        </Fragment>
      ))}
    </>
  );
}
