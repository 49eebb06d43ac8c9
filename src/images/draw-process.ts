import { drawImage, type DrawRequest } from './draw.ts';

/**
 * The drawing process (images/drawer.ts forks it): draws what the service asks over IPC. Its
 * memory (the fonts, resvg's pixel buffers, which V8 does not see and so frees late) is its
 * own, and goes back to the system when it exits after ten quiet minutes.
 */
process.on('message', (message: { id: number; request: DrawRequest }) => {
  drawImage(message.request).then(
    (bytes) => process.send?.({ id: message.id, bytes }),
    (err: unknown) =>
      process.send?.({ id: message.id, error: err instanceof Error ? err.message : String(err) }),
  );
});
process.on('disconnect', () => process.exit(0));
// Loaded (fonts, resvg): the service sends its drawings from now on, each on its own clock.
process.send?.({ ready: true });
