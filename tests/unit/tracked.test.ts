// The tracked sample's compact form (Frame.tracked) as the views read it,
// against the real engine (the wasm-pack build): the records decoded from
// its bytes are the engine's own records, each page is found again by name,
// and the canvas layout of ten thousand folios puts every one of them in the
// right column.
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import init, { Engine, compareExperiment, listScenarios } from '../../web/src/engine/pkg/reclaim_core';
import type { Frame, ScenarioList, ScenarioRequest } from '../../web/src/engine/pkg/reclaim_core';
import { createEngineHost, type EngineHost } from '../../web/src/engine/host';
import type { CommandBody, WorkerCommand } from '../../web/src/engine/protocol';
import { makeRequest } from '../../web/src/scenario/params';
import { completeRequest } from '../../web/src/scenario/presets';
import { denseDots, denseSummary, groupAt, nearestDot } from '../../web/src/views/generations/denseDots';
import { chartGeometry } from '../../web/src/views/generations/draw';
import { lruvecKey, lruvecModel } from '../../web/src/views/generations/model';
import { lruvecRecords, TrackedIndex, trackedByLruvec, trackedCount } from '../../web/src/views/generations/tracked';

const WASM = new URL('../../web/src/engine/pkg/reclaim_core_bg.wasm', import.meta.url);
let scenarios: ScenarioList;
let nextId = 1;

beforeAll(async () => {
  await init({ module_or_path: readFileSync(WASM) });
  scenarios = listScenarios();
});

function frameOf(host: EngineHost, command: CommandBody): Frame {
  const reply = host.handle({ ...command, id: nextId++ } as WorkerCommand);
  if (reply.type !== 'frame') throw new Error(`expected a frame, got ${JSON.stringify(reply)}`);
  return reply.frame;
}

function request(name: string, params: Record<string, number>): ScenarioRequest {
  return completeRequest(scenarios, makeRequest(name, 3, params));
}

/** 10,000 tracked pages of a 16,384-page file and a 4,096-page heap, in a memcg of 12,288 pages. */
const BIG = { memory_max: 12_288, file_pages: 16_384, anon_pages: 4_096, tracked_pages: 10_000 };

