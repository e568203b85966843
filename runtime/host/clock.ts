// The runtime's clock: real time plus an offset that tests and the CLI advance; shared with workers.

export class Clock {
  readonly buffer: SharedArrayBuffer;
  private readonly offset: Float64Array;

  constructor(buffer?: SharedArrayBuffer) {
    this.buffer = buffer ?? new SharedArrayBuffer(8);
    this.offset = new Float64Array(this.buffer);
  }

  now(): number {
    return Date.now() + this.offset[0];
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

  getOffset(): number {
    return this.offset[0];
  }

  setOffset(ms: number): void {
    this.offset[0] = ms;
  }
}
