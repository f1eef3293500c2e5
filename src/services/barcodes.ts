// Barcodes as assets: the request checked and completed (src/barcodes), the symbol made as a
// millimetre-sized SVG in a render child (off the event loop, within the analysis deadline), and
// stored as the caller's asset through the upload path (analysis, thumbnail, clean-up on failure).
// Bad input is a 400 naming the field; nothing is stored then.
import { BarcodeInputError, validateBarcode, type BarcodeRequest, type BarcodeSpec } from '../barcodes/index.js';
import { badRequest } from '../errors.js';
import type { Renderer } from '../render/index.js';
import type { Asset } from '../repositories/assets.js';
import type { AssetService } from './assets.js';

/** The stored asset's filename: the type and data, as a file system would accept it. */
function filenameOf(spec: BarcodeSpec): string {
  const data = spec.data.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 200);
  return `${spec.type}-${data || 'code'}.svg`;
}

export function createBarcodeService(assets: AssetService, renderer: Renderer) {
  return {
    async create(userId: string, request: BarcodeRequest, signal?: AbortSignal): Promise<Asset> {
      let spec: BarcodeSpec;
      try {
        spec = validateBarcode(request);
      } catch (error) {
        if (error instanceof BarcodeInputError) throw badRequest(error.message);
        throw error;
      }
      const outcome = await renderer.run('analysis', 'barcode.make', { spec }, userId, signal);
      if (!outcome.ok) throw badRequest(`${outcome.field}: ${outcome.reason}`);
      return assets.storeMadeSvg(userId, outcome.symbol.svg, filenameOf(spec), outcome.symbol.facts, signal);
    },
  };
}