describe('the compact tracked sample', () => {
  it('decodes to the engine’s own records, step after step', () => {
    for (const [name, params] of [
      ['mglru-basic', { anon_pages: 3000, file_pages: 3000 }],
      ['classic-basic', { anon_pages: 3000, file_pages: 3000 }],
      ['proactive-root', { memcgs: 8 }],
    ] as const) {
      const host = createEngineHost({ Engine, listScenarios, compareExperiment });
      let frame = frameOf(host, { type: 'init', request: request(name, params) });
      const index = new TrackedIndex(frame.tracked);
      expect(index.count).toBe(frame.folios.length);
      for (let k = 0; k < 6; k++) {
        frame = frameOf(host, { type: 'step', n: 15 });
        expect(trackedCount(frame.tracked)).toBe(frame.folios.length);
        const decoded = Array.from({ length: index.count }, (_, i) => index.record(frame, i));
        expect(decoded, `${name} at step ${frame.step}`).toEqual(frame.folios);
        // Each lruvec's pages are the ones the records put there.
        const by = trackedByLruvec(frame, index);
        const total = [...by.values()].reduce((n, f) => n + f.ids.length, 0);
        expect(total).toBe(frame.folios.length);
        for (const l of frame.lruvecs) {
          for (const f of lruvecRecords(by.get(lruvecKey(l))!)) {
            if (f.state === 'resident') expect([f.memcg, f.node]).toEqual([l.memcg, l.node]);
            else expect(f.memcg).toBe(l.memcg);
          }
        }
      }
      expect(frame.folios.some((f) => f.state === 'resident')).toBe(true);
    }
  });

  it('finds each page by its name and nothing else', () => {
    const host = createEngineHost({ Engine, listScenarios, compareExperiment });
    const frame = frameOf(host, { type: 'init', request: request('mglru-basic', {}) });
    const index = new TrackedIndex(frame.tracked);
    for (let i = 0; i < index.count; i++) expect(index.find(index.page(i))).toBe(i);
    const stride = frame.tracked.spaces[0]!.stride;
    expect(stride).toBeGreaterThan(1);
    const name = frame.tracked.spaces[0]!.name;
    for (const page of [`${name}#1`, `${name}#${stride * 10_000}`, `${name}#-${stride}`, `${name}#x`, 'nope#0', 'garbage', '']) {
      expect(index.find(page), page).toBe(-1);
    }
  });

  it('comes without full records for 10,000 pages, and the canvas layout places every one', () => {
    const host = createEngineHost({ Engine, listScenarios, compareExperiment });
    frameOf(host, { type: 'init', request: request('mglru-basic', BIG) });
    const frame = frameOf(host, { type: 'step', n: 200 });
    expect(frame.folios).toEqual([]);
    expect(trackedCount(frame.tracked)).toBe(10_000);
    expect(frame.tracked.cells.byteLength).toBe(40_000);
    const index = new TrackedIndex(frame.tracked);
    const [lruvec] = frame.lruvecs.filter((l) => l.memcg === '/job');
    const folios = trackedByLruvec(frame, index).get(lruvecKey(lruvec!))!;
    expect(folios.ids.length).toBe(10_000);

    const model = lruvecModel(lruvec!);
    const geometry = chartGeometry(model, 700, 460, 56);
    const dots = denseDots(model, folios, geometry);
    const records = lruvecRecords(folios);
    const drawn = records.filter((f) => f.state !== 'absent');
    expect(dots.ids.length).toBe(drawn.length);
    expect(dots.absent).toBe(records.length - drawn.length);
    expect(dots.unplaced).toBe(0);
    expect(dots.resident).toBe(drawn.filter((f) => f.state === 'resident').length);
    expect(dots.resident).toBeGreaterThan(4_000);
    expect(dots.notResident).toBeGreaterThan(100);
    // Every dot is where its record says: its generation's column and its type's bar, or the lane.
    for (let at = 0; at < dots.ids.length; at++) {
      const f = index.record(frame, dots.ids[at]!);
      const group = groupAt(dots, at)!;
      expect(group.kind).toBe(f.kind);
      if (f.state === 'resident') {
        expect(group.column).toBe(`seq:${f.seq}`);
        const left = geometry.x(group.column!)! + geometry.xType(group.kind)!;
        expect(dots.x[at]).toBeGreaterThanOrEqual(left);
        expect(dots.x[at]).toBeLessThanOrEqual(left + geometry.xType.bandwidth());
        expect(dots.y[at]).toBeGreaterThan(0);
        expect(dots.y[at]).toBeLessThan(geometry.innerHeight);
      } else {
        expect(group.column).toBeNull();
        expect(dots.y[at]).toBeGreaterThan(geometry.laneTop);
        expect(dots.y[at]).toBeLessThan(geometry.laneTop + geometry.laneHeight);
      }
    }
    // Dots do not overlap: each has a cell of its own.
    const cells = new Set(Array.from(dots.ids, (_, at) => `${Math.round(dots.x[at]! * 8)},${Math.round(dots.y[at]! * 8)}`));
    expect(cells.size).toBe(dots.ids.length);
    // Reading order: groups in column order, then the lane; a click finds the dot under it.
    expect(dots.groups.at(-1)!.column).toBeNull();
    const some = Math.floor(dots.ids.length / 3);
    expect(nearestDot(dots, dots.x[some]!, dots.y[some]!, 4)).toBe(some);
    expect(denseSummary(dots)).toMatch(/^Tracked folios by place: generation \d+, (anon|file): [\d,]+;/);
  });

  it('the sample size is a parameter with a range', () => {
    const info = scenarios.scenarios.find((s) => s.name === 'mglru-basic')!.params.find((p) => p.name === 'tracked_pages');
    expect(info).toMatchObject({ default: 0, min: 0, max: 65_536, integer: true });
    const host = createEngineHost({ Engine, listScenarios, compareExperiment });
    const reply = host.handle({ id: nextId++, type: 'init', request: makeRequest('mglru-basic', 1, { tracked_pages: 70_000 }) });
    expect(reply.type).toBe('error');
    expect(reply.type === 'error' && reply.message).toMatch(/tracked_pages.*from 0 to 65536/);
  });
});
