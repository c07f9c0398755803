// One side of compare mode: its variant (chosen here), its step, the view
// picked for both sides (the generations or classic lists of an lruvec, the
// zones and kswapd, the memcgs) and its counters.
import { useId, type CSSProperties, type ReactNode } from 'react';
import type { LruvecView, ShadowFrame, VariantInfo } from '../engine/pkg/reclaim_core';
import { chooseLruvec, shadowLruvecKey } from '../views/shadows/model';
import { SystemPanel } from '../panels';
import { formatCount } from '../util/format';
import { CountersTable } from '../views/counters/CountersTable';
import { useTrackedFolios } from '../views/generations/useTrackedFolios';
import { GenerationsView } from '../views/generations/GenerationsView';
import { lruvecKey } from '../views/generations/model';
import { MemcgLruView } from '../views/memcg-lru/MemcgLruView';
import { MemcgsView } from '../views/memcg/MemcgsView';
import { ShadowsView } from '../views/shadows/ShadowsView';
import type { Side } from './lockstep';

export type CompareViewKey = 'lru' | 'system' | 'memcgs' | 'shadows';

const NO_SELECTION = () => {};

export interface CompareSideProps {
  index: 0 | 1;
  side: Side | null;
  variant: string;
  variants: readonly VariantInfo[];
  onVariant(variant: string): void;
  view: CompareViewKey;
  /** The lruvec shown (by lruvecKey), when there are more than a few. */
  lruvec: string | null;
  /** How many lruvecs are shown at most before one is picked. */
  maxLruvecs: number;
  transitionMs: number;
  disabled: boolean;
  /** The lruvec both sides' Shadows views show ("/memcg@node"), and how to choose another. */
  shadowLruvec: string | null;
  onShadowLruvec(key: string): void;
  /** The top of the pgsteal charts' y scale, the same on both sides. */
  spreadTop?: number;
  /** The top of each lruvec's generation chart's y scale (by lruvecKey), the same on both sides. */
  pagesTop?: ReadonlyMap<string, number>;
  /** The nodes where either side has a memcg LRU: each side gives each of them a row, with its memcg LRU or why it has none. */
  memcgLruNodes: readonly number[];
}

/**
 * Why a side's Shadows view shows another lruvec than the one chosen (on
 * either side): this variant has no shadows there at this step (the classic
 * LRU, for one, keeps them under the reclaim's target). Undefined when it
 * shows the chosen one.
 */
export function shadowNote(shadow: ShadowFrame, chosen: string | null, variant: string): string | undefined {
  if (!chosen || shadow.lruvecs.length === 0 || shadow.lruvecs.some((l) => shadowLruvecKey(l) === chosen)) return undefined;
  // The key is memcg@node (shadowLruvecKey); a cgroup's name may hold an '@', the node cannot.
  const at = chosen.lastIndexOf('@');
  const [memcg, node] = [chosen.slice(0, at), chosen.slice(at + 1)];
  const shown = chooseLruvec(shadow, null, null);
  return `${variant} has no shadows of ${memcg} on node ${node} at this step${shown ? `; this is ${shown.memcg} on node ${shown.node}` : ''}.`;
}

/** The lruvecs a side shows: all of a few, else the chosen one (or the first). */
export function shownLruvecs(lruvecs: readonly LruvecView[], chosen: string | null, max: number): LruvecView[] {
  if (lruvecs.length <= max) return [...lruvecs];
  const pick = lruvecs.find((l) => lruvecKey(l) === chosen) ?? lruvecs[0];
  return pick ? [pick] : [];
}

