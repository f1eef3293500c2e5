/**
 * A barcode request checked and completed: digits and lengths per type, check digits computed
 * when left out and verified when given, GS1 element strings read, sizes within the type's range.
 */
import { expandUpcE, gs1CheckDigit } from './check-digit.js';
import { dataCharacters, formatElementStrings, GS1_128_MAX_DATA_CHARACTERS, parseElementStrings } from './gs1.js';
import {
  BAR_WIDTH_REDUCTION_MAX_MM,
  BarcodeInputError,
  EAN_UPC_NOMINAL_X_MM,
  isMagnified,
  MAGNIFICATION_RANGE,
  MODULE_RANGES,
  QR_MAX_CHARACTERS,
  type BarcodeRequest,
  type BarcodeSpec,
  type BarcodeType,
} from './types.js';

/** Digits-only types: their name for messages and their length with the check digit. */
const DIGIT_TYPES: Partial<Record<BarcodeType, { name: string; length: number }>> = {
  ean13: { name: 'an EAN-13', length: 13 },
  ean8: { name: 'an EAN-8', length: 8 },
  upca: { name: 'a UPC-A', length: 12 },
  upce: { name: 'a UPC-E', length: 8 },
  itf14: { name: 'an ITF-14', length: 14 },
};

const fail = (field: keyof BarcodeRequest, reason: string): never => {
  throw new BarcodeInputError(field, reason);
};

/** The digits with their check digit: computed when left out, verified when given. */
function completeDigits(type: BarcodeType, data: string): string {
  const { name, length } = DIGIT_TYPES[type]!;
  const stray = /\D/u.exec(data);
  if (stray) fail('data', `only digits are allowed; '${stray[0]}' is not a digit.`);
  if (data.length !== length && data.length !== length - 1) {
    fail('data', `${name} has ${length - 1} digits, or ${length} with its check digit; ${data.length} were sent.`);
  }
  if (type === 'upce' && data[0] !== '0' && data[0] !== '1') fail('data', 'a UPC-E starts with its number system 0 or 1.');
  const body = data.slice(0, length - 1);
  const expected = gs1CheckDigit(type === 'upce' ? expandUpcE(body) : body);
  if (data.length === length && Number(data[length - 1]) !== expected) fail('data', `the check digit should be ${expected}.`);
  return `${body}${expected}`;
}

function completeData(type: BarcodeType, data: string): string {
  if (data.length === 0) fail('data', 'must not be empty.');
  if (DIGIT_TYPES[type]) return completeDigits(type, data);
  if (type === 'gs1-128' || type === 'gs1-datamatrix') {
    const elements = parseElementStrings(data);
    const characters = dataCharacters(elements);
    if (type === 'gs1-128' && characters > GS1_128_MAX_DATA_CHARACTERS) {
      fail('data', `a GS1-128 holds at most ${GS1_128_MAX_DATA_CHARACTERS} data characters; this one needs ${characters}.`);
    }
    return formatElementStrings(elements);
  }
  if ([...data].length > QR_MAX_CHARACTERS) fail('data', `at most ${QR_MAX_CHARACTERS} characters fit in a QR code here.`);
  return data;
}

const inRange = (value: number, min: number, max: number) => value >= min && value <= max;

export function validateBarcode(request: BarcodeRequest): BarcodeSpec {
  const { type } = request;
  const data = completeData(type, request.data);
  const bwr = request.barWidthReductionMm ?? 0;
  if (!inRange(bwr, 0, BAR_WIDTH_REDUCTION_MAX_MM)) fail('barWidthReductionMm', `must be between 0 and ${BAR_WIDTH_REDUCTION_MAX_MM} mm.`);
  const humanReadable = request.humanReadable ?? true;
  if (isMagnified(type)) {
    if (request.moduleMm !== undefined) fail('moduleMm', `does not apply to ${type}, which is sized by magnification.`);
    const magnification = request.magnification ?? MAGNIFICATION_RANGE.default;
    if (!inRange(magnification, MAGNIFICATION_RANGE.min, MAGNIFICATION_RANGE.max)) {
      fail('magnification', `must be between ${MAGNIFICATION_RANGE.min} and ${MAGNIFICATION_RANGE.max.toFixed(1)} for ${type}.`);
    }
    return { type, data, magnification, moduleMm: EAN_UPC_NOMINAL_X_MM * magnification, barWidthReductionMm: bwr, humanReadable };
  }
  if (request.magnification !== undefined) fail('magnification', `does not apply to ${type}, which is sized by moduleMm.`);
  const range = MODULE_RANGES[type as keyof typeof MODULE_RANGES];
  const moduleMm = request.moduleMm ?? range.default;
  if (!inRange(moduleMm, range.min, range.max)) fail('moduleMm', `must be between ${range.min} and ${range.max} mm for ${type}.`);
  if (bwr >= moduleMm / 2) fail('barWidthReductionMm', `must be less than half the module (${moduleMm} mm).`);
  return { type, data, magnification: null, moduleMm, barWidthReductionMm: bwr, humanReadable };
}
