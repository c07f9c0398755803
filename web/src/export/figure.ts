// "Export SVG" and "Export PNG": the charts of the view shown, one under the
// other, as one standalone SVG document, each with the HTML legend the page
// reads it with drawn above it. Each chart is cloned with the
// styles the page computed for it written inline (the stylesheet does not
// travel with the file), so the file looks as the page did, in the theme the
// page had. A <canvas> (if a view draws on one) goes in as an <image>. The PNG
// is that SVG drawn onto a canvas.
const SVG_NS = 'http://www.w3.org/2000/svg';

/** Presentation properties copied from the computed style (inherited ones only where they change). */
const INHERITED = [
  'fill',
  'fill-opacity',
  'fill-rule',
  'stroke',
  'stroke-width',
  'stroke-opacity',
  'stroke-dasharray',
  'stroke-dashoffset',
  'stroke-linecap',
  'stroke-linejoin',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'font-variant-numeric',
  'letter-spacing',
  'text-anchor',
  'dominant-baseline',
  'visibility',
  'paint-order',
  'shape-rendering',
];
/** Properties that do not inherit, with their initial values (written only when they differ). */
const NOT_INHERITED: Record<string, string> = { opacity: '1', display: 'inline' };

const PAD = 16;
const HEADING = 30;
const CAPTION = 20;
const GAP = 12;
/** A legend's line: its swatches and labels (the page draws legends in HTML, beside the charts). */
const LEGEND = 18;

export interface Figure {
  /** The SVG document, with its XML declaration. */
  svg: string;
  width: number;
  height: number;
}

/** Writes the computed styles of `source` and its descendants onto `clone` (the same tree) as style attributes. */
function inlineStyles(source: Element, clone: Element, parent: CSSStyleDeclaration | null): void {
  const computed = getComputedStyle(source);
  const declarations: string[] = [];
  for (const property of INHERITED) {
    const value = computed.getPropertyValue(property);
    if (value && (!parent || parent.getPropertyValue(property) !== value)) declarations.push(`${property}:${value}`);
  }
  for (const [property, initial] of Object.entries(NOT_INHERITED)) {
    const value = computed.getPropertyValue(property);
    if (value && value !== initial && !(property === 'display' && value === 'block')) declarations.push(`${property}:${value}`);
  }
  if (declarations.length > 0) clone.setAttribute('style', declarations.join(';'));
  else clone.removeAttribute('style');
  // `text-transform` is CSS only: apply it to the text itself so every viewer shows the same letters.
  if (computed.getPropertyValue('text-transform') === 'uppercase') {
    for (const node of clone.childNodes) if (node.nodeType === Node.TEXT_NODE) node.textContent = node.textContent?.toUpperCase() ?? '';
  }
  const sources = source.children;
  const clones = clone.children;
  for (let i = 0; i < sources.length && i < clones.length; i++) inlineStyles(sources[i]!, clones[i]!, computed);
}

/**
 * What a chart is called: its label, else its card's title; prefixed with the
 * `data-export-prefix` of an enclosing element (compare mode's "Left: before").
 */
function captionOf(chart: Element): string {
  const own = chart.getAttribute('aria-label') || (chart.closest('.card')?.querySelector('.card-title')?.textContent?.trim() ?? '');
  const prefix = chart.closest('[data-export-prefix]')?.getAttribute('data-export-prefix');
  return prefix ? (own ? `${prefix} · ${own}` : prefix) : own;
}

/** The charts drawn in `container` (SVGs not nested in another, canvases), that are on screen. */
function chartsIn(container: Element): (SVGSVGElement | HTMLCanvasElement)[] {
  return [...container.querySelectorAll<SVGSVGElement | HTMLCanvasElement>('svg, canvas')].filter((el) => {
    if (el instanceof SVGSVGElement && el.parentElement?.closest('svg')) return false;
    if (el.closest('[aria-hidden="true"]')) return false;
    // A chart the page marks as not for figures (the CV sparkline: the pgsteal chart shows more).
    if (el.closest('[data-export="skip"]')) return false;
    const box = el.getBoundingClientRect();
    return box.width > 0 && box.height > 0;
  });
}

function text(x: number, y: number, content: string, style: string): SVGTextElement {
  const t = document.createElementNS(SVG_NS, 'text');
  t.setAttribute('x', String(x));
  t.setAttribute('y', String(y));
  t.setAttribute('style', style);
  t.textContent = content;
  return t;
}

/**
 * The HTML legend (`.legend-row`) a chart is read with: the last one in its
 * card before it. The page's legends are lists beside the SVG; the figure
 * draws them as SVG above the first chart that follows them.
 */
