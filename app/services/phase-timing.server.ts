/**
 * Where a request's time goes, for `npm run bench -- --phases` (docs/benchmarks.md): only while
 * the var PHASE_TIMING is "1", which only the bench sets.
 *
 * Why the timers: in workerd, performance.now() and Date.now() stand still while JavaScript runs
 * and move on only at I/O, so Server-Timing's app;dur ends at the last D1 answer and misses the
 * rendering after it. A timer of 0 ms is such I/O: awaited at the end of a phase it brings the
 * clock to the true time, at the cost of one turn of the event loop per phase.
 */
export type PhaseClock = {
  /** performance.now() and Date.now() when the worker got the request. */
  started: number;
  arrived: number;
  /** Each phase's end (performance.now()), in order. */
  ends: [phase: string, at: number][];
};

export const startPhaseClock = (): PhaseClock => ({ started: performance.now(), arrived: Date.now(), ends: [] });

/** Ends a phase of the request: waits for the clock to catch up and notes the time. */
export async function endPhase(clock: PhaseClock | undefined, phase: string): Promise<void> {
  if (!clock) return;
  await new Promise((resolve) => setTimeout(resolve, 0));
  clock.ends.push([phase, performance.now()]);
}

/**
 * The phases as Server-Timing metrics: each one's duration, and the wall-clock times the request
 * arrived and left (epoch milliseconds), from which the bench works out the way there and back.
 */
export async function phaseMetrics(clock: PhaseClock): Promise<string[]> {
  await endPhase(clock, "worker");
  let previous = clock.started;
  const metrics = clock.ends.map(([phase, at]) => {
    const metric = `${phase};dur=${(at - (phase === "worker" ? clock.started : previous)).toFixed(1)}`;
    previous = at;
    return metric;
  });
  return [...metrics, `arrived;desc="${clock.arrived}"`, `left;desc="${Date.now()}"`];
}
