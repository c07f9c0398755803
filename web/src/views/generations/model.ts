// The generations view's model: one lruvec's MGLRU generations as the chart
// draws them, oldest first. DOM-free, so it can be tested and reused by
// other views (tours, compare mode).
import type { LruvecView } from '../../engine/pkg/reclaim_core';

export type FolioType = 'anon' | 'file';
export const FOLIO_TYPES: readonly FolioType[] = ['anon', 'file'];

export interface GenerationBar {
  /** The generation this bar belongs to. */
  seq: number;
  type: FolioType;
  pages: number;
  /** False when the generation is older than this type's min_seq: it can hold none of its folios. */
  live: boolean;
}

export interface GenerationColumn {
  /** Stable key across frames: the sequence number. */
  seq: number;
  /** seq % MAX_NR_GENS: the list slot the kernel uses. */
  gen: number;
  ageNs: number;
  bars: GenerationBar[];
  oldest: boolean;
  youngest: boolean;
}

export interface GenerationsModel {
  /** Stable identity of the lruvec: memcg path and node. */
  key: string;
  memcg: string;
  node: number;
  /** The accessible name of the chart. */
  label: string;
  /** A one-sentence text alternative of what the chart shows. */
  summary: string;
  maxSeq: number;
  minSeqAnon: number;
  minSeqFile: number;
  columns: GenerationColumn[];
  /** The largest bar, for the y scale. */
  maxPages: number;
  totals: Record<FolioType, number>;
}

export function lruvecKey(lruvec: Pick<LruvecView, 'memcg' | 'node'>): string {
  return `${lruvec.memcg}@${lruvec.node}`;
}

export function generationsModel(lruvec: LruvecView): GenerationsModel {
  const [minSeqAnon, minSeqFile] = lruvec.minSeq;
  const minSeq: Record<FolioType, number> = { anon: minSeqAnon, file: minSeqFile };
  const gens = [...lruvec.gens].sort((a, b) => a.seq - b.seq);
  const columns = gens.map((g, i) => ({
    seq: g.seq,
    gen: g.gen,
    ageNs: g.ageNs,
    bars: FOLIO_TYPES.map((type) => ({ seq: g.seq, type, pages: g[type], live: g.seq >= minSeq[type] })),
    oldest: i === 0,
    youngest: i === gens.length - 1,
  }));
  const totals = {
    anon: gens.reduce((sum, g) => sum + g.anon, 0),
    file: gens.reduce((sum, g) => sum + g.file, 0),
  };
  const maxPages = Math.max(0, ...gens.map((g) => Math.max(g.anon, g.file)));
  const label = `Generations of ${lruvec.memcg} on node ${lruvec.node}`;
  const range = columns.length
    ? `${columns.length} generation${columns.length === 1 ? '' : 's'}, seq ${columns[0]!.seq} (oldest) to ${lruvec.maxSeq} (youngest)`
    : 'no generations';
  const summary = `${range}; ${totals.anon} anon and ${totals.file} file pages; min_seq anon ${minSeqAnon}, file ${minSeqFile}.`;
  return {
    key: lruvecKey(lruvec),
    memcg: lruvec.memcg,
    node: lruvec.node,
    label,
    summary,
    maxSeq: lruvec.maxSeq,
    minSeqAnon,
    minSeqFile,
    columns,
    maxPages,
    totals,
  };
}
