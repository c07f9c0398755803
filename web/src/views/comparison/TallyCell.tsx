// A table cell with a headline's count over seeds 1 to 5 ("5/5", "0/5 (5
// tied)"): the comparison table's seeds column and the range check's cells.
import { formatTally, type SeedTally } from './model';

export function TallyCell({ tally, metric }: { tally: SeedTally | null; metric?: string }) {
  if (!tally) return <td className="num tally" data-metric={metric} />;
  const all = tally.held === tally.seeds;
  return (
    <td className={`num tally ${all ? 'held' : 'not-held'}`} data-metric={metric} data-tally={formatTally(tally)}>
      {formatTally(tally)}
    </td>
  );
}
