// zxing-cpp (zxing-wasm) as an independent barcode reader, its WebAssembly loaded from
// node_modules, never from the network.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Resvg } from '@resvg/resvg-js';
import { prepareZXingModule, readBarcodes, type ReadInputBarcodeFormat, type ReadResult } from 'zxing-wasm/reader';

const require = createRequire(import.meta.url);
const wasm = path.join(path.dirname(require.resolve('zxing-wasm/reader')), '../../reader/zxing_reader.wasm');

let prepared = false;
function prepare(): void {
  if (prepared) return;
  const bytes = readFileSync(wasm);
  prepareZXingModule({
    overrides: { wasmBinary: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer },
  });
  prepared = true;
}

/**
 * Every symbol zxing finds in an image file (PNG), GS1 data written with its AIs in parentheses;
 * `formats` narrows the search (zxing reports a UPC-A as EAN-13 unless asked for UPC-A).
 */
export async function decodeImage(image: Buffer, formats: ReadInputBarcodeFormat[] = []): Promise<ReadResult[]> {
  prepare();
  return readBarcodes(new Uint8Array(image), { formats, textMode: 'HRI', tryHarder: true, maxNumberOfSymbols: 4 });
}

/** An SVG rasterised by resvg on white at `dpi` (its millimetre size honoured). */
export function rasteriseSvg(svg: string | Buffer, dpi = 600): Buffer {
  return new Resvg(svg, { background: 'white', fitTo: { mode: 'zoom', value: dpi / 96 }, font: { loadSystemFonts: false } })
    .render()
    .asPng();
}
