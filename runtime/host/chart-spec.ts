// What an embedded chart keeps: Sheets stores a fixed chart spec, so an option it has no field for (a script's own
// marker such as 'kaigi.chart') is gone once the chart is inserted or updated, and getOptions().get() gives null.
import type { ChartModel } from './sheet-model.js';

// Options the chart spec has a field for (the typed builders' setters and the documented chart options).
const KEPT: ReadonlySet<string> = new Set([
  'title',
  'subtitle',
  'colors',
  'isStacked',
  'is3D',
  'pieHole',
  'pieSliceText',
  'curveType',
  'pointSize',
  'lineWidth',
  'backgroundColor',
  'width',
  'height',
  'reverseCategories',
  'treatLabelsAsText',
  'useFirstColumnAsDomain',
  'numHeaders',
  'transposeRowsAndColumns',
  'hiddenDimensionStrategy',
  'mergeStrategy',
]);
// Families of options whose members the spec keeps (axes, legend, series, text styles).
const KEPT_PREFIXES: readonly string[] = ['hAxis.', 'vAxis.', 'vAxes.', 'legend.', 'series.', 'titleTextStyle.'];

function isKeptOption(key: string): boolean {
  return KEPT.has(key) || KEPT_PREFIXES.some((p) => key.startsWith(p) && key.length > p.length);
}

// The options as the spec keeps them; anything else is silently dropped, as Sheets drops it.
function keptOptions(options: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(options)) if (isKeptOption(k)) out[k] = options[k];
  return out;
}

// A chart as the sheet holds it: only the options its spec keeps.
export function storedChart(chart: ChartModel): ChartModel {
  return { ...chart, options: keptOptions(chart.options) };
}
