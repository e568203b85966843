// Draws a recorded embedded chart (type, options, the values of its ranges) as inline SVG for the `kaigi serve`
// Dashboard preview: COLUMN, BAR, LINE, AREA, COMBO and PIE; other types are drawn as lines and say so. All text is
// escaped.
import { escapeHtml } from '../gas/html.js';

interface ChartSeries {
  name: string;
  values: (number | null)[];
}

// The first column holds the categories, each other column a series; the header row (when there is one) names them.
export interface ChartData {
  categories: string[];
  series: ChartSeries[];
}

export interface ChartSpec {
  id: number;
  chartType: string;
  options: Record<string, unknown>;
}

const W = 460;
const H = 260;
const PAD = { left: 52, right: 12, top: 28, bottom: 44 };
const PALETTE = ['#4285f4', '#db4437', '#f4b400', '#0f9d58', '#ab47bc', '#00acc1', '#ff7043', '#9e9d24'];

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

// Rows of one or more ranges side by side (Sheets joins a chart's ranges column-wise); `labels` are the display
// values, used for the categories and the header row. `numHeaders` (the chart's option) says whether the first row
// names the series; without it, a first row with no number in the series columns does, as Sheets guesses.
export function chartData(values: unknown[][], labels: string[][], numHeaders?: unknown): ChartData {
  if (!values.length || !values[0].length) return { categories: [], series: [] };
  const cols = values[0].length;
  const header =
    typeof numHeaders === 'number' ? numHeaders > 0 : values[0].slice(1).every((v) => num(v) === null) && cols > 1;
  const body = header ? values.slice(1) : values;
  const bodyLabels = header ? labels.slice(1) : labels;
  const series: ChartSeries[] = [];
  for (let c = 1; c < cols; c++)
    series.push({
      name: header ? String(labels[0][c] ?? '') : `Series ${c}`,
      values: body.map((row) => num(row[c])),
    });
  return { categories: bodyLabels.map((row) => String(row[0] ?? '')), series };
}

function title(spec: ChartSpec): string {
  const t = spec.options.title;
  return typeof t === 'string' && t ? t : `Chart ${spec.id}`;
}

