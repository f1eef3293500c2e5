// The barcode module on its own: every type's SVG, rasterised by resvg, read back by zxing to the
// data sent; GS1 nominal sizes; check digits; GS1 element strings; bar width reduction; outlines only.
import { describe, expect, it } from 'vitest';
import bwipjs from 'bwip-js';
import {
  BarcodeInputError,
  expandUpcE,
  gs1CheckDigit,
  makeSymbol,
  validateBarcode,
  type BarcodeRequest,
} from '../../src/barcodes/index.js';
import { decodeImage, rasteriseSvg } from '../helpers/zxing.js';
import { CASES, GS1 } from './cases.js';


const refusal = (request: BarcodeRequest) => {
  try {
    makeSymbol(validateBarcode(request));
  } catch (error) {
    expect(error).toBeInstanceOf(BarcodeInputError);
    return (error as Error).message;
  }
  throw new Error(`${JSON.stringify(request)} was accepted`);
};

const svgSize = (svg: string) => {
  const [, w, h] = /width="([\d.]+)mm" height="([\d.]+)mm"/.exec(svg)!;
  return { width: Number(w), height: Number(h) };
};

/** Modules of a linear symbol (bars and spaces) and of a 2D symbol's side, as BWIPP encodes them. */
function encodedModules(type: string, data: string): { across: number; down?: number } {
  const bcid = { 'gs1-128': 'gs1-128', 'gs1-datamatrix': 'gs1datamatrix', qrcode: 'qrcode', itf14: 'itf14' }[type]!;
  const [raw] = bwipjs.raw(bcid, data, {}) as Array<{ sbs?: number[]; pixx?: number; pixy?: number }>;
  if (raw!.sbs) return { across: raw!.sbs.reduce((sum, width) => sum + width, 0) };
  return { across: raw!.pixx!, down: raw!.pixy! };
}

