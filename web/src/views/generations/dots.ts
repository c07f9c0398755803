// The tracked folios over the generations chart: one dot per tracked page,
// keyed by page so a folio that changes generation (or list) moves across
// and an evicted one drops into the lane below the axis; the dots form a
// listbox with one tab stop (arrows move, Enter or Space selects, Escape
// clears). draw.ts places the chart and calls drawDots.
import type { BaseType, Transition } from 'd3';
import { layer, type AnySelection } from '../../util/d3';
import { listboxKey } from '../../util/listbox';
import type { FolioOptions } from './draw';
import type { FolioDot } from './folios';

export interface DotGeometry {
  transition: Transition<BaseType, unknown, null, undefined>;
  position(d: FolioDot): [number, number];
  spacing(d: FolioDot): number;
  radius(d: FolioDot): number;
  margin: { top: number; left: number };
}

/**
 * The tracked folios: a listbox of dots (one option per page) with one tab
 * stop; arrows move between dots, Enter or Space selects, Escape clears.
 */
export function drawDots(root: AnySelection<BaseType>, folios: FolioOptions, geometry: DotGeometry): void {
  const { transition, position, spacing, radius, margin } = geometry;
  const translate = (d: FolioDot) => {
    const [cx, cy] = position(d);
    return `translate(${cx},${cy})`;
  };
  const listbox = layer<SVGGElement>(root, 'g', 'folios')
    .attr('role', 'listbox')
    .attr('aria-label', folios.label)
    .attr('aria-orientation', 'horizontal')
    .attr('transform', `translate(${margin.left},${margin.top})`);
  const listNode = listbox.node()!;
  const focused = document.activeElement;

  listbox.selectAll('g.folio.leaving').remove();
  const join = listbox.selectAll<SVGGElement, FolioDot>('g.folio').data(folios.dots.dots, (d) => d.page);

  const entering = join
    .enter()
    .append('g')
    .attr('class', 'folio')
    .attr('role', 'option')
    .attr('data-testid', 'folio-dot')
    .attr('opacity', 0)
    .attr('transform', translate);
  entering.append('circle').attr('class', 'hit');
  entering.append('circle').attr('class', 'halo');
  entering.append('circle').attr('class', 'dot').attr('r', 0);
  entering.append('title');

  join
    .exit()
    .classed('leaving', true)
    .attr('role', null)
    .attr('tabindex', null)
    .attr('aria-hidden', 'true')
    .transition(transition)
    .attr('opacity', 0)
    .remove();

  const dots = entering.merge(join);
  // Reading order = keyboard order; moving the focused dot in the DOM blurs it, so it is focused again.
  dots.order();
  if (focused instanceof SVGElement && focused.isConnected && document.activeElement !== focused) {
    focused.focus({ preventScroll: true });
  }

  const { selected } = folios;
  const pages = new Set(folios.dots.dots.map((d) => d.page));
  const remembered = listNode.dataset.active;
  const active =
    selected !== null && pages.has(selected)
      ? selected
      : remembered && pages.has(remembered)
        ? remembered
        : (folios.dots.dots[0]?.page ?? null);
  if (active) listNode.dataset.active = active;

  dots
    .attr('data-page', (d) => d.page)
    .attr('data-kind', (d) => d.kind)
    .attr('data-state', (d) => d.state)
    .attr('data-column', (d) => d.column ?? 'lane')
    .attr('data-seq', (d) => d.seq)
    .attr('data-tier', (d) => d.tier)
    .attr('aria-label', (d) => d.label)
    .attr('aria-selected', (d) => String(d.page === selected))
    .attr('tabindex', (d) => (d.page === active ? 0 : -1))
    .attr('class', (d) => `folio folio-${d.kind} state-${d.state}${d.page === selected ? ' selected' : ''}`)
    .on('click', (_, d) => folios.onSelect(d.page))
    .on('focus', (_, d) => {
      // Roving tab stop: the last dot focused is where Tab comes back to.
      listNode.dataset.active = d.page;
      listbox.selectAll<SVGGElement, FolioDot>('g.folio').attr('tabindex', (o) => (o.page === d.page ? 0 : -1));
    })
    .on('keydown', (event: KeyboardEvent, d) => onDotKey(event, d, listNode, folios));
  dots.select('title').text((d) => d.label);
  dots
    .select('circle.hit')
    .attr('r', (d) => spacing(d) / 2 + 0.5)
    .attr('fill', 'transparent');
  dots.select('circle.halo').attr('r', (d) => radius(d) + 4);
  dots
    .transition(transition)
    .attr('opacity', 1)
    .attr('transform', translate)
    .select('circle.dot')
    .attr('r', radius);
}

function onDotKey(event: KeyboardEvent, d: FolioDot, list: SVGGElement, folios: FolioOptions): void {
  const options = Array.from(list.querySelectorAll<SVGGElement>(':scope > g.folio:not(.leaving)'));
  listboxKey(event, options, options.findIndex((o) => o.dataset.page === d.page), d.page, (page) => folios.onSelect(page));
}
