/** Barcodes: requests checked and completed, and their symbols as millimetre-sized SVG. No framework. */
export * from './types.js';
export { gs1CheckDigit, expandUpcE } from './check-digit.js';
export { parseElementStrings, formatElementStrings } from './gs1.js';
export { validateBarcode } from './validate.js';
export { makeSymbol, shrinkOutline, symbolOutcome, type BarcodeSymbol, type SymbolOutcome } from './symbol.js';
