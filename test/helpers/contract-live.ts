import { type Exchange, violations } from './contract.ts';

/**
 * Every answer the tests' client receives from an app the tests started is held against that
 * app's API document (helpers/contract.ts); what does not match is collected here and fails
 * the test that caused it (helpers/contract-setup.ts). So the whole suite's traffic, in every
 * role and every error path the tests take, checks the document.
 */

const documents = new Map<string, () => object>();
const found: string[] = [];

/** The document of the app answering at `baseUrl`, fetched from the app itself when first needed. */
export function registerDocument(baseUrl: string, document: () => object): void {
  documents.set(baseUrl, document);
}

export function unregisterDocument(baseUrl: string): void {
  documents.delete(baseUrl);
}

export function checkAnswer(baseUrl: string, exchange: Exchange): void {
  const document = documents.get(baseUrl);
  if (document) found.push(...violations(document(), exchange));
}

/** The violations seen since the last call. */
export function takeViolations(): string[] {
  return found.splice(0, found.length);
}
