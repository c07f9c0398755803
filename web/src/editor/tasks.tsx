// The editor's memcgs (path and limits) and workloads (which memcg, what
// they touch, how, how fast, when).
import { newMemcg, newWorkload, workloadShows } from './draft';
import { FILE_OPS, PACINGS, PATTERNS, type Draft, type MemcgDraft, type WorkloadDraft } from './model';
import { Group, SelectField, TextField } from './fields';
import { ItemButton, removeAt, replaceAt, type Update } from './sections';

const LIMITS: readonly { key: keyof Omit<MemcgDraft, 'path' | 'base'>; label: string; empty: string }[] = [
  { key: 'memoryMax', label: 'memory.max', empty: 'max' },
  { key: 'memoryHigh', label: 'memory.high', empty: 'max' },
  { key: 'memoryLow', label: 'memory.low', empty: '0' },
  { key: 'memoryMin', label: 'memory.min', empty: '0' },
  { key: 'swapMax', label: 'swap.max', empty: 'max' },
];

/**
 * A memcg's new path, and the workloads that ran in it follow it (they
 * would name a memcg that is gone), as do the memory.reclaim writers kept
 * from a file (which the editor does not show). Typed over a keystroke at a
 * time, the path may be empty on the way: then the workloads and writers
 * that name no memcg of the draft are the ones that follow.
 */
export function renameMemcg(d: Draft, index: number, path: string): Draft {
  const old = d.memcgs[index]?.path ?? '';
  const known = new Set(['/', ...d.memcgs.map((m) => m.path)]);
  const follows = (memcg: string) => (old.trim() !== '' ? memcg === old : memcg.trim() === '' || !known.has(memcg));
  const workloads = d.workloads.map((w) => (follows(w.memcg) ? { ...w, memcg: path } : w));
  const proactive = d.base.proactive?.map((p) => (follows(p.memcg) ? { ...p, memcg: path } : p));
  return { ...d, memcgs: replaceAt(d.memcgs, index, { ...d.memcgs[index]!, path }), workloads, base: { ...d.base, proactive } };
}

/**
 * Without the memcg at `index`: the memory.reclaim writers kept from a file
 * that wrote to it go too (the editor cannot show them to be changed); its
 * workloads stay, for the reader to move (the engine names them).
 */
export function removeMemcg(d: Draft, index: number): Draft {
  const path = d.memcgs[index]?.path;
  const proactive = d.base.proactive?.filter((p) => p.memcg !== path);
  return { ...d, memcgs: removeAt(d.memcgs, index), base: { ...d.base, proactive } };
}

function MemcgItem({ index, memcg, update }: { index: number; memcg: MemcgDraft; update: Update }) {
  const key = `memcgs[${index}]`;
  const set = (m: MemcgDraft) => update((d) => ({ ...d, memcgs: replaceAt(d.memcgs, index, m) }));
  return (
    <Group
      field={key}
      legend={<span className="mono">{memcg.path || `memcg ${index}`}</span>}
      className="grid-2"
      actions={<ItemButton label={`Remove memcg ${memcg.path || index}`} onClick={() => update((d) => removeMemcg(d, index))} />}
    >
      <TextField
        field={`${key}.path`}
        label="Path"
        inputMode="text"
        value={memcg.path}
        onChange={(path) => update((d) => renameMemcg(d, index, path))}
        hint="/a or /a/b, parents first"
        className="span-2"
      />
      {LIMITS.map((l) => (
        <TextField
          key={l.key}
          field={`${key}.${l.key}`}
          label={l.label}
          value={memcg[l.key]}
          placeholder={l.empty}
          onChange={(v) => set({ ...memcg, [l.key]: v })}
          hint={`pages; empty = ${l.empty}`}
        />
      ))}
    </Group>
  );
}

export function MemcgsSection({ draft, update }: { draft: Draft; update: Update }) {
  return (
    <Group field="memcgs" legend="Memcgs" actions={<ItemButton label="Add memcg" onClick={() => update((d) => ({ ...d, memcgs: [...d.memcgs, newMemcg(d.memcgs)] }))} />}>
      <p className="hint">The root (/) is always there. Limits in 4 KiB pages.</p>
      {draft.memcgs.map((m, i) => (
        <MemcgItem key={i} index={i} memcg={m} update={update} />
      ))}
    </Group>
  );
}

const PATTERN_OPTIONS = PATTERNS.map((p) => ({
  value: p,
  label: { zipf: 'zipf', uniform: 'uniform', sequential: 'sequential', loop: 'loop' }[p],
}));
const PATTERN_HINTS = {
  zipf: 'a few popular pages, a long tail',
  uniform: 'every page alike',
  sequential: 'one pass, then the task ends',
  loop: 'passes over it forever',
} as const satisfies Record<(typeof PATTERNS)[number], string>;
const TARGET_OPTIONS = [
  { value: 'file' as const, label: 'file (page cache)' },
  { value: 'anon' as const, label: 'anon (heap)' },
];
const PACING_OPTIONS = PACINGS.map((p) => ({
  value: p,
  label: { open: 'open loop', closed: 'closed loop' }[p],
}));
const OP_OPTIONS = FILE_OPS.map((o) => ({
  value: o,
  label: { read: 'read()', write: 'write()', mmapRead: 'mmap loads', mmapWrite: 'mmap loads and stores' }[o],
}));

