import { mayReadAudit } from '../../../src/audit/policy.ts';
import { mayReview } from '../../../src/reviews/policy.ts';
import { mayManageTeams } from '../../../src/groups/policy.ts';
import { mayModerate } from '../../../src/moderation/policy.ts';
import type { Who } from '../../../src/shared/roles.ts';
import { mayChangeSettings } from '../../../src/settings/policy.ts';
import { mayAdd } from '../../../src/streamers/policy.ts';
import { mayReadSync } from '../../../src/sync/policy.ts';
import { mayManageUsers } from '../../../src/users/policy.ts';
import type { MessageKey } from './i18n.svelte.ts';

/** The administration's tabs, each shown to whoever its feature's policy lets use it. */
const TABS: [id: string, label: MessageKey, allowed: (who: Who) => boolean][] = [
  ['streamers', 'admin.streamers', mayAdd],
  ['reviews', 'reviews.tab', mayReview],
  ['teams', 'admin.teams', mayManageTeams],
  ['users', 'admin.users', mayManageUsers],
  ['moderation', 'moderation.tab', mayModerate],
  ['settings', 'admin.settings', mayChangeSettings],
  ['discord', 'discord.tab', mayChangeSettings],
  ['sync', 'sync.title', mayReadSync],
  ['audit', 'audit.title', mayReadAudit],
];

export const adminTabs = (who: Who): [id: string, label: MessageKey][] =>
  TABS.filter(([, , allowed]) => allowed(who)).map(([id, label]) => [id, label]);