function legendOf(chart: Element): HTMLElement | null {
  const card = chart.closest('.card');
  if (!card) return null;
  let found: HTMLElement | null = null;
  for (const legend of card.querySelectorAll<HTMLElement>('.legend-row')) {
    if (legend.compareDocumentPosition(chart) & Node.DOCUMENT_POSITION_FOLLOWING) found = legend;
  }
  return found;
}

/** A line key (the pgsteal chart's mean) from `x`, `w` long at height `y`: the key's top border, dashed if the page's is. */
function lineKey(style: CSSStyleDeclaration, x: number, y: number, w: number): SVGLineElement {
  const line = document.createElementNS(SVG_NS, 'line');
  line.setAttribute('x1', String(x));
  line.setAttribute('x2', String(x + w));
  line.setAttribute('y1', String(y));
  line.setAttribute('y2', String(y));
  line.setAttribute('stroke', style.borderTopColor);
  line.setAttribute('stroke-width', style.borderTopWidth);
  if (style.borderTopStyle === 'dashed') line.setAttribute('stroke-dasharray', '4 3');
  return line;
}

/** A box key `w` × `h` from `x`, centred on height `y`: the key's colours, round if the page's is. */
function boxKey(style: CSSStyleDeclaration, x: number, y: number, w: number, h: number): SVGRectElement {
  const shape = document.createElementNS(SVG_NS, 'rect');
  shape.setAttribute('x', String(x));
  shape.setAttribute('y', String(y - h / 2));
  shape.setAttribute('width', String(w));
  shape.setAttribute('height', String(h));
  if (style.borderRadius.startsWith('50%')) shape.setAttribute('rx', String(w / 2));
  const fill = style.backgroundColor;
  shape.setAttribute('fill', fill && fill !== 'rgba(0, 0, 0, 0)' ? fill : 'none');
  // Its edge: a border, or an outline (the rounds' "batch asked" key).
  if (parseFloat(style.borderTopWidth) > 0) {
    shape.setAttribute('stroke', style.borderTopColor);
    shape.setAttribute('stroke-width', style.borderTopWidth);
  } else if (style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0) {
    shape.setAttribute('stroke', style.outlineColor);
    shape.setAttribute('stroke-width', style.outlineWidth);
  }
  return shape;
}

/** A legend as one SVG line at the origin: each item's swatch (its colours, round if the page's is) and its label; and its width. */
function legendSvg(legend: HTMLElement, font: string): { g: SVGGElement; width: number } {
  const g = document.createElementNS(SVG_NS, 'g');
  const muted = getComputedStyle(legend).color;
  const y = 0;
  let at = 0;
  for (const item of legend.querySelectorAll('li')) {
    const label = item.textContent?.trim() ?? '';
    const key = item.querySelector('span');
    if (key) {
      const style = getComputedStyle(key);
      const box = key.getBoundingClientRect();
      const w = Math.min(14, Math.max(3, box.width));
      const h = Math.min(14, Math.max(3, box.height));
      g.append(box.height < 3 && parseFloat(style.borderTopWidth) > 0 ? lineKey(style, at, y + 6, w) : boxKey(style, at, y + 6, w, h));
      at += w + 5;
    }
    g.append(text(at, y + 10, label, `fill:${muted};font-size:11.5px`));
    at += textWidth(label, `11.5px ${font}`) + 14;
  }
  return { g, width: Math.max(0, at - 14) };
}

/** The side a chart belongs to (compare mode's "Left: before"), from an enclosing `data-export-prefix`. */
function sideOf(chart: Element): string {
  return chart.closest('[data-export-prefix]')?.getAttribute('data-export-prefix') ?? '';
}

/** `content`, cut with an ellipsis to fit `width` in `font` (a caption in its column). */
function fitText(content: string, width: number, font: string): string {
  if (textWidth(content, font) <= width) return content;
  let end = content.length;
  while (end > 1 && textWidth(`${content.slice(0, end)}…`, font) > width) end--;
  return `${content.slice(0, end).trimEnd()}…`;
}

/** How wide `content` is drawn in `font` (for the heading, which must not be cut off). */
function textWidth(content: string, font: string): number {
  const context = document.createElement('canvas').getContext('2d');
  if (!context) return content.length * 9;
  context.font = font;
  return context.measureText(content).width;
}

/**
 * The charts in `container` as one SVG document headed by `heading`; null
 * when the container draws no chart (a table-only view). Charts of different
 * sides (compare mode) go in columns, one per side, each stacked in page order.
 */
