/** An event as a stream sends it: its id from the log, its type, its fields. */
export const sseEvent = (id: number, type: string, data: string): Buffer =>
  Buffer.from(`id: ${id}\nevent: ${type}\ndata: ${data}\n\n`);

/**
 * What each stream gets of a page of events, in one piece: `encoded[i]` (null: sent to none)
 * goes to the streams `taken[i]`, in the page's order. Streams given the same events share
 * one buffer, so a page to a thousand streams of one streamer is joined once.
 */
export function eachOnesPage<S>(encoded: (Buffer | null)[], taken: (S[] | null)[]): Map<S, Buffer> {
  const given = new Map<S, number[]>();
  taken.forEach((streams, i) => {
    if (!streams || !encoded[i]) return;
    for (const s of streams) {
      const indices = given.get(s);
      if (indices) indices.push(i);
      else given.set(s, [i]);
    }
  });
  const joined = new Map<string, Buffer>();
  const pages = new Map<S, Buffer>();
  for (const [s, indices] of given) {
    const key = indices.join();
    let bytes = joined.get(key);
    if (!bytes) {
      bytes = Buffer.concat(indices.flatMap((i) => encoded[i] ?? []));
      joined.set(key, bytes);
    }
    pages.set(s, bytes);
  }
  return pages;
}
