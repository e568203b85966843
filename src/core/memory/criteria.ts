// An order's success criterion as a model is told to fill it and the review scores it (src/core/memory/outcomes.ts).
import { z } from '../zod.js';

// Which way a criterion's metric is forecast to move (a person picks it by its label: src/core/label-tables.ts).
export const DIRECTIONS = ['increase', 'decrease'] as const;

// Its metric is one of the member's KPI series when they are known (the review looks the name up literally), and
// the forecast is said to be a point forecast, scored both ways.
export function criterion(metric: z.ZodType<string>, days: z.ZodType<number>) {
  return z.object({
    metric,
    direction: z.enum(DIRECTIONS),
    target_change: z
      .number()
      .min(0)
      .max(10)
      .describe(
        'Forecast relative change of the window mean against the baseline window (0.2 = 20 %); a point forecast: within 30 % of the measured mean confirms, 50 % or more off rejects, overshooting too',
      ),
    window_days: days,
  });
}
