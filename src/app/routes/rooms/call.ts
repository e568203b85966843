// What every room operation starts from: the council in the bound spreadsheet and who is calling.
import { props } from '../../../store/services.js';
import { scriptZone } from '../../../store/records.js';
import { openBound, SPREADSHEET_ID_PROPERTY } from '../../../store/spreadsheet.js';
import { ConflictError } from '../../../core/errors.js';
import { Council } from '../../sheet-council.js';
import type { RoomCall } from '../../rooms/room-writes.js';
import type { CallContext } from '../route.js';

export function roomCall(ctx: CallContext): RoomCall {
  if (!props.get(SPREADSHEET_ID_PROPERTY))
    throw new ConflictError('Kaigi has not been set up in its spreadsheet yet.', 'not_set_up');
  return { council: new Council(openBound(), scriptZone()), caller: ctx.caller, requestKey: ctx.requestKey };
}