export function composeFigure(container: Element, heading: string): Figure | null {
  const charts = chartsIn(container);
  if (charts.length === 0) return null;
  const page = getComputedStyle(document.documentElement);
  const colour = (name: string, fallback: string) => page.getPropertyValue(name).trim() || fallback;
  const font = page.getPropertyValue('--font').trim() || 'sans-serif';
  const boxes = new Map(charts.map((c) => [c, c.getBoundingClientRect()]));
  const sides = [...new Set(charts.map(sideOf))];
  const columns = sides.map((side) => charts.filter((c) => sideOf(c) === side));
  // Each legend once, above the first chart read with it.
  const legends = new Map<Element, { g: SVGGElement; width: number }>();
  const drawn = new Set<HTMLElement>();
  for (const chart of charts) {
    const legend = legendOf(chart);
    if (legend && !drawn.has(legend)) {
      drawn.add(legend);
      legends.set(chart, legendSvg(legend, font));
    }
  }
  const columnWidths = columns.map((column) => Math.max(...column.map((c) => Math.max(boxes.get(c)!.width, legends.get(c)?.width ?? 0))));

  const root = document.createElementNS(SVG_NS, 'svg');
  root.setAttribute('style', `font-family:${font}`);
  const background = document.createElementNS(SVG_NS, 'rect');
  background.setAttribute('width', '100%');
  background.setAttribute('height', '100%');
  background.setAttribute('fill', colour('--surface', '#ffffff'));
  root.append(background);
  root.append(text(PAD, PAD + 16, heading, `fill:${colour('--text', '#000')};font-size:16px;font-weight:700`));

  let bottom = PAD + HEADING;
  let x = PAD;
  columns.forEach((column, c) => {
    let y = PAD + HEADING;
    for (const chart of column) {
      const box = boxes.get(chart)!;
      // A caption keeps to its column (side by side, two columns' captions would run into each other).
      const caption = fitText(captionOf(chart), columnWidths[c]!, `600 13px ${font}`);
      if (caption) {
        root.append(text(x, y + 14, caption, `fill:${colour('--text-muted', '#555')};font-size:13px;font-weight:600`));
        y += CAPTION;
      }
      const legend = legends.get(chart);
      if (legend) {
        legend.g.setAttribute('transform', `translate(${x},${y})`);
        root.append(legend.g);
        y += LEGEND;
      }
      if (chart instanceof SVGSVGElement) {
        const clone = chart.cloneNode(true) as SVGSVGElement;
        inlineStyles(chart, clone, null);
        clone.setAttribute('x', String(x));
        clone.setAttribute('y', String(y));
        clone.setAttribute('width', String(box.width));
        clone.setAttribute('height', String(box.height));
        clone.setAttribute('overflow', 'visible');
        root.append(clone);
      } else {
        const image = document.createElementNS(SVG_NS, 'image');
        image.setAttribute('x', String(x));
        image.setAttribute('y', String(y));
        image.setAttribute('width', String(box.width));
        image.setAttribute('height', String(box.height));
        image.setAttribute('href', chart.toDataURL('image/png'));
        root.append(image);
      }
      y += box.height + GAP;
    }
    bottom = Math.max(bottom, y);
    x += columnWidths[c]! + 2 * PAD;
  });
  const width = Math.ceil(Math.max(x - PAD, textWidth(heading, `700 16px ${font}`) + 2 * PAD));
  const height = Math.ceil(bottom - GAP + PAD);
  root.setAttribute('width', String(width));
  root.setAttribute('height', String(height));
  root.setAttribute('viewBox', `0 0 ${width} ${height}`);
  // XMLSerializer writes the SVG namespace on the root (it has no parent to inherit it from).
  const svg = `<?xml version="1.0" encoding="UTF-8"?>\n${new XMLSerializer().serializeToString(root)}\n`;
  return { svg, width, height };
}

/** The figure drawn at `scale` times its size, as a PNG. */
export async function figurePng(figure: Figure, scale = 2): Promise<Blob> {
  const url = URL.createObjectURL(new Blob([figure.svg], { type: 'image/svg+xml' }));
  try {
    const image = new Image();
    image.src = url;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = Math.round(figure.width * scale);
    canvas.height = Math.round(figure.height * scale);
    const context = canvas.getContext('2d');
    if (!context) throw new Error('this browser cannot draw on a canvas');
    context.scale(scale, scale);
    context.drawImage(image, 0, 0, figure.width, figure.height);
    return await new Promise<Blob>((resolve, reject) =>
      canvas.toBlob((blob) => (blob ? resolve(blob) : reject(new Error('the canvas could not be encoded as PNG'))), 'image/png'),
    );
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** Saves a blob under `name` (an object URL and a download link). */
export function download(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The download has started by the next task; the URL is not needed after that.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
