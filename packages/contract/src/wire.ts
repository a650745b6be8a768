import { z } from 'zod';
import { defineMessages } from './i18n/define-messages';
import en from './i18n/locales/en.json';

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

/**
 * The fragments of a validation answer ('Invalid request: <field> <fragment>.') and its frame. Schemas
 * name them as functions (`{ error: () => say.mustBeString }`) so each is read in the language of the
 * request that failed, not in the language of the moment the schema was built.
 */
export const validationMessages = defineMessages('validation', en.validation, (t) => ({
  invalidRequest: (field: string, problem: string) => t('invalidRequest', { field, problem }),
  item: (number: number) => t('item', { number }),
  mustBeType: (type: string) => t('mustBeType', { type }),
  minLength: (min: number) => t('minLength', { min }),
  maxLength: (max: number) => t('maxLength', { max }),
  longerThan: (max: number) => t('longerThan', { max }),
  atLeast: (min: number) => t('atLeast', { min }),
  atMost: (max: number) => t('atMost', { max }),
  moreThan: (min: number) => t('moreThan', { min }),
  atLeastHours: (hours: number) => t('atLeastHours', { count: hours }),
  atMostHours: (hours: number) => t('atMostHours', { count: hours }),
  oneOf: (values: readonly unknown[]) => t('oneOf', { values: values.map(String).join(', ') }),
  maxOverrides: (max: number) => t('maxOverrides', { max }),
  maxEntries: (max: number) => t('maxEntries', { max }),
  rentPeriod: (minHours: number, maxHours: number) => t('rentPeriod', { minHours, maxHours }),
  periodMismatch: (period: string, hours: number) => t('periodMismatch', { period, count: hours }),
}));
const say = validationMessages;

/** A single-line string of at most `maxLength` characters. */
export function plainText(maxLength: number) {
  return z
    .string({ error: () => say.mustBeString })
    .max(maxLength, { error: () => say.maxLength(maxLength) })
    .refine((value) => !hasControlCharacters(value), { error: () => say.noControlCharacters, abort: true });
}

/** A message body: like plainText, but line breaks and tabs are allowed. */
export function multilineText(maxLength: number) {
  return z
    .string({ error: () => say.mustBeString })
    .max(maxLength, { error: () => say.maxLength(maxLength) })
    .refine((value) => !hasControlCharacters(value, true), {
      error: () => say.noControlCharactersExceptLineBreaks,
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
    .string({ error: () => say.mustBeWholeNumber })
    .regex(pattern, { error: () => say.wholeNumberInDigits, abort: true })
    .max(String(max).length, { error: () => say.atMost(max), abort: true })
    .transform(Number)
    .pipe(
      z
        .number()
        .min(min, { error: () => say.atLeast(min) })
        .max(max, { error: () => say.atMost(max) }),
    );
}

/** A row id in a path or a query string. */
export const databaseIdParam = decimalInteger(1, DATABASE_ID_MAX);

/** A whole number in a JSON body: a real JSON number, never a string or a boolean; optionally of hours. */
export function jsonInteger(min: number, max: number, unit: 'hours' | null = null) {
  const hours = unit === 'hours';
  return z
    .number({
      error: (issue) =>
        issue.input === undefined ? say.isRequired : hours ? say.numberOfHours : say.mustBeNumber,
    })
    .int({ error: () => (hours ? say.wholeNumberOfHours : say.mustBeWholeNumber) })
    .min(min, { error: () => (hours ? say.atLeastHours(min) : say.atLeast(min)) })
    .max(max, { error: () => (hours ? say.atMostHours(max) : say.atMost(max)) });
}

/** An opaque upstream or order id in a path: letters, digits, `_` and `-`; `invalid` says what it must be. */
export function opaqueIdParam(maxLength: number, invalid: () => string) {
  return z
    .string({ error: () => say.mustBeString })
    .regex(new RegExp(`^[A-Za-z0-9_-]{1,${maxLength}}$`), { error: invalid });
}

const typeTexts: Partial<Record<string, () => string>> = {
  object: () => say.mustBeObject,
  array: () => say.mustBeList,
  int: () => say.mustBeWholeNumber,
  string: () => say.mustBeString,
  number: () => say.mustBeNumber,
  boolean: () => say.mustBeBoolean,
};

/**
 * Texts for the checks a schema did not word itself. The server installs it (`z.config`) so that every
 * validation answer is a sentence about the field, never zod's default wording or the input it saw.
 */
export const wireErrorTexts: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return say.isRequired;
      return typeTexts[issue.expected]?.() ?? say.mustBeType(issue.expected);
    case 'too_small':
      return issue.origin === 'string'
        ? say.minLength(Number(issue.minimum))
        : say.atLeast(Number(issue.minimum));
    case 'too_big':
      return issue.origin === 'string'
        ? say.maxLength(Number(issue.maximum))
        : say.atMost(Number(issue.maximum));
    case 'invalid_value':
      return say.oneOf(issue.values);
    case 'invalid_format':
      return say.notExpectedFormat;
    case 'unrecognized_keys':
      return say.unrecognizedKeys;
    default:
      return say.isInvalid;
  }
};
