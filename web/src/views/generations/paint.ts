// Writes many small square dots straight into a canvas's pixels (one
// putImageData a frame), which on a software-rendered canvas is several
// times faster than a fill call per dot, then strokes the rings of the
// selected and the focused dot with the 2D API on top.

/** Packed RGBA (as a Uint32Array over the pixels reads it) per dot style: anon, file, anon evicted, file evicted. */
export interface DotColors {
  styles: Uint32Array;
  selected: string;
  focus: string;
}

/** The theme's colours of the dots, read from the CSS variables at `element`. */
export function readDotColors(element: HTMLElement | HTMLCanvasElement): DotColors {
  const css = getComputedStyle(element);
  const value = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  const probe = document.createElement('canvas');
  probe.width = 1;
  probe.height = 1;
  const context = probe.getContext('2d', { willReadFrequently: true });
  const pack = (color: string): number => {
    if (!context) return 0xff808080;
    context.clearRect(0, 0, 1, 1);
    context.fillStyle = color;
    context.fillRect(0, 0, 1, 1);
    const [r, g, b, a] = context.getImageData(0, 0, 1, 1).data;
    return new Uint32Array(new Uint8ClampedArray([r!, g!, b!, a!]).buffer)[0]!;
  };
  return {
    styles: Uint32Array.from(
      [value('--anon-dot', '#3b2790'), value('--file-dot', '#0b5a4f'), value('--anon', '#8068e8'), value('--file', '#1f9e8c')].map(pack),
    ),
    selected: value('--selected', '#e8590c'),
    focus: value('--focus', '#7c86f2'),
  };
}

/** The dots: centres and sides in CSS px (plot coordinates), and a style each. */
export interface DotArrays {
  x: Float32Array;
  y: Float32Array;
  side: Float32Array;
  style: Uint8Array;
}

export interface PaintOptions {
  dpr: number;
  /** The plot's offset in the canvas, CSS px. */
  left: number;
  top: number;
  /** Positions (in the arrays) of the dot to ring as selected and as the keyboard's (-1: none). */
  rings: { selectedAt: number; activeAt: number; focused: boolean };
}

export function easeOut(t: number): number {
  const u = 1 - t;
  return 1 - u * u * u;
}

/** Clears `image`, writes the dots into it, puts it on the canvas and draws the rings. */
export function paintDots(context: CanvasRenderingContext2D, image: ImageData, dots: DotArrays, colors: DotColors, options: PaintOptions): void {
  const { dpr, left, top, rings } = options;
  const width = image.width;
  const height = image.height;
  const pixels = new Uint32Array(image.data.buffer);
  pixels.fill(0);
  const n = dots.x.length;
  for (let j = 0; j < n; j++) {
    const s = Math.max(1, Math.round(dots.side[j]! * dpr));
    const x0 = Math.round((left + dots.x[j]!) * dpr - s / 2);
    const y0 = Math.round((top + dots.y[j]!) * dpr - s / 2);
    const color = colors.styles[dots.style[j]!]!;
    const xa = Math.max(0, x0);
    const xb = Math.min(width, x0 + s);
    if (xa >= xb) continue;
    const ya = Math.max(0, y0);
    const yb = Math.min(height, y0 + s);
    for (let yy = ya; yy < yb; yy++) pixels.fill(color, yy * width + xa, yy * width + xb);
  }
  context.putImageData(image, 0, 0);
  const ring = (at: number, color: string, lineWidth: number) => {
    if (at < 0 || at >= n) return;
    const r = Math.max(4, dots.side[at]! + 3);
    context.save();
    context.scale(dpr, dpr);
    context.strokeStyle = color;
    context.lineWidth = lineWidth;
    context.beginPath();
    context.arc(left + dots.x[at]!, top + dots.y[at]!, r, 0, 2 * Math.PI);
    context.stroke();
    context.restore();
  };
  if (rings.focused) ring(rings.activeAt, colors.focus, 2);
  ring(rings.selectedAt, colors.selected, 2.5);
}
