import { send } from '../lib/outbound.ts';

/**
 * Outbound calls to the providers, with a time limit. A network failure or a timeout is
 * answered as status 0 (no HTTP status), the way PHP's curl reports it, so each flow maps it
 * to its `*_failed` code instead of hanging or failing with a 500.
 */
export interface ProviderAnswer {
  status: number;
  text: string;
  json: Record<string, unknown> | null;
}

/** A provider's answers to sign-in calls are a few hundred bytes; a longer one is cut off here. */
const MAX_ANSWER = 1024 * 1024;

export async function callProvider(
  url: string,
  init: { method: 'GET' | 'POST'; headers?: Record<string, string>; form?: Record<string, string> },
  timeoutMs: number,
): Promise<ProviderAnswer> {
  const result = await send(url, {
    method: init.method,
    headers: {
      ...init.headers,
      ...(init.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
    },
    body: init.form ? new URLSearchParams(init.form).toString() : null,
    timeoutMs,
    maxAnswer: MAX_ANSWER,
  });
  if (result.kind === 'no-answer') return { status: 0, text: '', json: null };
  let json: Record<string, unknown> | null = null;
  try {
    const parsed: unknown = JSON.parse(result.body);
    if (parsed && typeof parsed === 'object') json = parsed as Record<string, unknown>;
  } catch {
    // not JSON
  }
  return { status: result.status, text: result.body, json };
}

/** A non-empty string member, or undefined. */
export function str(obj: unknown, key: string): string | undefined {
  if (!obj || typeof obj !== 'object') return undefined;
  const v = (obj as Record<string, unknown>)[key];
  if (typeof v === 'string' && v !== '') return v;
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return undefined;
}
