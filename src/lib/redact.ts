/** What never reaches a log line or a command's error output. Kept light: the command line imports it. */

/**
 * Credentials taken out of a text before it is logged: the password of a URL
 * (`postgres://user:secret@host`, a mistyped scheme's too) and `password=` parameters. A
 * mistyped DATABASE_URL is named in the message that refuses it (issue 30, item 13).
 */
export function redactCredentials(text: string): string {
  return text
    .replace(/([\w.+-]*:\/\/[^\s/:@'"]*:)[^\s@'"/]*@/g, '$1***@')
    .replace(/(\bpass(?:word)?=)[^\s&'"]*/gi, '$1***');
}

/**
 * OAuth callback parameters and the e-mails' tokens (an unsubscription's or an address
 * confirmation's: each is the key to what it does) never reach the log.
 */
export function redactUrl(url: string): string {
  return url.replace(/([?&](?:code|state|code_verifier|access_token|token)=)[^&#]*/g, '$1[redacted]');
}
