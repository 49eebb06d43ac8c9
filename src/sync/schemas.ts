import { type Static, Type } from 'typebox';
import { errors, Nullable, Timestamp } from '../lib/schemas.ts';

export const ProviderSync = Type.Object(
  {
    /** The provider's client id and secret are set and LIVE_SYNC_SECONDS is not 0. */
    enabled: Type.Boolean(),
    interval_seconds: Type.Integer(),
    /** The last successful check. */
    last_ok: Nullable(Timestamp()),
    /** What the last failed check met, in words an operator can act on; it stays after recovery. */
    last_error: Nullable(Type.String()),
    last_error_at: Nullable(Timestamp()),
    /** Streamers checked successfully in the last complete round. */
    checked: Type.Integer(),
    /** When the last round ended. */
    round_at: Nullable(Timestamp()),
    /** Streamers whose platform is this provider. */
    streamers: Type.Integer(),
  },
  { title: 'ProviderSync' },
);

export const SyncAnswer = Type.Object(
  { provider_a: ProviderSync, provider_b: ProviderSync },
  { title: 'SyncState' },
);
export type SyncAnswer = Static<typeof SyncAnswer>;

export const syncSchema = {
  summary: 'Live sync with the providers, per provider (administrator)',
  response: { 200: SyncAnswer, ...errors(401) },
};
