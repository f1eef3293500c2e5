/**
 * Barcode types, their size parameters (GS1 General Specifications) and the facts an asset
 * records about the symbol it holds.
 */

export const BARCODE_TYPES = ['ean13', 'ean8', 'upca', 'upce', 'itf14', 'gs1-128', 'gs1-datamatrix', 'qrcode'] as const;
export type BarcodeType = (typeof BARCODE_TYPES)[number];

/** EAN/UPC are sized by magnification; the other types by their module (X-dimension). */
export const MAGNIFIED_TYPES: readonly BarcodeType[] = ['ean13', 'ean8', 'upca', 'upce'];
export const isMagnified = (type: BarcodeType) => MAGNIFIED_TYPES.includes(type);

/** The X-dimension of an EAN/UPC symbol at magnification 1.0, mm. */
export const EAN_UPC_NOMINAL_X_MM = 0.33;

export const MAGNIFICATION_RANGE = { min: 0.8, max: 2.0, default: 1 } as const;

/** Module (X-dimension) ranges and defaults in mm of the types sized by module. */
export const MODULE_RANGES: Readonly<
  Record<Exclude<BarcodeType, 'ean13' | 'ean8' | 'upca' | 'upce'>, { min: number; max: number; default: number }>
> = {
  itf14: { min: 0.495, max: 1.016, default: 1.016 },
  'gs1-128': { min: 0.25, max: 1.016, default: 0.495 },
  'gs1-datamatrix': { min: 0.25, max: 1.0, default: 0.5 },
  qrcode: { min: 0.25, max: 1.0, default: 0.5 },
};

export const BAR_WIDTH_REDUCTION_MAX_MM = 0.1;
export const QR_MAX_CHARACTERS = 1000;

/** What a client asks for (the POST /barcodes body). */
export interface BarcodeRequest {
  type: BarcodeType;
  data: string;
  magnification?: number;
  moduleMm?: number;
  barWidthReductionMm?: number;
  humanReadable?: boolean;
}

/** A request checked and completed: data with its check digit, every size decided. */
export interface BarcodeSpec {
  type: BarcodeType;
  /** The encoded data: digits with the check digit, a GS1 element string, or text. */
  data: string;
  /** EAN/UPC only; null for the types sized by module. */
  magnification: number | null;
  /** The X-dimension, mm. */
  moduleMm: number;
  barWidthReductionMm: number;
  humanReadable: boolean;
}

/** What an asset records about the symbol it holds. */
export interface BarcodeFacts {
  type: BarcodeType;
  data: string;
  magnification: number | null;
  moduleMm: number;
  /** The whole symbol, quiet zones included, mm. */
  widthMm: number;
  heightMm: number;
}

/** Bad input: the field it is about and why, as the client reads it ("data: the check digit should be 7."). */
export class BarcodeInputError extends Error {
  constructor(
    readonly field: keyof BarcodeRequest,
    readonly reason: string,
  ) {
    super(`${field}: ${reason}`);
    this.name = 'BarcodeInputError';
  }
}
