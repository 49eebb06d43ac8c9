/**
 * A local SMTP server for issue 42's row (the `smtp-server` package), run as its own process
 * (forked, like stream-holder.ts): it accepts every message, reads it to its end, and counts
 * the accepted messages per recipient; the parent asks for the counts over IPC.
 */
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { SmtpStats } from './protocol.ts';

const perRecipient = new Map<string, number>();
const stats: SmtpStats = { accepted: 0, recipients: 0, twice: 0, firstAt: 0, lastAt: 0 };

const server = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  size: 1024 * 1024,
  onData(stream, session, callback) {
    stream.on('data', () => undefined);
    stream.on('end', () => {
      const now = Date.now();
      stats.firstAt ||= now;
      stats.lastAt = now;
      stats.accepted++;
      for (const to of session.envelope.rcptTo) {
        const times = (perRecipient.get(to.address) ?? 0) + 1;
        perRecipient.set(to.address, times);
        if (times === 1) stats.recipients++;
        if (times === 2) stats.twice++;
      }
      callback();
    });
  },
});

// A client that goes away mid-exchange (the row kills the service while it sends) is a
// connection's error, not the sink's: it must not end the process.
server.on('error', () => undefined);
server.server.on('connection', (socket: import('node:net').Socket) => socket.setNoDelay(true));

server.listen(0, '127.0.0.1', () => {
  process.send?.({ port: (server.server.address() as AddressInfo).port });
});
process.on('message', () => process.send?.({ ...stats }));
process.on('disconnect', () => process.exit(0));
