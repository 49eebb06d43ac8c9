import { call, client } from './api.ts';
import { type Challenge, solve } from './challenge.ts';
import { session } from './session.svelte.ts';

interface Answer {
  response: Response;
  error?: unknown;
}

/**
 * The guests' robot check for every form whose post can meet a 428 `challenge_required`
 * (DECISIONS.md "Guests earn trust": comments, replies, suggestions). With the challenge
 * `always`, a guest fetches `/api/challenge` and solves it before the first send, so the page
 * never provokes the 428 (a browser logs every 4xx in the console); otherwise a 428's own
 * challenge is solved and the same post sent again. `percent` is the progress while solving.
 */
export class RobotCheck {
  percent = $state<number | null>(null);

  async send<A extends Answer>(post: (altcha?: string) => Promise<A>): Promise<A> {
    const guest = !session.user && !session.is_admin;
    if (guest && session.settings.guest_challenge === 'always') {
      const altcha = await this.solved(await call(client.GET('/api/challenge')));
      if (altcha) return post(altcha);
    }
    const answer = await post();
    const challenge = (answer.error as { challenge?: Challenge } | undefined)?.challenge;
    if (answer.response.status !== 428 || !challenge) return answer;
    const altcha = await this.solved(challenge);
    return altcha ? post(altcha) : answer;
  }

  private solved(challenge: Challenge): Promise<string | null> {
    this.percent = 0;
    return solve(challenge, (done) => (this.percent = Math.round(done * 100))).finally(
      () => (this.percent = null),
    );
  }
}
