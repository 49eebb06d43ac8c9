/**
 * Preloaded into the service by issue 42's row (`node --import dist/bench/clock-shift.js`):
 * moves the process's wall clock (Date) forward by BENCH_CLOCK_OFFSET_MS, at once, or on
 * SIGUSR2 when BENCH_CLOCK_ON_SIGNAL=1, so that the service meets Monday 08:00 in its TZ
 * without the bench waiting for one. The service itself is unchanged: it reads the time from
 * Date, as it does in production (lib/clock.ts), and tests move their app's clock instead.
 */
const offset = Number(process.env.BENCH_CLOCK_OFFSET_MS ?? 0);
const Real = Date;
let shift = 0;

class Shifted extends Real {
  constructor(...args: ConstructorParameters<typeof Date> | []) {
    if (args.length === 0) super(Real.now() + shift);
    else super(...args);
  }
  static override now(): number {
    return Real.now() + shift;
  }
}

globalThis.Date = Shifted as DateConstructor;
if (process.env.BENCH_CLOCK_ON_SIGNAL === '1') process.on('SIGUSR2', () => (shift = offset));
else shift = offset;
