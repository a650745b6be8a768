import { z } from 'zod';

/**
 * The building blocks of every request schema, so that each field gets the same strict rules: bodies take
 * their real JSON types (no coercion), ids and numbers in paths and queries are canonical decimal digits
 * within a bound, and no string carries control characters (the database must never be the validator).
 */

/** PostgreSQL `integer`, the type of every id column. */
export const DATABASE_ID_MAX = 2_147_483_647;

const LINE_FEED = 0x0a;
const TAB = 0x09;

/**
 * Whether a string holds a C0 control, DEL or a C1 control: never part of a name, a code or a line of
 * text. A message body may keep its line breaks and tabs.
 */
export function hasControlCharacters(value: string, allowLineBreaks = false): boolean {
  for (let index = 0; index < value.length; index += 1) {
    const code = value.charCodeAt(index);
    const isControl = code <= 0x1f || (code >= 0x7f && code <= 0x9f);
    if (isControl && !(allowLineBreaks && (code === LINE_FEED || code === TAB))) return true;
  }
  return false;
}

const noControlCharacters = 'must not contain control characters';

/** A single-line string of at most `maxLength` characters. */
export function plainText(maxLength: number) {
  return z
    .string({ error: 'must be a string' })
    .max(maxLength, { error: `must be at most ${maxLength} characters long` })
    .refine((value) => !hasControlCharacters(value), { error: noControlCharacters, abort: true });
}

/** A message body: like plainText, but line breaks and tabs are allowed. */
export function multilineText(maxLength: number) {
  return z
    .string({ error: 'must be a string' })
    .max(maxLength, { error: `must be at most ${maxLength} characters long` })
    .refine((value) => !hasControlCharacters(value, true), {
      error: 'must not contain control characters other than line breaks and tabs',
      abort: true,
    });
}

/**
 * A whole number written in a path or a query string: decimal digits only, no sign, no spaces, no leading
 * zeros, no exponent or hex, from `min` to `max`. The schema's output is the number.
 */
export function decimalInteger(min: number, max: number) {
  const pattern = min === 0 ? /^(0|[1-9][0-9]*)$/ : /^[1-9][0-9]*$/;
  return z
    .string({ error: 'must be a whole number' })
    .regex(pattern, { error: 'must be a whole number written in digits', abort: true })
    .max(String(max).length, { error: `must be at most ${max}`, abort: true })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(min, { error: `must be at least ${min}` })
        .max(max, { error: `must be at most ${max}` }),
    );
}

/** A row id in a path or a query string. */
export const databaseIdParam = decimalInteger(1, DATABASE_ID_MAX);

/** A whole number in a JSON body: a real JSON number, never a string or a boolean. */
export function jsonInteger(min: number, max: number, unit = '') {
  const ofUnit = unit ? ` of ${unit}` : '';
  const inUnit = unit ? ` ${unit}` : '';
  return z
    .number({ error: (issue) => (issue.input === undefined ? 'is required' : `must be a number${ofUnit}`) })
    .int({ error: `must be a whole number${ofUnit}` })
    .min(min, { error: `must be at least ${min}${inUnit}` })
    .max(max, { error: `must be at most ${max}${inUnit}` });
}

/** An opaque upstream or order id in a path: letters, digits, `_` and `-`. */
export function opaqueIdParam(maxLength: number, what: string) {
  return z
    .string({ error: 'must be a string' })
    .regex(new RegExp(`^[A-Za-z0-9_-]{1,${maxLength}}$`), { error: `must be ${what}` });
}

/**
 * Texts for the checks a schema did not word itself. The server installs it (`z.config`) so that every
 * validation answer is a sentence about the field, never zod's default wording or the input it saw.
 */
export const wireErrorTexts: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'is required';
      if (issue.expected === 'object') return 'must be an object';
      if (issue.expected === 'array') return 'must be a list';
      return `must be a ${issue.expected === 'int' ? 'whole number' : issue.expected}`;
    case 'too_small':
      return issue.origin === 'string'
        ? `must be at least ${issue.minimum} characters long`
        : `must be at least ${issue.minimum}`;
    case 'too_big':
      return issue.origin === 'string'
        ? `must be at most ${issue.maximum} characters long`
        : `must be at most ${issue.maximum}`;
    case 'invalid_value':
      return `must be one of ${issue.values.map(String).join(', ')}`;
    case 'invalid_format':
      return 'is not in the expected format';
    case 'unrecognized_keys':
      return 'has fields that are not allowed';
    default:
      return 'is invalid';
  }
};
