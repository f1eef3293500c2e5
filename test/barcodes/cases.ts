// One request per barcode type, the data the symbol must carry, and how zxing reports it.
import type { ReadInputBarcodeFormat } from 'zxing-wasm/reader';
import type { BarcodeRequest } from '../../src/barcodes/index.js';

export const GS1 = '(01)09501101530003(17)250101(10)AB12';

/** What zxing reports for the data sent: UPC-A as its GTIN-13, UPC-E as the GTIN-13 of its UPC-A expansion. */
export const CASES: { request: BarcodeRequest; data: string; format: ReadInputBarcodeFormat; decoded: string }[] = [
  { request: { type: 'ean13', data: '590123412345' }, data: '5901234123457', format: 'EAN13', decoded: '5901234123457' },
  { request: { type: 'ean8', data: '9638507' }, data: '96385074', format: 'EAN8', decoded: '96385074' },
  { request: { type: 'upca', data: '03600029145' }, data: '036000291452', format: 'UPCA', decoded: '0036000291452' },
  { request: { type: 'upce', data: '0123456' }, data: '01234565', format: 'UPCE', decoded: '0012345000065' },
  { request: { type: 'itf14', data: '1540014128876' }, data: '15400141288763', format: 'ITF', decoded: '15400141288763' },
  { request: { type: 'gs1-128', data: GS1 }, data: GS1, format: 'Code128', decoded: GS1 },
  { request: { type: 'gs1-datamatrix', data: GS1 }, data: GS1, format: 'DataMatrix', decoded: GS1 },
  {
    request: { type: 'qrcode', data: 'https://id.gs1.org/01/09501101530003/10/AB12' },
    data: 'https://id.gs1.org/01/09501101530003/10/AB12',
    format: 'QRCode',
    decoded: 'https://id.gs1.org/01/09501101530003/10/AB12',
  },
];