function colors(spec: ChartSpec): string[] {
  const c = spec.options.colors;
  // Only plain colour names and #hex reach an attribute, so an option cannot inject markup or script.
  const ok = Array.isArray(c) ? c.filter((x) => typeof x === 'string' && /^(#[0-9a-f]{3,8}|[a-z]+)$/i.test(x)) : [];
  return ok.length ? (ok as string[]) : PALETTE;
}

// Round tick steps (1, 2, 5 × 10^k) from the lowest value (or 0) to the highest.
function scale(values: number[]): { lo: number; hi: number; ticks: number[] } {
  let lo = Math.min(0, ...values);
  let hi = Math.max(0, ...values);
  if (lo === hi) hi = lo + 1;
  const raw = (hi - lo) / 5;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? raw;
  lo = Math.floor(lo / step) * step;
  hi = Math.ceil(hi / step) * step;
  const ticks: number[] = [];
  for (let v = lo; v <= hi + step / 2; v += step) ticks.push(Number(v.toPrecision(12)));
  return { lo, hi, ticks };
}

const fmt = (n: number) => (Math.abs(n) >= 1000 ? n.toLocaleString('en-US') : String(Number(n.toPrecision(6))));
const short = (s: string) => (s.length > 12 ? `${s.slice(0, 11)}…` : s);

function text(x: number, y: number, s: string, attrs = ''): string {
  return `<text x="${x.toFixed(1)}" y="${y.toFixed(1)}"${attrs ? ` ${attrs}` : ''}>${escapeHtml(s)}</text>`;
}

// A label's width in the legend's 11px type: CJK characters about twice a Latin one.
const widthOf = (s: string) => [...s].reduce((w, ch) => w + (/[\u3000-\u9fff\uff00-\uffef]/.test(ch) ? 11 : 6.5), 0);

// Every series (or slice) by its full name, in as many rows below the plot as they need: `extra` is the height the
// rows past the first add to the chart.
function legend(names: string[], palette: string[]): { svg: string; extra: number } {
  let x = PAD.left;
  let row = 0;
  const items = names.map((n, i) => {
    const w = 24 + widthOf(n);
    if (x > PAD.left && x + w > W - PAD.right) {
      x = PAD.left;
      row++;
    }
    const y = H - 14 + row * 16;
    const item =
      `<g class="legend-item"><rect x="${x}" y="${y}" width="10" height="10" fill="${palette[i % palette.length]}"/>` +
      `${text(x + 14, y + 9, n, 'font-size="11"')}</g>`;
    x += w;
    return item;
  });
  return { svg: `<g class="legend">${items.join('')}</g>`, extra: row * 16 };
}

type Drawn = { svg: string; extra: number };

// A series' option as Sheets keeps it ('series.1.targetAxisIndex'), or undefined.
const seriesOption = (spec: ChartSpec, i: number, key: string): unknown => spec.options[`series.${i}.${key}`];

// Axes, grid lines and category labels for column, line and area charts (values up the side). A combo chart draws
// each series as its 'series.N.type' option says (bars or line; by default the first as columns, the rest as lines,
// as Sheets does); a series whose 'series.N.targetAxisIndex' is 1 is scaled on an axis of its own, on the right,
// titled by 'vAxes.1.title'.
function cartesian(
  data: ChartData,
  palette: string[],
  chart: 'COLUMN' | 'LINE' | 'AREA' | 'COMBO',
  spec: ChartSpec,
): Drawn {
  const onRight = data.series.map((_, i) => seriesOption(spec, i, 'targetAxisIndex') === 1);
  const right = onRight.some((r) => r);
  const padRight = right ? 52 : PAD.right;
  const valuesOf = (side: boolean) =>
    data.series.filter((_, i) => onRight[i] === side).flatMap((s) => s.values.filter((v): v is number => v !== null));
  const axes = [false, true].map((side) => {
    const all = valuesOf(side);
    return scale(all.length ? all : [0]);
  });
  const pw = W - PAD.left - padRight;
  const ph = H - PAD.top - PAD.bottom;
  const yOn = (side: boolean) => (v: number) => {
    const { lo, hi } = axes[side ? 1 : 0];
    return PAD.top + ph - ((v - lo) / (hi - lo)) * ph;
  };
  const y = yOn(false);
  const n = Math.max(data.categories.length, 1);
  const band = pw / n;
  const out: string[] = [];
  for (const t of axes[0].ticks)
    out.push(
      `<line class="grid" x1="${PAD.left}" x2="${W - padRight}" y1="${y(t).toFixed(1)}" y2="${y(t).toFixed(1)}" stroke="#e0e0e0"/>`,
      text(PAD.left - 4, y(t) + 4, fmt(t), 'font-size="10" text-anchor="end"'),
    );
  if (right)
    for (const t of axes[1].ticks)
      out.push(text(W - padRight + 4, yOn(true)(t) + 4, fmt(t), 'font-size="10" class="right-tick"'));
  for (const [i, anchor, x] of [
    [0, 'start', 4],
    [1, 'end', W - 4],
  ] as const) {
    const t = spec.options[`vAxes.${i}.title`];
    if (typeof t === 'string' && t && (i === 0 || right))
      out.push(text(x, 14, t, `font-size="10" text-anchor="${anchor}" fill="#5f6368" class="axis-title"`));
  }
  data.categories.forEach((c, i) =>
    out.push(text(PAD.left + band * (i + 0.5), H - PAD.bottom + 14, short(c), 'font-size="10" text-anchor="middle"')),
  );
  const kindOf = (si: number): 'COLUMN' | 'LINE' | 'AREA' => {
    if (chart !== 'COMBO') return chart;
    const t = seriesOption(spec, si, 'type');
    if (t === 'bars') return 'COLUMN';
    if (t === 'line') return 'LINE';
    if (t === 'area') return 'AREA';
    return si === 0 ? 'COLUMN' : 'LINE';
  };
  const columnSeries = data.series.map((_, si) => si).filter((si) => kindOf(si) === 'COLUMN');
  data.series.forEach((s, si) => {
    const color = palette[si % palette.length];
    const kind = kindOf(si);
    const ys = yOn(onRight[si]);
    if (kind === 'COLUMN') {
      const bw = (band * 0.8) / Math.max(columnSeries.length, 1);
      const slot = columnSeries.indexOf(si);
      s.values.forEach((v, i) => {
        if (v === null) return;
        const x = PAD.left + band * i + band * 0.1 + bw * slot;
        const top = Math.min(ys(v), ys(0));
        out.push(
          `<rect class="bar" x="${x.toFixed(1)}" y="${top.toFixed(1)}" width="${bw.toFixed(1)}" height="${Math.abs(ys(v) - ys(0)).toFixed(1)}" fill="${color}"><title>${escapeHtml(`${s.name}: ${data.categories[i]} ${fmt(v)}`)}</title></rect>`,
        );
      });
      return;
    }
    const pts = s.values
      .map((v, i) => (v === null ? null : `${(PAD.left + band * (i + 0.5)).toFixed(1)},${ys(v).toFixed(1)}`))
      .filter((p): p is string => p !== null);
    if (kind === 'AREA' && pts.length)
      out.push(
        `<polygon class="area" points="${pts[0].split(',')[0]},${ys(0).toFixed(1)} ${pts.join(' ')} ${pts[pts.length - 1].split(',')[0]},${ys(0).toFixed(1)}" fill="${color}" fill-opacity="0.3"/>`,
      );
    out.push(
      `<polyline class="line${onRight[si] ? ' right-axis' : ''}" points="${pts.join(' ')}" fill="none" stroke="${color}" stroke-width="2"/>`,
    );
    for (const p of pts) {
      const [px, py] = p.split(',');
      out.push(`<circle class="point" cx="${px}" cy="${py}" r="2.5" fill="${color}"/>`);
    }
  });
  const lo = axes[0].lo;
  out.push(
    `<line class="axis" x1="${PAD.left}" x2="${PAD.left}" y1="${PAD.top}" y2="${H - PAD.bottom}" stroke="#5f6368"/>`,
    `<line class="axis" x1="${PAD.left}" x2="${W - padRight}" y1="${y(Math.max(lo, 0)).toFixed(1)}" y2="${y(Math.max(lo, 0)).toFixed(1)}" stroke="#5f6368"/>`,
  );
  if (right)
    out.push(
      `<line class="axis right" x1="${W - padRight}" x2="${W - padRight}" y1="${PAD.top}" y2="${H - PAD.bottom}" stroke="#5f6368"/>`,
    );
  const key = legend(
    data.series.map((s) => s.name),
    palette,
  );
  return { svg: out.join('') + key.svg, extra: key.extra };
}

// Horizontal bars: categories down the side, values along the bottom.
function bars(data: ChartData, palette: string[]): Drawn {
  const all = data.series.flatMap((s) => s.values.filter((v): v is number => v !== null));
  const { lo, hi, ticks } = scale(all.length ? all : [0]);
  const left = 90;
  const pw = W - left - PAD.right;
  const ph = H - PAD.top - PAD.bottom;
  const x = (v: number) => left + ((v - lo) / (hi - lo)) * pw;
  const band = ph / Math.max(data.categories.length, 1);
  const out: string[] = [];
  for (const t of ticks)
    out.push(
      `<line class="grid" x1="${x(t).toFixed(1)}" x2="${x(t).toFixed(1)}" y1="${PAD.top}" y2="${H - PAD.bottom}" stroke="#e0e0e0"/>`,
      text(x(t), H - PAD.bottom + 14, fmt(t), 'font-size="10" text-anchor="middle"'),
    );
  data.categories.forEach((c, i) =>
    out.push(text(left - 4, PAD.top + band * (i + 0.5) + 4, short(c), 'font-size="10" text-anchor="end"')),
  );
  const bh = (band * 0.8) / Math.max(data.series.length, 1);
  data.series.forEach((s, si) =>
    s.values.forEach((v, i) => {
      if (v === null) return;
      const yy = PAD.top + band * i + band * 0.1 + bh * si;
      out.push(
        `<rect class="bar" x="${Math.min(x(v), x(0)).toFixed(1)}" y="${yy.toFixed(1)}" width="${Math.abs(x(v) - x(0)).toFixed(1)}" height="${bh.toFixed(1)}" fill="${palette[si % palette.length]}"><title>${escapeHtml(`${s.name}: ${data.categories[i]} ${fmt(v)}`)}</title></rect>`,
      );
    }),
  );
  out.push(`<line class="axis" x1="${x(0)}" x2="${x(0)}" y1="${PAD.top}" y2="${H - PAD.bottom}" stroke="#5f6368"/>`);
  const key = legend(
    data.series.map((s) => s.name),
    palette,
  );
  return { svg: out.join('') + key.svg, extra: key.extra };
}

// The first series as slices; the legend names the categories.
function pie(data: ChartData, palette: string[]): Drawn {
  const values = (data.series[0]?.values ?? []).map((v) => (v !== null && v > 0 ? v : 0));
  const total = values.reduce((a, b) => a + b, 0);
  const cx = W / 2;
  const cy = PAD.top + (H - PAD.top - PAD.bottom) / 2;
  const r = (H - PAD.top - PAD.bottom) / 2;
  const out: string[] = [];
  let angle = -Math.PI / 2;
  values.forEach((v, i) => {
    if (!total || !v) return;
    const label = escapeHtml(`${data.categories[i]}: ${fmt(v)} (${((v / total) * 100).toFixed(1)}%)`);
    const color = palette[i % palette.length];
    if (v === total) {
      out.push(`<circle class="slice" cx="${cx}" cy="${cy}" r="${r}" fill="${color}"><title>${label}</title></circle>`);
      return;
    }
    const end = angle + (v / total) * 2 * Math.PI;
    const p = (a: number) => `${(cx + r * Math.cos(a)).toFixed(1)},${(cy + r * Math.sin(a)).toFixed(1)}`;
    out.push(
      `<path class="slice" d="M${cx},${cy} L${p(angle)} A${r},${r} 0 ${end - angle > Math.PI ? 1 : 0} 1 ${p(end)} Z" fill="${color}"><title>${label}</title></path>`,
    );
    angle = end;
  });
  if (!total) out.push(text(cx, cy, 'No data', 'font-size="12" text-anchor="middle"'));
  const key = legend(data.categories, palette);
  return { svg: out.join('') + key.svg, extra: key.extra };
}

// One chart as an <svg> with role="img", named by its title (the page shows the title above it, in a <figcaption>).
export function drawChart(spec: ChartSpec, data: ChartData): string {
  const type = spec.chartType.toUpperCase();
  const palette = colors(spec);
  const name = title(spec);
  let body: Drawn;
  let note = '';
  if (type === 'PIE') body = pie(data, palette);
  else if (type === 'BAR') body = bars(data, palette);
  else if (type === 'COLUMN' || type === 'LINE' || type === 'AREA' || type === 'COMBO')
    body = cartesian(data, palette, type, spec);
  else {
    body = cartesian(data, palette, 'LINE', spec);
    note = text(W - PAD.right, 14, `${type} drawn as lines`, 'font-size="10" text-anchor="end" fill="#5f6368"');
  }
  const h = H + body.extra;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${escapeHtml(name)}" viewBox="0 0 ${W} ${h}" width="${W}" height="${h}" font-family="Roboto, 'Noto Sans CJK JP', Arial, sans-serif">` +
    `<title>${escapeHtml(name)}</title>${note}${body.svg}</svg>`
  );
}
