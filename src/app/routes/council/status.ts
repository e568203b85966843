// GET /status: whether Kaigi is set up, and which of its tabs are present.
import { z } from 'zod';
import { TABS } from '../../../../sheets-schema/index.js';
import { props } from '../../../adapters/gas/services.js';
import { openBound, SPREADSHEET_ID_PROPERTY } from '../../../adapters/gas/spreadsheet.js';
import { findSheet } from '../../../adapters/gas/tabs.js';
import { ALL_ROLES } from '../../../core/api.js';
import { ConflictError } from '../../../core/errors.js';
import { defineOperation } from '../route.js';

export const getStatus = defineOperation({
  name: 'get_status',
  description: 'The council and its rooms: each agent idle, busy or in error, the queue, and today’s budget.',
  mutates: false,
  tool: true,
  http: { method: 'GET', path: '/status' },
  roles: ALL_ROLES,
  input: z.object({}),
  handler: () => {
    if (!props.get(SPREADSHEET_ID_PROPERTY))
      throw new ConflictError('Kaigi has not been set up in its spreadsheet yet.', 'not_set_up');
    const ss = openBound();
    return { tabs: TABS.map((t) => ({ tab: t.name, present: findSheet(ss, t) !== null })) };
  },
});
