// The runtime's clock: real time plus an offset that tests and the CLI advance; shared with workers.

// Two offsets, both shared with the worker threads: the one tests and the CLI move (advance, setOffset), and the
// lead a simulated run gains when an execution ends later on its own clock than the runtime's clock reads
// (time-model.ts). An execution already running keeps the lead it started with, so executions that run side by
// side do not add up each other's modelled time, while one that starts after another has ended starts after it.
export class Clock {
  readonly buffer: SharedArrayBuffer;
  private readonly offset: Float64Array;

  constructor(buffer?: SharedArrayBuffer) {
    this.buffer = buffer ?? new SharedArrayBuffer(16);
    this.offset = new Float64Array(this.buffer);
  }

  now(): number {
    return Date.now() + this.offset[0] + this.offset[1];
  }

  // Real time plus the offset tests move, without the lead: what an execution's clock starts from (ExecClock).
  explicitNow(): number {
    return Date.now() + this.offset[0];
  }

  lead(): number {
    return this.offset[1];
  }

  advance(ms: number): void {
    if (ms < 0) throw new Error('the clock never goes backwards');
    this.offset[0] += ms;
  }

  // Moves the clock forward to `time` if it is in the future.
  advanceTo(time: number): void {
    const delta = time - this.now();
    if (delta > 0) this.advance(delta);
  }

  // A simulated run: an execution ended at `time` on its own clock, so nothing after it starts earlier.
  catchUp(time: number): void {
    const delta = time - this.now();
    if (delta > 0) this.offset[1] += delta;
  }

  getOffset(): number {
    return this.offset[0] + this.offset[1];
  }

  setOffset(ms: number): void {
    this.offset[0] = ms;
    this.offset[1] = 0;
  }
}
