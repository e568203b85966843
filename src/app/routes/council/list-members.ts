// GET /members: the members a discussion may be started about — id, name, team and role — and nothing private.
import { membersFromRows } from '../../../store/records.js';
import { ALL_ROLES } from '../../../core/api/api.js';
import { z } from '../../../core/zod.js';
import { apiCouncil } from '../../api/api-env.js';
import { defineOperation } from '../route.js';

// What a caller needs to name a member in start_discussion. The profile (a manager's notes on recognition, contact
// times, tenure), the join date and the login streak stay in the sheet: they are the council's to reason from, not
// an integrator's to read. Members has no active flag: every row with an id may be the subject of a discussion.
const memberAnswer = () =>
  z.object({
    members: z.array(
      z.object({
        member_id: z.string().describe('The id start_discussion takes as target_user_id'),
        name: z.string(),
        team: z.string(),
        role: z.string(),
      }),
    ),
  });

export const listMembersOp = defineOperation({
  name: 'list_members',
  description:
    'Lists the members a discussion may be started about, in the Members tab’s order: member_id (start_discussion’s target_user_id), name, team and role; never their profile.',
  mutates: false,
  tool: true,
  http: { method: 'GET', path: '/members' },
  roles: ALL_ROLES,
  input: () => z.object({}).strict(),
  output: memberAnswer,
  example: {},
  // The configuration cache's copy, kept current by the on-edit and on-change triggers and the demo seed, so a call
  // costs no Sheets read while it holds.
  handler: () => ({
    members: membersFromRows(apiCouncil().store.readConfig('members')).map((m) => ({
      member_id: m.member_id,
      name: m.name,
      team: m.team,
      role: m.role,
    })),
  }),
});
