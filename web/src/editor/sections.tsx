// The editor's sections: the run (name, seed, duration, step), the machine
// (nodes, their zones and sizes, swap) and the switches. Memcgs and
// workloads are in tasks.tsx.
import { nextZone } from './draft';
import { BATCHES, BOOL_KNOBS, STORAGES, ZONE_NAMES, type BoolKnob, type Draft, type KnobsDraft, type ZoneDraft, type ZoneName } from './model';
import type { Storage } from '../engine/pkg/reclaim_core';
import { CheckField, Group, SelectField, TextField, useFields } from './fields';

export type Update = (change: (draft: Draft) => Draft) => void;

export const replaceAt = <T,>(list: readonly T[], i: number, value: T): T[] => list.map((x, k) => (k === i ? value : x));
export const removeAt = <T,>(list: readonly T[], i: number): T[] => list.filter((_, k) => k !== i);

/** A small button that removes or adds an item, named for what it does. */
/** `focusName`/`focusPartner`: see util/focus.ts (a Remove button hands the focus to its group's Add button). */
export function ItemButton({ label, onClick, focusName, focusPartner }: { label: string; onClick(): void; focusName?: string; focusPartner?: string }) {
  const { disabled } = useFields();
  return (
    <button type="button" className="button small" onClick={onClick} disabled={disabled} data-focus-name={focusName} data-focus-partner={focusPartner}>
      {label}
    </button>
  );
}

export function RunSection({ draft, update }: { draft: Draft; update: Update }) {
  return (
    <Group field="run" legend="Run" className="grid-2">
      <TextField field="name" label="Name" inputMode="text" value={draft.name} onChange={(name) => update((d) => ({ ...d, name }))} className="span-2" />
      <TextField
        field="title"
        label="Title"
        inputMode="text"
        value={draft.title}
        onChange={(title) => update((d) => ({ ...d, title }))}
        className="span-2"
        hint="What the header shows; the name when empty."
      />
      <TextField field="seed" label="Seed" value={draft.seed} onChange={(seed) => update((d) => ({ ...d, seed }))} hint="Same seed, same run." />
      <TextField
        field="durationNs"
        label="Duration (ms)"
        inputMode="decimal"
        value={draft.durationMs}
        onChange={(durationMs) => update((d) => ({ ...d, durationMs }))}
        hint="simulated; what reclaim-sim run covers"
      />
      <TextField
        field="stepNs"
        label="Step (ms)"
        inputMode="decimal"
        value={draft.stepMs}
        onChange={(stepMs) => update((d) => ({ ...d, stepMs }))}
        hint="simulated time per step"
      />
    </Group>
  );
}

const ZONE_OPTIONS = ZONE_NAMES.map((z) => ({ value: z, label: z }));

function ZoneRow({ node, index, zone, update, removable }: { node: number; index: number; zone: ZoneDraft; update: Update; removable: boolean }) {
  const key = `nodes[${node}].zones[${index}]`;
  const set = (z: ZoneDraft) =>
    update((d) => ({ ...d, nodes: replaceAt(d.nodes, node, { zones: replaceAt(d.nodes[node]!.zones, index, z) }) }));
  return (
    <div className="zone-row">
      <SelectField<ZoneName> field={`${key}.zone`} label="Zone" value={zone.zone} options={ZONE_OPTIONS} onChange={(z) => set({ ...zone, zone: z })} />
      <TextField field={`${key}.pages`} label="Pages" value={zone.pages} onChange={(pages) => set({ ...zone, pages })} hint="4 KiB pages" />
      {removable && (
        <ItemButton
          label={`Remove ${zone.zone} of node ${node}`}
          onClick={() => update((d) => ({ ...d, nodes: replaceAt(d.nodes, node, { zones: removeAt(d.nodes[node]!.zones, index) }) }))}
        />
      )}
    </div>
  );
}

const STORAGE_OPTIONS = STORAGES.map((value) => ({
  value,
  label: { ssd: 'SSD (about 100k IOPS)', hdd: '7,200-rpm disk (about 200 IOPS)', ramdisk: 'brd ramdisks (CPU time)' }[value],
}));

