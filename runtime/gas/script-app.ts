// ScriptApp: clock and spreadsheet triggers through the host, plus the service's enums.
import type { TriggerSpec, TriggerWire } from '../service-calls.js';
import { call, enumOf, execInfo, GasError, getBridge, requireAuthorized, requireScope, SCOPES } from './bridge.js';
import { intArguments, nonNegativeInt } from './signature.js';

const EventType = enumOf(['CLOCK', 'ON_OPEN', 'ON_EDIT', 'ON_FORM_SUBMIT', 'ON_CHANGE', 'ON_EVENT_UPDATED']);
const TriggerSource = enumOf(['SPREADSHEETS', 'CLOCK', 'FORMS', 'DOCUMENTS', 'CALENDAR']);
const AuthMode = enumOf(['NONE', 'CUSTOM_FUNCTION', 'LIMITED', 'FULL']);
const WEEKDAYS = ['SUNDAY', 'MONDAY', 'TUESDAY', 'WEDNESDAY', 'THURSDAY', 'FRIDAY', 'SATURDAY'];

class Trigger {
  constructor(private readonly w: TriggerWire) {}
  getUniqueId(): string {
    return this.w.uid;
  }
  getHandlerFunction(): string {
    return this.w.handler;
  }
  getEventType(): string {
    return this.w.eventType;
  }
  getTriggerSource(): string {
    return this.w.source;
  }
  getTriggerSourceId(): string | null {
    return this.w.sourceId ?? null;
  }
}

function guard(): void {
  requireScope('ScriptApp.newTrigger', SCOPES.scriptapp);
  requireAuthorized('ScriptApp.newTrigger');
}

class ClockTriggerBuilder {
  private readonly spec: TriggerSpec;
  constructor(handler: string) {
    this.spec = { eventType: 'CLOCK', source: 'CLOCK', handler };
  }
  after(ms: number) {
    // A non-negative int of milliseconds; Google leaves a negative one unclear, so it is refused here.
    this.spec.afterMs = nonNegativeInt('ClockTriggerBuilder.after', 'durationMilliseconds', ms);
    return this;
  }
  at(date: Date) {
    this.spec.atMs = date.getTime();
    return this;
  }
  atDate(y: number, m: number, d: number) {
    intArguments('ClockTriggerBuilder.atDate', Array.from(arguments), [3]);
    this.spec.atMs = new Date(y, m - 1, d).getTime();
    return this;
  }
  everyMinutes(n: number) {
    if ([1, 5, 10, 15, 30].indexOf(n) < 0)
      throw new GasError('The value passed to everyMinutes must be one of 1, 5, 10, 15 or 30.');
    this.spec.everyMs = n * 60000;
    return this;
  }
  everyHours(n: number) {
    if ([1, 2, 4, 6, 8, 12].indexOf(n) < 0)
      throw new GasError('The value passed to everyHours must be one of 1, 2, 4, 6, 8 or 12.');
    this.spec.everyMs = n * 3600000;
    return this;
  }
  everyDays(n: number) {
    if (nonNegativeInt('ClockTriggerBuilder.everyDays', 'n', n) < 1) throw new GasError('Invalid argument: n');
    this.spec.everyMs = n * 86400000;
    return this;
  }
  everyWeeks(n: number) {
    if (nonNegativeInt('ClockTriggerBuilder.everyWeeks', 'n', n) < 1) throw new GasError('Invalid argument: n');
    this.spec.everyMs = n * 7 * 86400000;
    return this;
  }
  atHour(h: number) {
    if (nonNegativeInt('ClockTriggerBuilder.atHour', 'hour', h) > 23) throw new GasError('Invalid argument: hour');
    this.spec.atHour = h;
    return this;
  }
  nearMinute(m: number) {
    if (nonNegativeInt('ClockTriggerBuilder.nearMinute', 'minute', m) > 59)
      throw new GasError('Invalid argument: minute');
    this.spec.nearMinute = m;
    return this;
  }
  onWeekDay(day: string) {
    if (WEEKDAYS.indexOf(day) < 0) throw new GasError('Invalid argument: day');
    this.spec.everyMs = 7 * 86400000;
    return this;
  }
  onMonthDay(_d: number) {
    this.spec.everyMs = 30 * 86400000;
    return this;
  }
  inTimezone(tz: string) {
    this.spec.timeZone = tz;
    return this;
  }
  create(): Trigger {
    guard();
    const s = this.spec;
    if (s.afterMs === undefined && s.atMs === undefined && s.everyMs === undefined)
      throw new GasError(
        'Missing a time-based trigger type. Call after(), at(), everyMinutes(), everyHours(), everyDays() or everyWeeks().',
      );
    return new Trigger(call('trig.create', { spec: s }));
  }
}

class SpreadsheetTriggerBuilder {
  constructor(
    private readonly handler: string,
    private readonly sourceId: string,
  ) {}
  private make(eventType: TriggerSpec['eventType']) {
    return {
      create: (): Trigger => {
        guard();
        return new Trigger(
          call('trig.create', {
            spec: { handler: this.handler, eventType, source: 'SPREADSHEETS', sourceId: this.sourceId },
          }),
        );
      },
    };
  }
  onOpen() {
    return this.make('ON_OPEN');
  }
  onEdit() {
    return this.make('ON_EDIT');
  }
  onChange() {
    return this.make('ON_CHANGE');
  }
  onFormSubmit() {
    return this.make('ON_FORM_SUBMIT');
  }
}

class TriggerBuilder {
  constructor(private readonly handler: string) {}
  timeBased() {
    return new ClockTriggerBuilder(this.handler);
  }
  forSpreadsheet(ss: { getId(): string } | string) {
    return new SpreadsheetTriggerBuilder(this.handler, typeof ss === 'string' ? ss : ss.getId());
  }
}

export const ScriptApp = {
  EventType,
  TriggerSource,
  AuthMode,
  WeekDay: enumOf(WEEKDAYS),
  newTrigger(functionName: string) {
    getBridge().check();
    if (typeof functionName !== 'string' || !functionName) throw new GasError('Invalid argument: functionName');
    return new TriggerBuilder(functionName);
  },
  getProjectTriggers(): Trigger[] {
    guard();
    return call('trig.list', {}).map((w) => new Trigger(w));
  },
  getUserTriggers(_container: unknown): Trigger[] {
    return ScriptApp.getProjectTriggers();
  },
  deleteTrigger(trigger: Trigger): void {
    guard();
    call('trig.delete', { uid: trigger.getUniqueId() });
  },
  getScriptId(): string {
    getBridge().check();
    return execInfo().scriptId;
  },
  getService() {
    return { getUrl: () => execInfo().webAppUrl, isEnabled: () => true };
  },
  getOAuthToken(): string {
    getBridge().check();
    return 'local-oauth-token';
  },
  getAuthorizationInfo() {
    return { getAuthorizationStatus: () => 'NOT_REQUIRED', getAuthorizationUrl: () => null };
  },
  AuthorizationStatus: enumOf(['REQUIRED', 'NOT_REQUIRED']),
};
