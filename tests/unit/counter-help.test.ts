// Every /proc/vmstat counter the engine emits has its meaning in the
// counters table's tooltip (web/src/views/counters/help.ts).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { counterHelp } from '../../web/src/views/counters/help';

const SIM = fileURLToPath(new URL('../../wasm-core/target/release/reclaim-sim', import.meta.url));

describe('counter help', () => {
  it('names the meaning of every counter the engine emits', () => {
    const { vmstat } = JSON.parse(execFileSync(SIM, ['run', 'mglru-basic', '--json', '--steps', '1'], { encoding: 'utf8' })) as { vmstat: Record<string, number> };
    const names = Object.keys(vmstat);
    expect(names.length).toBeGreaterThan(40);
    expect(names.filter((n) => counterHelp(n) === null)).toEqual([]);
  });

  it('says which counters are not in pages', () => {
    expect(counterHelp('pgpgout')).toMatch(/^KiB submitted/);
    expect(counterHelp('pswpout')).toBe('Pages written to swap.');
    expect(counterHelp('allocstall_dma32')).toBe('Allocations, with ZONE_DMA32 their highest zone, that entered direct reclaim.');
    expect(counterHelp('nr_active_file')).toMatch(/^Pages on the active file list/);
    expect(counterHelp('no_such_counter')).toBeNull();
  });
});
