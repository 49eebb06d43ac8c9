import type { Migration } from 'kysely';
import * as initial from './001-initial.ts';
import * as auditLog from './002-audit-log.ts';
import * as integrity from './003-integrity.ts';
import * as commentModeration from './004-comment-moderation.ts';
import * as liveData from './005-live-data.ts';
import * as openCommunity from './006-open-community.ts';
import * as takingPart from './008-taking-part.ts';
import * as auditParams from './009-audit-params.ts';
import * as reachingOut from './010-reaching-out.ts';
import * as nameSkeletons from './011-name-skeletons.ts';
import * as streamerVoice from './012-streamer-voice.ts';
import * as earnedTrust from './013-earned-trust.ts';
import * as streamHistory from './014-stream-history.ts';
import * as notifications from './016-notifications.ts';
import * as idempotency from './017-idempotency.ts';
import * as notificationShown from './018-notification-shown.ts';
import * as streamSamplesCovering from './019-stream-samples-covering.ts';
import * as commentsGuestTagIndex from './020-comments-guest-tag-index.ts';
import * as eventLog from './021-event-log.ts';
import * as follows from './022-follows.ts';
import * as eventLogAppend from './024-event-log-append.ts';
import * as commentPins from './025-comment-pins.ts';
import * as nameFoldsOfEitherCase from './026-name-folds-of-either-case.ts';
import * as push from './027-push.ts';
import * as mail from './028-mail.ts';
import * as schedules from './029-schedules.ts';
import * as staffReviews from './030-staff-reviews.ts';
import * as staffAuthorStored from './032-staff-author-stored.ts';
import * as wordsAndRepeats from './033-words-and-repeats.ts';
import * as sessionAddresses from './034-session-addresses.ts';
import * as voteTallies from './035-vote-tallies.ts';
import * as loginKeyTrimmed from './036-login-key-trimmed.ts';
import * as eventLogStaged from './037-event-log-staged.ts';
import * as voteTalliesPerStatement from './038-vote-tallies-per-statement.ts';
import * as eventLogStagedOnce from './039-event-log-staged-once.ts';
import * as commentsCounted from './040-comments-counted.ts';
import * as nameFoldsOfCapitals from './041-name-folds-of-capitals.ts';
import * as nameFoldsWithoutSymbols from './042-name-folds-without-symbols.ts';
import * as hiddenThreads from './043-hidden-threads.ts';
import * as mailDueById from './044-mail-due-by-id.ts';
import * as streamerNameFolds from './045-streamer-name-folds.ts';
import * as nameFoldsOfSmallCapitals from './046-name-folds-of-small-capitals.ts';
import * as teamNameFolds from './047-team-name-folds.ts';
import * as oneBlockPerGuest from './048-one-block-per-guest.ts';
import * as nameFoldsWithoutSigns from './049-name-folds-without-signs.ts';
import * as pushEndpointHosts from './050-push-endpoint-hosts.ts';

/** Every migration, in order. A new one is added here explicitly, never discovered. */
export const migrations: Record<string, Migration> = {
  '001-initial': initial,
  '002-audit-log': auditLog,
  '003-integrity': integrity,
  '004-comment-moderation': commentModeration,
  '005-live-data': liveData,
  '006-open-community': openCommunity,
  '008-taking-part': takingPart,
  '009-audit-params': auditParams,
  '010-reaching-out': reachingOut,
  '011-name-skeletons': nameSkeletons,
  '012-streamer-voice': streamerVoice,
  '013-earned-trust': earnedTrust,
  '014-stream-history': streamHistory,
  '016-notifications': notifications,
  '017-idempotency': idempotency,
  '018-notification-shown': notificationShown,
  '019-stream-samples-covering': streamSamplesCovering,
  '020-comments-guest-tag-index': commentsGuestTagIndex,
  '021-event-log': eventLog,
  '022-follows': follows,
  '024-event-log-append': eventLogAppend,
  '025-comment-pins': commentPins,
  '026-name-folds-of-either-case': nameFoldsOfEitherCase,
  '027-push': push,
  '028-mail': mail,
  '029-schedules': schedules,
  '030-staff-reviews': staffReviews,
  '032-staff-author-stored': staffAuthorStored,
  '033-words-and-repeats': wordsAndRepeats,
  '034-session-addresses': sessionAddresses,
  '035-vote-tallies': voteTallies,
  '036-login-key-trimmed': loginKeyTrimmed,
  '037-event-log-staged': eventLogStaged,
  '038-vote-tallies-per-statement': voteTalliesPerStatement,
  '039-event-log-staged-once': eventLogStagedOnce,
  '040-comments-counted': commentsCounted,
  '041-name-folds-of-capitals': nameFoldsOfCapitals,
  '042-name-folds-without-symbols': nameFoldsWithoutSymbols,
  '043-hidden-threads': hiddenThreads,
  '044-mail-due-by-id': mailDueById,
  '045-streamer-name-folds': streamerNameFolds,
  '046-name-folds-of-small-capitals': nameFoldsOfSmallCapitals,
  '047-team-name-folds': teamNameFolds,
  '048-one-block-per-guest': oneBlockPerGuest,
  '049-name-folds-without-signs': nameFoldsWithoutSigns,
  '050-push-endpoint-hosts': pushEndpointHosts,
};
