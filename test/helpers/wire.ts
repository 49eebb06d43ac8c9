import net from 'node:net';

/** One chunk that crossed the proxy: who sent it, and its bytes as text (latin1, byte for byte). */
export interface Crossed {
  from: 'client' | 'server';
  text: string;
}

/**
 * A TCP proxy in front of a server on 127.0.0.1 that records what each side sent, in the order
 * the chunks arrived: what a client sent before the server's answer to it reached the client
 * shows whether it waited for that answer (db/transaction.ts sends some queries pipelined).
 */
export async function recordingProxy(target: { host: string; port: number }) {
  const log: Crossed[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(target.port, target.host);
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', end);
      socket.on('close', end);
    }
    client.on('data', (chunk: Buffer) => {
      log.push({ from: 'client', text: chunk.toString('latin1') });
      upstream.write(chunk);
    });
    upstream.on('data', (chunk: Buffer) => {
      log.push({ from: 'server', text: chunk.toString('latin1') });
      client.write(chunk);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    port,
    log,
    /** Where the first chunk from `from` that holds `text` is in the log (-1: none). */
    at: (from: Crossed['from'], text: string) =>
      log.findIndex((c) => c.from === from && c.text.includes(text)),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
