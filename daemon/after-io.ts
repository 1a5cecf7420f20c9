/**
 * Runs `fn` every `ms`, each time after the I/O of that turn of the event loop: timers run before
 * the sockets are read and immediates after, so after a pause of the daemon (a long GC, a slow
 * disk) the bytes already waiting are read before `fn` judges time that has passed.
 * Returns the stop: a run already scheduled for this turn is dropped too.
 */
export function everyAfterIo(fn: () => void, ms: number): () => void {
  let stopped = false;
  const timer = setInterval(
    () =>
      setImmediate(() => {
        if (!stopped) fn();
      }),
    ms,
  );
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
