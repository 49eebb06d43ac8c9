/** Reading environment variables: each value checked, and a bad one named in the error. */

export type Env = Record<string, string | undefined>;

/** A configuration value that stops the start; the message names the variable. */
export class ConfigError extends Error {
  constructor(variable: string, problem: string, value?: string) {
    super(
      `Invalid configuration: ${variable} ${problem}` +
        (value === undefined ? '' : ` (got ${JSON.stringify(value)})`),
    );
    this.name = 'ConfigError';
  }
}

export interface EnvReader {
  /** The trimmed value; undefined when unset or empty. */
  get: (name: string) => string | undefined;
  integer: (name: string, fallback: number, min: number, max: number) => number;
  /** `yes` or `no` (true/false unless said otherwise), case-insensitive. */
  bool: (name: string, fallback: boolean, yes?: string, no?: string) => boolean;
  /** An absolute http or https URL. */
  url: (name: string, fallback: string) => string;
}

export function envReader(env: Env): EnvReader {
  const get = (name: string): string | undefined => {
    const v = env[name]?.trim();
    return v === '' ? undefined : v;
  };

  const integer = (name: string, fallback: number, min: number, max: number): number => {
    const raw = get(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || n < min || n > max) {
      throw new ConfigError(name, `must be an integer from ${min} to ${max}`, raw);
    }
    return n;
  };

  const bool = (name: string, fallback: boolean, yes = 'true', no = 'false'): boolean => {
    const raw = get(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (raw === yes) return true;
    if (raw === no) return false;
    throw new ConfigError(name, `must be "${yes}" or "${no}"`, raw);
  };

  const url = (name: string, fallback: string): string => {
    const raw = get(name) ?? fallback;
    let parsed: URL;
    try {
      parsed = new URL(raw);
    } catch {
      throw new ConfigError(name, 'must be an absolute http or https URL', raw);
    }
    if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
      throw new ConfigError(name, 'must be an absolute http or https URL', raw);
    }
    return raw;
  };

  return { get, integer, bool, url };
}

/** A comma-separated list, its items trimmed, empty ones dropped. */
export function list(raw: string | undefined): string[] {
  return (raw ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