describe('barcode symbols', () => {
  it.each(CASES)('$request.type: the SVG read by zxing gives exactly the data', async ({ request, data, format, decoded }) => {
    const { svg, facts } = makeSymbol(validateBarcode(request));
    expect(facts.data).toBe(data);
    const found = await decodeImage(rasteriseSvg(svg, 600), [format]);
    expect(found.map((result) => [result.format, result.text])).toEqual([[format, decoded]]);
  });

  it('EAN/UPC have the GS1 nominal size at magnification 1.0 and scale with it, within 0.1 mm', () => {
    const nominal = { ean13: [37.29, 25.93], upca: [37.29, 25.93], upce: [22.11, 25.93], ean8: [26.73, 21.31] } as const;
    for (const [type, [width, height]] of Object.entries(nominal)) {
      for (const magnification of [0.8, 1, 2]) {
        const { svg, facts } = makeSymbol(
          validateBarcode({
            type: type as BarcodeRequest['type'],
            data: CASES.find((c) => c.request.type === type)!.request.data,
            magnification,
          }),
        );
        const size = svgSize(svg);
        expect(Math.abs(size.width - width * magnification), `${type} at ${magnification}`).toBeLessThan(0.1);
        expect(Math.abs(size.height - height * magnification), `${type} at ${magnification}`).toBeLessThan(0.1);
        expect([facts.widthMm, facts.heightMm]).toEqual([size.width, size.height]);
        expect(facts.moduleMm).toBeCloseTo(0.33 * magnification, 6);
      }
    }
  });

  it('the types sized by module have their modules and quiet zones times X, within 0.1 mm', () => {
    const gs1 = makeSymbol(validateBarcode({ type: 'gs1-128', data: GS1, moduleMm: 0.5 }));
    // Code 128: the encoded modules and 10 X of quiet zone each side; bars 31.75 mm at 0.495 mm, scaled.
    expect(Math.abs(svgSize(gs1.svg).width - (encodedModules('gs1-128', GS1).across + 20) * 0.5)).toBeLessThan(0.1);
    const dm = makeSymbol(validateBarcode({ type: 'gs1-datamatrix', data: GS1, moduleMm: 0.4 }));
    const dmModules = encodedModules('gs1-datamatrix', GS1);
    expect(Math.abs(svgSize(dm.svg).width - (dmModules.across + 2) * 0.4)).toBeLessThan(0.1);
    expect(Math.abs(svgSize(dm.svg).height - (dmModules.down! + 2) * 0.4)).toBeLessThan(0.1);
    const qr = makeSymbol(validateBarcode({ type: 'qrcode', data: 'hello', moduleMm: 0.25 }));
    expect(Math.abs(svgSize(qr.svg).width - (encodedModules('qrcode', 'hello').across + 8) * 0.25)).toBeLessThan(0.1);
    // ITF-14 at 1.016 mm: 14 digits at 3:1 (135 modules), 10 X quiet zones inside a 4 X bearer frame;
    // bars 31.75 mm between the bearers, and the digits below.
    const itf = makeSymbol(validateBarcode({ type: 'itf14', data: '1540014128876' }));
    expect(Math.abs(svgSize(itf.svg).width - (135 + 20 + 8) * 1.016)).toBeLessThan(0.1);
    expect(Math.abs(svgSize(itf.svg).height - (31.75 + 8 * 1.016 + 12 * 1.016))).toBeLessThan(0.1);
  });

  it('computes a check digit left out and refuses a wrong one, naming it', () => {
    expect(gs1CheckDigit('590123412345')).toBe(7);
    expect(validateBarcode({ type: 'ean13', data: '590123412345' }).data).toBe('5901234123457');
    expect(refusal({ type: 'ean13', data: '5901234123458' })).toBe('data: the check digit should be 7.');
    expect(refusal({ type: 'ean8', data: '96385070' })).toBe('data: the check digit should be 4.');
    expect(refusal({ type: 'upca', data: '036000291453' })).toBe('data: the check digit should be 2.');
    // UPC-E's check digit is that of its UPC-A expansion.
    expect(expandUpcE('0123456')).toBe('01234500006');
    expect(refusal({ type: 'upce', data: '01234567' })).toBe('data: the check digit should be 5.');
    expect(refusal({ type: 'itf14', data: '15400141288760' })).toBe('data: the check digit should be 3.');
    expect(refusal({ type: 'gs1-128', data: '(01)09501101530004(17)250101' })).toBe('data: (01) the check digit should be 3.');
  });

  it('refuses wrong lengths, non-digits and sizes out of range, naming the field', () => {
    expect(refusal({ type: 'ean13', data: '59012341234' })).toBe(
      'data: an EAN-13 has 12 digits, or 13 with its check digit; 11 were sent.',
    );
    expect(refusal({ type: 'ean13', data: '59012341234X' })).toBe("data: only digits are allowed; 'X' is not a digit.");
    expect(refusal({ type: 'upce', data: '2123456' })).toBe('data: a UPC-E starts with its number system 0 or 1.');
    expect(refusal({ type: 'ean13', data: '590123412345', magnification: 0.79 })).toBe(
      'magnification: must be between 0.8 and 2.0 for ean13.',
    );
    expect(refusal({ type: 'ean13', data: '590123412345', moduleMm: 0.33 })).toBe(
      'moduleMm: does not apply to ean13, which is sized by magnification.',
    );
    expect(refusal({ type: 'itf14', data: '1540014128876', moduleMm: 0.4 })).toBe(
      'moduleMm: must be between 0.495 and 1.016 mm for itf14.',
    );
    expect(refusal({ type: 'qrcode', data: 'x', moduleMm: 1.016 })).toBe('moduleMm: must be between 0.25 and 1 mm for qrcode.');
    expect(refusal({ type: 'qrcode', data: 'x'.repeat(1001) })).toBe('data: at most 1000 characters fit in a QR code here.');
    expect(refusal({ type: 'ean13', data: '590123412345', barWidthReductionMm: 0.2 })).toBe(
      'barWidthReductionMm: must be between 0 and 0.1 mm.',
    );
  });

  it('checks GS1 element strings AI by AI', () => {
    expect(refusal({ type: 'gs1-128', data: '(17)251301' })).toBe('data: (17) is a date YYMMDD; 251301 has no month 13.');
    expect(refusal({ type: 'gs1-datamatrix', data: '(01)09501101530003(17)250230' })).toBe(
      'data: (17) is a date YYMMDD; month 2 has no day 30.',
    );
    expect(refusal({ type: 'gs1-128', data: '(01)0950110153000' })).toBe('data: (01) takes 14 digits, not 13.');
    expect(refusal({ type: 'gs1-128', data: '(6000)ABC' })).toBe('data: (6000) is not a GS1 Application Identifier.');
    expect(refusal({ type: 'gs1-128', data: '(10)AB~' })).toBe('data: (10) invalid CSET 82 character.');
    expect(refusal({ type: 'gs1-128', data: '01095011015300031' })).toBe(
      'data: a GS1 element string starts with an AI in parentheses, e.g. (01)09501101530003.',
    );
    expect(refusal({ type: 'gs1-128', data: '(01)' })).toBe('data: (01) has no value.');
    // A leap day is a date; 2100 is no leap year, but GS1 years run 2000–2099 here.
    expect(validateBarcode({ type: 'gs1-128', data: '(17)240229' }).data).toBe('(17)240229');
  });

  it('writes filled outlines only: no text, strokes, images or background', () => {
    for (const { request } of CASES) {
      const { svg } = makeSymbol(validateBarcode(request));
      expect(svg).not.toMatch(/<text|<image|stroke|<rect|<use|href/);
      expect(svg.match(/<path /g)!.length).toBeGreaterThan(0);
    }
  });

  it('narrows every bar by the bar width reduction, and every dark module of a 2D symbol', async () => {
    const plain = makeSymbol(validateBarcode({ type: 'ean13', data: '590123412345' })).svg;
    const reduced = makeSymbol(validateBarcode({ type: 'ean13', data: '590123412345', barWidthReductionMm: 0.05 })).svg;
    const widths = (svg: string) => [...svg.matchAll(/M([\d.]+) 0H([\d.]+)V/g)].map(([, a, b]) => Number(b) - Number(a));
    // One module is 10 units (0.33 mm): 0.05 mm is 1.515 units off every bar.
    const pairs = widths(plain).map((width, i) => width - widths(reduced)[i]!);
    expect(pairs.length).toBeGreaterThan(20);
    for (const difference of pairs) expect(difference).toBeCloseTo((0.05 / 0.33) * 10, 2);
    // Still scans, and the 2D symbols too.
    expect((await decodeImage(rasteriseSvg(reduced, 600))).map((r) => r.text)).toEqual(['5901234123457']);
    for (const type of ['gs1-datamatrix', 'qrcode'] as const) {
      const request = CASES.find((c) => c.request.type === type)!;
      const svg = makeSymbol(validateBarcode({ ...request.request, barWidthReductionMm: 0.1 })).svg;
      expect((await decodeImage(rasteriseSvg(svg, 600))).map((r) => r.text)).toEqual([request.decoded]);
    }
  });
});
