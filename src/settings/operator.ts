import { DomainError } from '../errors.ts';
import { OPERATOR_CONTACT_MAX, OPERATOR_NAME_MAX } from '../shared/rules.ts';

/** Control characters (line breaks too): the operator's texts are plain text on one line. */
const CONTROL = /\p{Cc}/u;

/**
 * One of the operator's texts as PUT /api/settings takes it: undefined leaves it as it is,
 * null or an empty string unsets it (''), a string is trimmed and bounded. Anything else: 400.
 */
function operatorText(field: string, value: unknown, max: number): string | undefined {
  if (value === undefined) return undefined;
  if (value === null) return '';
  if (typeof value !== 'string') throw new DomainError('invalid_field', { message: `Invalid ${field}` });
  const text = value.trim();
  if ([...text].length > max || CONTROL.test(text)) {
    throw new DomainError('invalid_field', { message: `Invalid ${field}` });
  }
  return text;
}

/** The operator's name and contact from a PUT body; undefined members stay as they are. */
export function operatorInput(body: { operator_name?: unknown; operator_contact?: unknown }): {
  name: string | undefined;
  contact: string | undefined;
} {
  return {
    name: operatorText('operator_name', body.operator_name, OPERATOR_NAME_MAX),
    contact: operatorText('operator_contact', body.operator_contact, OPERATOR_CONTACT_MAX),
  };
}
