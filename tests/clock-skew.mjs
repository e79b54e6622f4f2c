// Preloaded into an app process by tests (NODE_OPTIONS=--import): the machine's clock runs
// CLOCK_SKEW_MS ahead (or behind), as a server whose clock was never synchronised. Only tests set it.
const skew = Number(process.env.CLOCK_SKEW_MS ?? 0);
if (skew) {
  const RealDate = Date;
  // Named Date: libraries recognise the type by its name (mongoose's schema types).
  const SkewedDate = class Date extends RealDate {
    constructor(...args) {
      if (args.length === 0) super(RealDate.now() + skew);
      else super(...args);
    }
    static now() {
      return RealDate.now() + skew;
    }
  };
  globalThis.Date = SkewedDate;
}
