import { errorText } from './i18n.svelte.ts';

/**
 * The state of a form's request: busy while it runs, the error in the user's language when
 * it fails (the form keeps what was typed), done when it succeeded.
 */
export class Submission {
  busy = $state(false);
  error = $state<string | null>(null);
  done = $state(false);

  /** Runs `work` for a submit event; answers whether it succeeded. */
  async run(e: SubmitEvent | null, work: () => Promise<unknown>): Promise<boolean> {
    e?.preventDefault();
    // A double click submits twice before the button is disabled: the second does nothing.
    if (this.busy) return false;
    this.busy = true;
    this.error = null;
    this.done = false;
    try {
      await work();
      this.done = true;
      return true;
    } catch (err) {
      this.error = errorText(err);
      return false;
    } finally {
      this.busy = false;
    }
  }

  /** The form changed since: what its last submission said no longer applies. */
  edited(): void {
    this.error = null;
    this.done = false;
  }
}
