/**
 * GS1 element strings as written for people: `(01)09501101530003(17)250101(10)AB12`. This module
 * reads the syntax and checks what a reader most often gets wrong (a GTIN's or SSCC's check digit,
 * a date that does not exist) with messages naming the AI; every AI's format, its character set
 * and whether the AI exists at all are then checked by BWIPP's GS1 linter when the symbol is made
 * (symbol.ts turns its errors into the same kind of message).
 */
import { gs1CheckDigit } from './check-digit.js';
import { BarcodeInputError } from './types.js';

export interface ElementString {
  ai: string;
  value: string;
}

/** AIs whose value is digits ending in a GS1 check digit, by their fixed length. */
const CHECKED_DIGITS: Readonly<Record<string, number>> = {
  '00': 18, '01': 14, '02': 14,
  '410': 13, '411': 13, '412': 13, '413': 13, '414': 13, '415': 13, '416': 13, '417': 13,
};

/** AIs holding a date YYMMDD (DD 00 allowed: the end of the month). */
const DATES = new Set(['11', '12', '13', '15', '16', '17']);

const PART = /\((\d{2,4})\)([^()]*)/y;

const fail = (reason: string): never => {
  throw new BarcodeInputError('data', reason);
};

export function parseElementStrings(data: string): ElementString[] {
  if (!data.startsWith('(')) fail('a GS1 element string starts with an AI in parentheses, e.g. (01)09501101530003.');
  const elements: ElementString[] = [];
  PART.lastIndex = 0;
  while (PART.lastIndex < data.length) {
    const at = PART.lastIndex;
    const match = PART.exec(data);
    if (!match) return fail(`cannot read an AI in parentheses at character ${at + 1}.`);
    const [, ai, value] = match;
    if (value!.length === 0) fail(`(${ai}) has no value.`);
    elements.push({ ai: ai!, value: value! });
  }
  for (const element of elements) checkElement(element);
  return elements;
}

function checkElement({ ai, value }: ElementString): void {
  const length = CHECKED_DIGITS[ai];
  if (length !== undefined) {
    if (!/^\d+$/.test(value)) fail(`(${ai}) takes digits only.`);
    if (value.length !== length) fail(`(${ai}) takes ${length} digits, not ${value.length}.`);
    const expected = gs1CheckDigit(value.slice(0, -1));
    if (Number(value.at(-1)) !== expected) fail(`(${ai}) the check digit should be ${expected}.`);
  }
  if (DATES.has(ai)) checkDate(ai, value);
}

function checkDate(ai: string, value: string): void {
  if (!/^\d{6}$/.test(value)) fail(`(${ai}) is a date YYMMDD: six digits, not '${value}'.`);
  const year = 2000 + Number(value.slice(0, 2));
  const month = Number(value.slice(2, 4));
  const day = Number(value.slice(4, 6));
  if (month < 1 || month > 12) fail(`(${ai}) is a date YYMMDD; ${value} has no month ${month}.`);
  const days = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > days) fail(`(${ai}) is a date YYMMDD; month ${month} has no day ${day}.`);
}

/** AIs of a predefined length (by their first two digits): no FNC1 separator follows them. */
const PREDEFINED_LENGTH = new Set([
  '00', '01', '02', '03', '04', '11', '12', '13', '14', '15', '16', '17', '18', '19', '20',
  '31', '32', '33', '34', '35', '36', '41',
]);

/** A GS1-128 symbol holds at most this many data characters (GS1 General Specifications §5.4.1). */
export const GS1_128_MAX_DATA_CHARACTERS = 48;

/** Data characters of the encoded string: AIs, values and the FNC1 after each variable-length value but the last. */
export function dataCharacters(elements: readonly ElementString[]): number {
  return elements.reduce((sum, { ai, value }, i) => {
    const separator = i < elements.length - 1 && !PREDEFINED_LENGTH.has(ai.slice(0, 2)) ? 1 : 0;
    return sum + ai.length + value.length + separator;
  }, 0);
}

/** The element string as BWIPP and decoders write it: every AI in parentheses. */
export const formatElementStrings = (elements: readonly ElementString[]) => elements.map(({ ai, value }) => `(${ai})${value}`).join('');
