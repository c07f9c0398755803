// The views' tabs and what each tab panel holds (App lays them out).
import type { ExperimentInfo, Frame } from './engine/pkg/reclaim_core';
import type { TabInfo } from './controls/Tabs';
import { TAB_LABELS, type ShareTab } from './scenario/share';
import { counted, formatCount } from './util/format';
import type { TrackedFolios } from './views/generations/useTrackedFolios';
import { GenerationsView } from './views/generations/GenerationsView';
import { defaultLruvec, lruvecKey, lruvecOption } from './views/generations/model';
import type { FrameHistories } from './views/history';
import { KswapdTimeline } from './views/kswapd/KswapdTimeline';
import { MemcgUsage, memcgUsage } from './views/memcg/MemcgUsage';
import { MemcgsView } from './views/memcg/MemcgsView';
import { MemcgLruView } from './views/memcg-lru/MemcgLruView';
import { ReclaimView } from './views/reclaim/ReclaimView';
import { ZonesView } from './views/zones/ZonesView';

/** With more lruvecs than this, the LRU tab shows one at a time (chosen from a list). */
const MAX_LRUVECS_SHOWN = 4;
/** With more memcgs than this, the usage meters above the LRU give way to the Memcgs tab. */
const MAX_USAGE_ROWS = 4;

/** The page's view tabs: the ones a link can select. */
export type TabKey = ShareTab;

/**
 * The tab a built-in scenario opens on when it is not the LRU: the view its
 * story is told in (slow-disk's kswapd, painted throttled, is on the System
 * tab). An experiment opens on its Comparison.
 */
export const SCENARIO_FIRST_TAB: Readonly<Record<string, TabKey>> = {
  'slow-disk': 'system',
};

/** The tabs this frame has something to show in; an experiment's comparison first. */
export function tabsFor(frame: Frame, experiment: ExperimentInfo | undefined): TabInfo<TabKey>[] {
  const tabs: TabInfo<TabKey>[] = [];
  if (experiment) tabs.push({ key: 'comparison', label: TAB_LABELS.comparison });
  tabs.push({ key: 'lru', label: TAB_LABELS.lru, note: counted(frame.lruvecs.length, 'lruvec') });
  const zones = frame.nodes.reduce((n, node) => n + node.zones.length, 0);
  if (frame.nodes.length > 0) tabs.push({ key: 'system', label: TAB_LABELS.system, note: `${counted(zones, 'zone')} · kswapd` });
  if (frame.memcgs.length > 0 || frame.nodes.some((n) => n.memcgLru) || frame.reclaims.length > 0) {
    tabs.push({ key: 'memcgs', label: TAB_LABELS.memcgs, note: `${frame.memcgs.length}` });
  }
  if (frame.shadow) {
    const shadows = frame.shadow.lruvecs.reduce((n, l) => n + l.shadowsTotal, 0);
    tabs.push({ key: 'shadows', label: TAB_LABELS.shadows, note: `${shadows}` });
  }
  return tabs;
}

interface LruPanelProps {
  frame: Frame;
  folios: TrackedFolios;
  selected: string | null;
  onSelect(page: string | null): void;
  transitionMs: number;
  chosenLruvec: string | null;
  onChooseLruvec(key: string): void;
}

/** The generations (or classic lists) of each lruvec; one at a time, chosen from a list, when there are many. */
export function LruPanel({ frame, folios, selected, onSelect, transitionMs, chosenLruvec, onChooseLruvec }: LruPanelProps) {
  const many = frame.lruvecs.length > MAX_LRUVECS_SHOWN;
  const chosen = many
    ? (frame.lruvecs.find((l) => lruvecKey(l) === chosenLruvec) ?? defaultLruvec(frame.lruvecs, folios.record(selected)?.memcg))
    : undefined;
  const shown = many ? (chosen ? [chosen] : []) : frame.lruvecs;
  const showUsage = memcgUsage(frame.lruvecs).length <= MAX_USAGE_ROWS;
  return (
    <>
      {showUsage && <MemcgUsage lruvecs={frame.lruvecs} />}
      {many && chosen && (
        <div className="card lruvec-picker">
          <label htmlFor="lruvec-select">Lruvec</label>
          <select id="lruvec-select" value={lruvecKey(chosen)} onChange={(e) => onChooseLruvec(e.target.value)}>
            {frame.lruvecs.map((l) => (
              <option key={lruvecKey(l)} value={lruvecKey(l)}>
                {lruvecOption(l)}
              </option>
            ))}
          </select>
          <span className="muted">
            {formatCount(frame.lruvecs.length)} lruvecs: one shown at a time (every memcg is in the Memcgs tab)
          </span>
        </div>
      )}
      {shown.map((l) => (
        <GenerationsView
          key={lruvecKey(l)}
          lruvec={l}
          folios={folios.of(l)}
          selected={selected}
          onSelect={onSelect}
          transitionMs={transitionMs}
        />
      ))}
    </>
  );
}

/** Per node: its kswapd over time, and its zones against their watermarks over the same time. */
export function SystemPanel({ frame, histories }: { frame: Frame; histories: FrameHistories }) {
  return (
    <>
      {frame.nodes.map((n, i) => (
        <div className="node-group" key={n.node}>
          {histories.kswapd[i] && (
            <KswapdTimeline node={n.node} track={histories.kswapd[i]} start={histories.start} end={histories.timeNs} />
          )}
          <ZonesView node={n} series={histories.zones} start={histories.start} end={histories.timeNs} />
        </div>
      ))}
    </>
  );
}

/** Every memcg's usage and reclaim, the memcg LRU of each node (when the kernel has one), the memory.reclaim writes. */
export function MemcgsPanel({ frame, histories, transitionMs }: { frame: Frame; histories: FrameHistories; transitionMs: number }) {
  return (
    <>
      {frame.memcgs.length > 0 && <MemcgsView memcgs={frame.memcgs} cv={frame.pgstealCv} cvHistory={histories.cv} transitionMs={transitionMs} />}
      {frame.nodes.map((n) => n.memcgLru && <MemcgLruView key={n.node} node={n.node} lru={n.memcgLru} transitionMs={transitionMs} />)}
      {frame.reclaims.length > 0 && <ReclaimView reclaims={frame.reclaims} />}
    </>
  );
}