export function CompareSide({ index, side, variant, variants, onVariant, view, lruvec, maxLruvecs, transitionMs, disabled, memcgLruNodes, spreadTop, pagesTop, shadowLruvec, onShadowLruvec }: CompareSideProps) {
  const id = useId();
  const frame = side?.frame ?? null;
  const folios = useTrackedFolios(frame);
  const about = variants.find((v) => v.name === variant)?.description ?? '';
  const place = index === 0 ? 'Left' : 'Right';
  // Each card is a row of the sides' shared grid (compare.css: subgrid), so the
  // two sides' cards line up row by row however tall either side's are.
  const cards: ReactNode[] = [];
  if (!side || !frame) {
    cards.push(<div key="placeholder" className="card placeholder">Starting…</div>);
  } else {
    if (view === 'lru') {
      for (const l of shownLruvecs(frame.lruvecs, lruvec, maxLruvecs)) {
        cards.push(
          <GenerationsView
            key={lruvecKey(l)}
            lruvec={l}
            folios={folios.of(l)}
            selected={null}
            onSelect={NO_SELECTION}
            transitionMs={transitionMs}
            scaleTop={pagesTop?.get(lruvecKey(l))}
          />,
        );
      }
    }
    if (view === 'system') cards.push(<SystemPanel key="system" frame={frame} histories={side.histories} />);
    if (view === 'shadows') {
      cards.push(
        frame.shadow ? (
          <ShadowsView
            key="shadows"
            shadow={frame.shadow}
            step={frame.step}
            selected={null}
            onSelect={NO_SELECTION}
            transitionMs={transitionMs}
            chosenLruvec={shadowLruvec}
            onChooseLruvec={onShadowLruvec}
            note={shadowNote(frame.shadow, shadowLruvec, variant)}
          />
        ) : (
          <div key="shadows" className="card empty">No shadow LRU in this frame.</div>
        ),
      );
    }
    if (view === 'memcgs') {
      cards.push(
        frame.memcgs.length > 0 ? (
          <MemcgsView key="memcgs" memcgs={frame.memcgs} cv={frame.pgstealCv} cvHistory={side.histories.cv} transitionMs={transitionMs} spreadTop={spreadTop} />
        ) : (
          <div key="memcgs" className="card empty">No memcgs below the root.</div>
        ),
      );
      for (const node of memcgLruNodes) {
        const lru = frame.nodes.find((n) => n.node === node)?.memcgLru;
        cards.push(
          lru ? (
            <MemcgLruView key={`memcg-lru-${node}`} node={node} lru={lru} transitionMs={transitionMs} />
          ) : (
            // The other side has a memcg LRU on this node: say why this one has none, in its row.
            <div key={`memcg-lru-${node}`} className="card empty" data-testid="no-memcg-lru">
              No memcg LRU on node {node} in <span className="mono">{variant}</span>: its reclaim walks the memcg tree
              (mem_cgroup_iter in shrink_node_memcgs).
            </div>
          ),
        );
      }
    }
    cards.push(
      <CountersTable
        key="counters"
        counters={frame.counters}
        previous={side.previous?.counters ?? null}
        stepsSincePrevious={side.previous ? frame.step - side.previous.step : null}
      />,
    );
  }
  // The head and the cards, for the grid row span; SystemPanel is one card per node.
  const rows = 1 + cards.length + (view === 'system' && frame ? frame.nodes.length - 1 : 0);
  return (
    <section
      className="compare-side"
      aria-labelledby={`${id}-title`}
      data-testid={`compare-side-${index}`}
      data-variant={variant}
      data-export-prefix={`${place}: ${variant}`}
      style={{ '--rows': rows } as CSSProperties}
    >
      <div className="card compare-side-head">
        {/* The variant is in the list beside it: on screen the title is the side alone, so it never
            wraps and the two heads keep their lines level (the name read aloud has the variant). */}
        <h3 className="card-title" id={`${id}-title`}>
          {place}
          <span className="visually-hidden">: {variant}</span>
        </h3>
        <label className="compare-variant">
          <span>
            <span className="visually-hidden">{place} </span>Variant
          </span>
          <select value={variant} disabled={disabled} onChange={(e) => onVariant(e.target.value)}>
            {variants.map((v) => (
              <option key={v.name} value={v.name}>
                {v.name}
              </option>
            ))}
          </select>
        </label>
        <p className="compare-side-step">
          Step <strong data-testid="side-step">{frame ? formatCount(frame.step) : '–'}</strong>
        </p>
        <p className="hint compare-about">{about}</p>
      </div>
      {cards}
    </section>
  );
}