export function MachineSection({ draft, update }: { draft: Draft; update: Update }) {
  return (
    <Group
      field="nodes"
      legend="Machine"
      actions={<ItemButton label="Add node" onClick={() => update((d) => ({ ...d, nodes: [...d.nodes, { zones: [{ zone: 'Normal', pages: '16384' }] }] }))} />}
    >
      {draft.nodes.map((n, i) => {
        const next = nextZone(n.zones);
        return (
          <Group
            key={i}
            field={`nodes[${i}]`}
            legend={`Node ${i}`}
            actions={
              <>
                {next && (
                  <ItemButton
                    label={`Add zone to node ${i}`}
                    onClick={() => update((d) => ({ ...d, nodes: replaceAt(d.nodes, i, { zones: [...d.nodes[i]!.zones, { zone: next, pages: '4096' }] }) }))}
                  />
                )}
                {draft.nodes.length > 1 && <ItemButton label={`Remove node ${i}`} onClick={() => update((d) => ({ ...d, nodes: removeAt(d.nodes, i) }))} />}
              </>
            }
          >
            <ZonesMessage node={i} />
            {n.zones.map((z, j) => (
              <ZoneRow key={j} node={i} index={j} zone={z} update={update} removable={n.zones.length > 1} />
            ))}
          </Group>
        );
      })}
      <TextField
        field="swapPages"
        label="Swap (pages)"
        value={draft.swapPages}
        onChange={(swapPages) => update((d) => ({ ...d, swapPages }))}
        hint="swap space; 0 = none (anonymous memory cannot be reclaimed)"
      />
      <SelectField<Storage>
        field="machine.storage"
        label="Storage"
        value={draft.storage}
        options={STORAGE_OPTIONS}
        onChange={(storage) => update((d) => ({ ...d, storage }))}
        hint="the device the files and swap are on"
      />
      <TextField
        field="machine.cpus"
        label="CPUs"
        value={draft.cpus}
        onChange={(cpus) => update((d) => ({ ...d, cpus }))}
        hint="1-4096, shared by every task, kswapd and memory.reclaim writer; empty = a CPU each"
      />
    </Group>
  );
}

/** Messages about a node's zone list as a whole ("a node needs at least one zone"). */
function ZonesMessage({ node }: { node: number }) {
  const f = useFields();
  const key = `nodes[${node}].zones`;
  const message = f.message(key);
  return (
    <p className="group-message" id={f.messageId(key)}>
      {message && <span className="problem">{message}</span>}
    </p>
  );
}

const KNOB_HELP: Record<BoolKnob, string> = {
  lruGenEnabled: 'MGLRU (v6.1+); off = the active/inactive lists',
  memcgLru: 'the memcg LRU (Yu Zhao, v6.3+)',
  optimizeMultipleMemcgs: 'without the memcg LRU: "optimize multiple memcgs" (v6.1-6.2)',
  kswapdClasszoneFix: "kswapd's zone index fix (Mel Gorman, v4.12+)",
  kswapdUselessLoopsFix: 'with it, keep the balanced zone after an unbalanced nap (v5.3+)',
  memcgFullWalk: 'visit every memcg on every pass (before ~6.11)',
  refaultDistanceMglru: 'refault distance for MGLRU (Kairui Song, RFC)',
  mglruUnderprotectionFix: 'MGLRU "fix underprotected page cache" (v6.7+)',
  mglruWorkingsetAccountingFix: 'MGLRU counts every refault (v6.5+; counters only)',
};

const BATCH_OPTIONS = BATCHES.map((b) => ({
  value: b,
  label: { decaying: 'decaying (v6.9+)', swapClusterMax: 'swapClusterMax (v6.6-6.8)', whole: 'whole (v5.19-v6.5)' }[b],
}));

export function SwitchesSection({ knobs, update }: { knobs: KnobsDraft; update: Update }) {
  const set = (patch: Partial<KnobsDraft>) => update((d) => ({ ...d, knobs: { ...d.knobs, ...patch } }));
  return (
    <Group field="knobs" legend="Switches">
      {BOOL_KNOBS.map((k) => (
        <CheckField key={k} field={`knobs.${k}`} label={k} checked={knobs[k]} onChange={(v) => set({ [k]: v })} hint={KNOB_HELP[k]} />
      ))}
      <SelectField
        field="knobs.proactiveBatch"
        label="proactiveBatch"
        value={knobs.proactiveBatch}
        options={BATCH_OPTIONS}
        onChange={(proactiveBatch) => set({ proactiveBatch })}
        hint="how memory.reclaim sizes its rounds"
      />
      <TextField field="knobs.swappiness" label="swappiness" value={knobs.swappiness} onChange={(swappiness) => set({ swappiness })} hint="vm.swappiness, 0-200" />
    </Group>
  );
}
