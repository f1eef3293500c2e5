/**
 * Barcode benchmark: per type, mean and p99 wall time of checking a request and making its symbol
 * (validateBarcode + makeSymbol: BWIPP's encoding and layout, the millimetre SVG), and the SVG's size.
 * The HTTP route adds the asset's storage and analysis (a render child), measured by the asset rows.
 * Run: sh scripts/node.sh node_modules/.bin/tsx bench/barcodes.ts [iterations]
 */
import { performance } from 'node:perf_hooks';
import { makeSymbol, validateBarcode, type BarcodeRequest } from '../src/barcodes/index.js';

const WARMUP = 20;
const argument = Number(process.argv[2]);
const ITERATIONS = Number.isFinite(argument) && argument > 0 ? argument : 200;

const REQUESTS: readonly BarcodeRequest[] = [
  { type: 'ean13', data: '590123412345' },
  { type: 'ean8', data: '9638507' },
  { type: 'upca', data: '03600029145' },
  { type: 'upce', data: '0123456' },
  { type: 'itf14', data: '1540014128876' },
  { type: 'gs1-128', data: '(01)09501101530003(17)250101(10)AB12' },
  { type: 'gs1-datamatrix', data: '(01)09501101530003(17)250101(10)AB12(21)123456789012' },
  { type: 'qrcode', data: 'https://id.gs1.org/01/09501101530003/10/AB12?17=250101' },
  { type: 'qrcode', data: 'x'.repeat(1000), barWidthReductionMm: 0.05 },
];

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.max(0, Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1))]!;
}

function main(): void {
  console.log(`${'type'.padEnd(16)}${'data chars'.padStart(11)}${'mean ms'.padStart(9)}${'p99 ms'.padStart(9)}${'svg KB'.padStart(9)}`);
  for (const request of REQUESTS) {
    const run = () => makeSymbol(validateBarcode(request));
    for (let i = 0; i < WARMUP; i++) run();
    const samples: number[] = [];
    let bytes = 0;
    for (let i = 0; i < ITERATIONS; i++) {
      const start = performance.now();
      bytes = run().svg.length;
      samples.push(performance.now() - start);
    }
    samples.sort((a, b) => a - b);
    const mean = samples.reduce((sum, value) => sum + value, 0) / samples.length;
    console.log(
      `${request.type.padEnd(16)}${String(request.data.length).padStart(11)}${mean.toFixed(2).padStart(9)}` +
        `${percentile(samples, 99).toFixed(2).padStart(9)}${(bytes / 1024).toFixed(1).padStart(9)}`,
    );
  }
}

main();
