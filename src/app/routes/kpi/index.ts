// The KPI operations: data in from outside (a CRM job, a spreadsheet export, an agent).
import type { Operation } from '../route.js';
import { recordKpiOperation } from './record-kpi.js';

export const KPI_OPERATIONS: readonly Operation[] = [recordKpiOperation];
