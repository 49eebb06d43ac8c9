/**
 * A reload that follows events (the ranking's, live.svelte.ts): called while its run is in
 * flight, it runs once more after it, however many calls came meanwhile; never a queue of runs,
 * and no timer. `work` answers its own failures.
 */
export function coalesced(work: () => Promise<void>): () => void {
  let busy = false;
  let again = false;
  const run = async (): Promise<void> => {
    busy = true;
    try {
      do {
        again = false;
        await work();
      } while (again);
    } finally {
      busy = false;
    }
  };
  return () => {
    if (busy) again = true;
    else void run();
  };
}
