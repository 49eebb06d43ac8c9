/**
 * What the benchmark's parent process and its children (the load generator, the ceilings)
 * say to each other. Types only: the children are transpiled on their own and import nothing
 * from the parent at run time.
 */

/** One load run, sent to the load-generator child over IPC. */
export interface LoadRequest {
  url: string;
  method: 'GET' | 'POST' | 'PUT';
  headers: Record<string, string>;
  body?: string;
  /** Paths taken in turn, each request the next (the same method, headers and body). */
  paths?: readonly string[];
  connections: number;
  seconds: number;
  /** Seconds before autocannon gives up on one response. */
  timeoutSeconds: number;
}

export interface LoadSummary {
  /** Length of the measured window, seconds. */
  duration: number;
  /** Responses per status code in the measured window. */
  statusCounts: Record<string, number>;
  errors: number;
  timeouts: number;
  latency: { p50: number; p99: number; max: number };
  /** Response bytes per second, headers included. */
  bytesPerSecond: number;
}

/** The ceiling servers; see ceiling-server.ts. */
export type CeilingMode = 'static' | 'ok' | 'insert' | 'group-commit' | 'health';

/** What the parent asks the stream holder (stream-holder.ts). */
export type HolderRequest =
  | { open: { url: string; count: number; perAddress: number; perNetwork: number } }
  | { collect: number; timeoutMs: number };

/** Its answers: to `open`, the streams open and the statuses; to `collect`, the arrival times. */
export type HolderAnswer =
  { opened: number; statuses: Record<string, number> } | { times: number[]; streams: number };

/** The fake push service's counts (fake-push-server.ts); times are epoch ms. */
export interface PushStats {
  requests: number;
  /** Endpoints that took at least one message (201). */
  delivered: number;
  /** Endpoints that took a second one. */
  twice: number;
  /** Endpoints answered 410. */
  gone: number;
  rateLimited: number;
  badShape: number;
  firstAt: number;
  lastAt: number;
}

/** The SMTP sink's counts (smtp-sink.ts). */
export interface SmtpStats {
  accepted: number;
  /** Recipients with at least one message accepted. */
  recipients: number;
  /** Recipients with a second one. */
  twice: number;
  firstAt: number;
  lastAt: number;
}
