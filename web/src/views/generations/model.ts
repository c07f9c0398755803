// The lruvec view's model: one lruvec's LRU as the chart draws it. With
// MGLRU, one column per generation, oldest first; with the classic LRU, the
// inactive and active lists. Each column holds an anon and a file bar.
// DOM-free, so it can be tested and reused by other views (tours, compare mode).
import type { FolioType, LruvecView } from '../../engine/pkg/reclaim_core';
import { counted, formatCount, formatDuration } from '../../util/format';

export type { FolioType };
export const FOLIO_TYPES: readonly FolioType[] = ['anon', 'file'];

/** Which LRU the lruvec runs. */
export type LruMode = 'mglru' | 'classic';

/** The classic LRU lists in the chart's order: the inactive list (reclaimed first), then the active one. */
export type ClassicList = 'inactive' | 'active';
export const CLASSIC_LISTS: readonly ClassicList[] = ['inactive', 'active'];

export interface GenerationBar {
  /** The column this bar belongs to. */
  column: string;
  /** MGLRU: the generation's sequence number (null for a classic list). */
  seq: number | null;
  /** Classic LRU: the list's memory.stat name ("inactive_file"); null for a generation. */
  list: string | null;
  type: FolioType;
  pages: number;
  /** False when the generation is older than this type's min_seq: it can hold none of its folios. */
  live: boolean;
  /** What the bar shows, in words (its tooltip). */
  title: string;
}

export interface GenerationColumn {
  /** Stable key across frames: "seq:7" for a generation, "inactive"/"active" for a classic list. */
  key: string;
  /** MGLRU: the sequence number (null for a classic list). */
  seq: number | null;
  /** MGLRU: seq % MAX_NR_GENS, the list slot the kernel uses (null for a classic list). */
  gen: number | null;
  /** MGLRU: simulated ns since the generation was born (null for a classic list). */
  ageNs: number | null;
  /** The three lines under the column: its name, a detail, its role (may be empty). */
  heading: string;
  detail: string;
  /** The detail where a column is too narrow for it (its age alone; the gen is seq % 4). */
  detailShort: string;
  role: string;
  bars: GenerationBar[];
  /** The end reclaim takes folios from (oldest generation, inactive list). */
  oldest: boolean;
  /** The end new and promoted folios go to (youngest generation, active list). */
  youngest: boolean;
}

