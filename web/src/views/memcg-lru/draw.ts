// Draws a node's memcg LRU into an <svg> React owns: three rows (generation
// slots 0 to 2, labelled old, young or spare) of eight bins, and a chip per memcg
// keyed by its path. When lru_gen_rotate_memcg moves a memcg to another bin
// or generation, its chip travels there with a D3 transition (none with
// reduced motion) and stays outlined until the next frame.
import { easeCubicInOut, interrupt, select, type BaseType } from 'd3';
import { layer, root } from '../../util/d3';
import { counted } from '../../util/format';
import type { LruBin, LruChip, LruRow, MemcgLruLayout } from './model';

/** Where each chip was last drawn, per <svg>: to tell which chips moved. */
const lastPlace = new WeakMap<SVGSVGElement, Map<string, string>>();

export function drawMemcgLru(node: SVGSVGElement, model: MemcgLruLayout, options: { duration: number }): void {
  const { duration } = options;
  if (duration === 0) node.querySelectorAll('*').forEach((el) => interrupt(el, 'memcg-lru'));
  select(node)
    .attr('width', model.width)
    .attr('height', model.height)
    .attr('viewBox', `0 0 ${model.width} ${model.height}`)
    .attr('data-style', model.style);
  const svg = root(node);
  const transition = select<BaseType, unknown>(node).transition('memcg-lru').duration(duration).ease(easeCubicInOut);

  const frame = layer<SVGGElement>(svg, 'g', 'frame').attr('aria-hidden', 'true');

  // Bin numbers over the columns.
  const firstRow = model.bins.filter((b) => b.gen === 0);
  layer<SVGGElement>(frame, 'g', 'bin-numbers')
    .selectAll<SVGTextElement, LruBin>('text')
    .data(firstRow, (b) => String(b.bin))
    .join('text')
    .attr('class', 'bin-number')
    .attr('x', (b) => b.x + b.width / 2)
    .attr('y', 12)
    .text((b) => `bin ${b.bin}`);

  // Rows: the slot's title (old/young), gen and memcg count.
  const rows = layer<SVGGElement>(frame, 'g', 'rows')
    .selectAll<SVGGElement, LruRow>('g.row')
    .data(model.rows, (r) => String(r.gen))
    .join((enter) => {
      const g = enter.append('g').attr('class', 'row');
      g.append('text').attr('class', 'row-title');
      g.append('text').attr('class', 'row-detail');
      g.append('text').attr('class', 'row-count');
      return g;
    })
    .attr('data-gen', (r) => r.gen)
    .attr('data-role', (r) => r.role)
    .classed('old', (r) => r.role === 'old')
    .classed('spare', (r) => r.role === 'spare');
  // A thin (empty spare) row has its title and gen on one line.
  const thin = (r: LruRow) => r.height < 40;
  rows
    .select('text.row-title')
    .attr('x', 4)
    .attr('y', (r) => r.y + (thin(r) ? 15 : 16))
    .text((r) => (thin(r) ? `${r.role} · gen ${r.gen}` : r.role));
  rows
    .select('text.row-detail')
    .attr('x', 4)
    .attr('y', (r) => r.y + 30)
    .text((r) => (thin(r) ? '' : `gen ${r.gen}`));
  rows
    .select('text.row-count')
    .attr('x', 4)
    .attr('y', (r) => r.y + 44)
    .text((r) => (thin(r) ? '' : counted(r.memcgs, 'memcg')));

  layer<SVGGElement>(frame, 'g', 'bins')
    .selectAll<SVGRectElement, LruBin>('rect')
    .data(model.bins, (b) => `${b.gen}/${b.bin}`)
    .join('rect')
    .attr('class', (b) => {
      const role = model.rows[b.gen]?.role;
      return role === 'old' || role === 'spare' ? `bin ${role}` : 'bin';
    })
    .attr('data-testid', 'memcg-bin')
    .attr('data-gen', (b) => b.gen)
    .attr('data-bin', (b) => b.bin)
    .attr('rx', 4)
    .attr('x', (b) => b.x)
    .attr('y', (b) => b.y)
    .attr('width', (b) => b.width)
    .attr('height', (b) => b.height);

  // The chips, keyed by memcg path.
  const before = lastPlace.get(node) ?? new Map<string, string>();
  const place = (c: LruChip) => `${c.gen}/${c.bin}`;
  const moved = (c: LruChip) => before.has(c.path) && before.get(c.path) !== place(c);
  lastPlace.set(node, new Map(model.chips.map((c) => [c.path, place(c)])));

  const list = layer<SVGGElement>(svg, 'g', 'chips').attr('role', 'list').attr('aria-label', `Memcgs on the ${model.label}`);
  list.selectAll('g.chip.leaving').remove();
  const translate = (c: LruChip) => `translate(${c.x},${c.y})`;
  const join = list.selectAll<SVGGElement, LruChip>('g.chip').data(model.chips, (c) => c.path);
  const entering = join
    .enter()
    .append('g')
    .attr('class', 'chip')
    .attr('role', 'listitem')
    .attr('data-testid', 'memcg-chip')
    .attr('opacity', 0)
    .attr('transform', translate);
  entering.append('rect').attr('class', 'chip-body');
  entering.append('text').attr('class', 'chip-text');
  entering.append('title');
  join
    .exit()
    .classed('leaving', true)
    .attr('role', null)
    .transition(transition)
    .attr('opacity', 0)
    .remove();

  const chips = entering.merge(join);
  const w = model.chipWidth;
  const h = model.chipHeight;
  chips
    .attr('data-path', (c) => c.path)
    .attr('data-gen', (c) => c.gen)
    .attr('data-bin', (c) => c.bin)
    .attr('data-index', (c) => c.index)
    .attr('aria-label', (c) => c.label)
    .classed('old', (c) => c.old)
    .classed('root', (c) => c.path === '/')
    .classed('moved', moved);
  chips.select('title').text((c) => c.label);
  chips
    .select('rect.chip-body')
    .attr('x', -w / 2)
    .attr('y', -h / 2)
    .attr('width', w)
    .attr('height', h)
    .attr('rx', model.style === 'chips' ? 4 : h / 2);
  chips
    .select('text.chip-text')
    .attr('y', 3.5)
    .text((c) => (model.style === 'chips' ? c.text : ''));
  chips.transition(transition).attr('opacity', 1).attr('transform', translate);
}