function WorkloadItem({ index, workload: w, memcgs, nodes, update }: { index: number; workload: WorkloadDraft; memcgs: string[]; nodes: number; update: Update }) {
  const key = `workloads[${index}]`;
  const set = (patch: Partial<WorkloadDraft>) => update((d) => ({ ...d, workloads: replaceAt(d.workloads, index, { ...d.workloads[index]!, ...patch }) }));
  const memcgOptions = memcgs.map((p) => ({ value: p, label: p }));
  const shows = workloadShows(w, nodes);
  return (
    <Group
      field={key}
      legend={<span className="mono">{w.name || `workload ${index}`}</span>}
      className="grid-2"
      actions={<ItemButton label={`Remove workload ${w.name || index}`} focusPartner="add-workload" onClick={() => update((d) => ({ ...d, workloads: removeAt(d.workloads, index) }))} />}
    >
      <TextField field={`${key}.name`} label="Name" inputMode="text" value={w.name} onChange={(name) => set({ name })} />
      <SelectField field={`${key}.memcg`} label="Memcg" value={w.memcg} options={memcgOptions} onChange={(memcg) => set({ memcg })} />
      {shows.node && <TextField field={`${key}.node`} label="Node" value={w.node} onChange={(node) => set({ node })} />}
      <SelectField field={`${key}.target`} label="Target" value={w.target} options={TARGET_OPTIONS} onChange={(target) => set({ target })} />
      <TextField field={`${key}.target.pages`} label="Size (pages)" value={w.pages} onChange={(pages) => set({ pages })} />
      {shows.op && <SelectField field={`${key}.target.op`} label="Access" value={w.op} options={OP_OPTIONS} onChange={(op) => set({ op })} />}
      {shows.writePercent && (
        <TextField field={`${key}.target.writePercent`} label="Writes (%)" value={w.writePercent} onChange={(writePercent) => set({ writePercent })} />
      )}
      <SelectField
        field={`${key}.pattern`}
        label="Pattern"
        value={w.pattern}
        options={PATTERN_OPTIONS}
        onChange={(pattern) => set({ pattern })}
        hint={PATTERN_HINTS[w.pattern]}
      />
      {shows.zipf && (
        <TextField field={`${key}.pattern.s`} label="Zipf exponent" inputMode="decimal" value={w.zipfS} onChange={(zipfS) => set({ zipfS })} hint="(0, 5]" />
      )}
      <TextField field={`${key}.rate`} label="Rate (/s)" value={w.rate} onChange={(rate) => set({ rate })} hint="accesses per simulated second; 0 = flat out" />
      {shows.pacing && (
        <SelectField
          field={`${key}.closedLoop`}
          label="Pacing"
          value={w.pacing}
          options={PACING_OPTIONS}
          onChange={(pacing) => set({ pacing })}
          hint={w.pacing === 'closed' ? 'each access waits for the last: a stall is lost' : 'accesses missed in a stall are made up after it'}
        />
      )}
      <TextField field={`${key}.startNs`} label="Start (ms)" inputMode="decimal" value={w.startMs} onChange={(startMs) => set({ startMs })} />
      <TextField field={`${key}.stopNs`} label="Stop (ms)" inputMode="decimal" value={w.stopMs} onChange={(stopMs) => set({ stopMs })} hint="0 = never" />
      <TextField
        field={`${key}.trackedPages`}
        label="Tracked pages"
        value={w.trackedPages}
        onChange={(trackedPages) => set({ trackedPages })}
        hint="pages the LRU view follows; empty = automatic; over 600 draw on a canvas"
      />
    </Group>
  );
}

export function WorkloadsSection({ draft, update }: { draft: Draft; update: Update }) {
  const memcgs = ['/', ...draft.memcgs.map((m) => m.path).filter((p) => p.trim() !== '')];
  return (
    <Group
      field="workloads"
      legend="Workloads"
      actions={
        <ItemButton
          label="Add workload"
          focusName="add-workload"
          onClick={() => update((d) => ({ ...d, workloads: [...d.workloads, newWorkload(d.memcgs[0]?.path ?? '/', d.workloads)] }))}
        />
      }
    >
      {draft.workloads.map((w, i) => (
        <WorkloadItem key={i} index={i} workload={w} memcgs={memcgs} nodes={draft.nodes.length} update={update} />
      ))}
    </Group>
  );
}
