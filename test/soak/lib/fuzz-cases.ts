/** The shape of a fuzzed request; the requests themselves are in fuzz-probes.ts and fuzz-random.ts. */

/** Who sends a request: nobody, the administrator, or a signed-in user. */
export type Who = 'anonymous' | 'admin' | 'user';

/** What an answer must be beyond the rules for every answer. */
export interface Expect {
  status?: number;
  /** The answer must not be a success (a JSON body with prototype keys must be refused). */
  notSuccess?: boolean;
}

export type FuzzCase = (
  | { kind: 'http'; who: Who; method: string; path: string; body?: string | Buffer; type?: string }
  | { kind: 'raw'; bytes: Buffer }
) & {
  label: string;
  expect?: Expect;
  /** One of issue 8's probes (not random). */
  fixed?: boolean;
};

export interface Fixture {
  streamerId: number;
  groupId: number;
  /** A user who signed in, for member adds. */
  login: string;
}