export interface GenerationsModel {
  mode: LruMode;
  /** Stable identity of the lruvec: memcg path and node. */
  key: string;
  memcg: string;
  node: number;
  /** The card's title ("Generations", "LRU lists"). */
  title: string;
  /** The accessible name of the chart. */
  label: string;
  /** A one-sentence text alternative of what the chart shows. */
  summary: string;
  /** Which way the columns run, for the legend. */
  direction: string;
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

/** Pages on the lruvec's own lists (a parent memcg's charge counts its children's pages; its lists may be empty). */
export function lruvecPages(lruvec: Pick<LruvecView, 'lists'>): number {
  return lruvec.lists.reduce((n, p) => n + p, 0);
}

/**
 * The lruvec the LRU tab shows when the user has chosen none: the one holding
 * the selected folio, else the first (in tree order) with pages on its own
 * lists, else the first. A function of the frame alone, so a shared link
 * opens on the same one, and it moves on only when its lruvec empties.
 */
export function defaultLruvec<L extends Pick<LruvecView, 'memcg' | 'node' | 'lists'>>(lruvecs: readonly L[], selectedMemcg?: string): L | undefined {
  const holding = selectedMemcg === undefined ? undefined : lruvecs.find((l) => l.memcg === selectedMemcg && lruvecPages(l) > 0);
  return holding ?? lruvecs.find((l) => lruvecPages(l) > 0) ?? lruvecs[0];
}

/** The picker's text for an lruvec: what its lists hold, and the memcg's charge when that differs (a parent's). */
export function lruvecOption(lruvec: Pick<LruvecView, 'memcg' | 'node' | 'lists' | 'memoryCurrent'>): string {
  const own = lruvecPages(lruvec);
  const charged = own === lruvec.memoryCurrent ? '' : ` (memcg charged ${formatCount(lruvec.memoryCurrent)})`;
  return `${lruvec.memcg} on node ${lruvec.node} — ${formatCount(own)} pages on its lists${charged}`;
}

/** The column key of a generation. */
export function seqKey(seq: number): string {
  return `seq:${seq}`;
}

/** The chart of a lruvec in the LRU it runs. */
export function lruvecModel(lruvec: LruvecView): GenerationsModel {
  return lruvec.lruGen ? generationsModel(lruvec) : classicListsModel(lruvec);
}

function pagesTitle(name: string, pages: number, type: FolioType): string {
  return `${name}: ${counted(pages, `${type} page`)}`;
}

function maxBar(columns: readonly GenerationColumn[]): number {
  return Math.max(0, ...columns.flatMap((c) => c.bars.map((b) => b.pages)));
}

function totalsOf(columns: readonly GenerationColumn[]): Record<FolioType, number> {
  const totals: Record<FolioType, number> = { anon: 0, file: 0 };
  for (const c of columns) for (const b of c.bars) totals[b.type] += b.pages;
  return totals;
}

/** MGLRU: one column per generation from min(min_seq) to max_seq, oldest first. */
export function generationsModel(lruvec: LruvecView): GenerationsModel {
  const [minSeqAnon, minSeqFile] = lruvec.minSeq;
  const minSeq: Record<FolioType, number> = { anon: minSeqAnon, file: minSeqFile };
  const gens = [...lruvec.gens].sort((a, b) => a.seq - b.seq);
  const columns = gens.map((g, i): GenerationColumn => {
    const oldest = i === 0;
    const youngest = i === gens.length - 1;
    return {
      key: seqKey(g.seq),
      seq: g.seq,
      gen: g.gen,
      ageNs: g.ageNs,
      heading: `seq ${g.seq}`,
      // Its slot in lrugen->folios[] (seq % MAX_NR_GENS) and the time since it was made (lrugen->timestamps).
      detail: `gen ${g.gen} · age ${formatDuration(g.ageNs)}`,
      detailShort: formatDuration(g.ageNs),
      role: youngest && oldest ? 'only' : youngest ? 'youngest' : oldest ? 'oldest' : '',
      bars: FOLIO_TYPES.map((type) => {
        const live = g.seq >= minSeq[type];
        return {
          column: seqKey(g.seq),
          seq: g.seq,
          list: null,
          type,
          pages: g[type],
          live,
          title: pagesTitle(`seq ${g.seq}`, g[type], type) + (live ? '' : ` — older than min_seq[${type}]`),
        };
      }),
      oldest,
      youngest,
    };
  });
  const totals = totalsOf(columns);
  const label = `Generations of ${lruvec.memcg} on node ${lruvec.node}`;
  const range = columns.length
    ? `${counted(columns.length, 'generation')}, seq ${columns[0]!.seq} (oldest) to ${lruvec.maxSeq} (youngest)`
    : 'no generations';
  const summary = `${range}; ${totals.anon} anon and ${totals.file} file pages; min_seq anon ${minSeqAnon}, file ${minSeqFile}.`;
  return {
    mode: 'mglru',
    key: lruvecKey(lruvec),
    memcg: lruvec.memcg,
    node: lruvec.node,
    title: 'Generations',
    label,
    summary,
    direction: 'oldest → youngest (evicted from the oldest)',
    maxSeq: lruvec.maxSeq,
    minSeqAnon,
    minSeqFile,
    columns,
    maxPages: maxBar(columns),
    totals,
  };
}

/** Classic LRU: the inactive and active lists, each with its anon and file list. */
export function classicListsModel(lruvec: LruvecView): GenerationsModel {
  const [inactiveAnon, activeAnon, inactiveFile, activeFile] = lruvec.lists;
  const sizes: Record<ClassicList, Record<FolioType, number>> = {
    inactive: { anon: inactiveAnon, file: inactiveFile },
    active: { anon: activeAnon, file: activeFile },
  };
  const columns = CLASSIC_LISTS.map(
    (list): GenerationColumn => ({
      key: list,
      seq: null,
      gen: null,
      ageNs: null,
      heading: list,
      detail: list === 'inactive' ? 'shrink_folio_list' : 'shrink_active_list',
      detailShort: list === 'inactive' ? 'shrink_folio_list' : 'shrink_active_list',
      role: list === 'inactive' ? 'reclaimed first' : 'working set',
      bars: FOLIO_TYPES.map((type) => ({
        column: list,
        seq: null,
        list: `${list}_${type}`,
        type,
        pages: sizes[list][type],
        live: true,
        title: pagesTitle(`${list}_${type}`, sizes[list][type], type),
      })),
      oldest: list === 'inactive',
      youngest: list === 'active',
    }),
  );
  const totals = totalsOf(columns);
  const summary =
    `Classic LRU: inactive_anon ${inactiveAnon}, active_anon ${activeAnon}, ` +
    `inactive_file ${inactiveFile}, active_file ${activeFile} pages.`;
  return {
    mode: 'classic',
    key: lruvecKey(lruvec),
    memcg: lruvec.memcg,
    node: lruvec.node,
    title: 'LRU lists',
    label: `LRU lists of ${lruvec.memcg} on node ${lruvec.node}`,
    summary,
    direction: 'inactive → active (reclaimed from the inactive list)',
    maxSeq: lruvec.maxSeq,
    minSeqAnon: lruvec.minSeq[0],
    minSeqFile: lruvec.minSeq[1],
    columns,
    maxPages: maxBar(columns),
    totals,
  };
}
