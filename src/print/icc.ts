/**
 * Reads an ICC output profile's device → PCS direction and evaluates it in plain JS: CMYK (or any
 * device colour) to CIE L*a*b* (D50), relative colorimetric (`A2B1`, else `A2B0`). Handles the
 * table types press profiles use: `mft1`, `mft2` (ICC v2) and `mAB ` (ICC v4) with `curv`/`para`
 * curves, PCS Lab or XYZ. Nothing here touches the filesystem; callers pass the profile's bytes.
 */

export type Lab = [number, number, number];

/** Maps device values in 0–1 to Lab. */
export type DeviceToLab = (device: readonly number[]) => Lab;

export class IccError extends Error {}

type Curve = (x: number) => number;

const clamp01 = (x: number) => (x < 0 ? 0 : x > 1 ? 1 : x);

function tableCurve(values: readonly number[]): Curve {
  const last = values.length - 1;
  if (last < 1) return (x) => x;
  return (x) => {
    const p = clamp01(x) * last;
    const i = Math.min(last - 1, Math.floor(p));
    return values[i]! + (values[i + 1]! - values[i]!) * (p - i);
  };
}

interface Clut {
  grid: number[];
  outputs: number;
  /** Normalised 0–1 values, first input varying slowest. */
  data: Float64Array;
}

/** Multilinear interpolation over every corner of the cell the (0–1) input falls in. */
function evaluateClut(clut: Clut, input: readonly number[]): number[] {
  const n = clut.grid.length;
  const base: number[] = [];
  const frac: number[] = [];
  const strides: number[] = new Array<number>(n);
  let stride = clut.outputs;
  for (let d = n - 1; d >= 0; d--) {
    strides[d] = stride;
    stride *= clut.grid[d]!;
  }
  for (let d = 0; d < n; d++) {
    const size = clut.grid[d]!;
    const p = clamp01(input[d] ?? 0) * (size - 1);
    const i = Math.min(size - 2, Math.floor(p));
    base.push(Math.max(0, i));
    frac.push(size > 1 ? p - Math.max(0, i) : 0);
  }
  const out = new Array<number>(clut.outputs).fill(0);
  for (let corner = 0; corner < 1 << n; corner++) {
    let weight = 1;
    let offset = 0;
    for (let d = 0; d < n; d++) {
      const up = (corner >> d) & 1;
      weight *= up ? frac[d]! : 1 - frac[d]!;
      offset += (base[d]! + (clut.grid[d]! > 1 ? up : 0)) * strides[d]!;
    }
    if (weight === 0) continue;
    for (let o = 0; o < clut.outputs; o++) out[o]! += weight * clut.data[offset + o]!;
  }
  return out;
}

class Reader {
  constructor(readonly bytes: Buffer) {}
  u8 = (at: number) => this.bytes.readUInt8(at);
  u16 = (at: number) => this.bytes.readUInt16BE(at);
  u32 = (at: number) => this.bytes.readUInt32BE(at);
  s15 = (at: number) => this.bytes.readInt32BE(at) / 65536;
  sig = (at: number) => this.bytes.toString('latin1', at, at + 4);
}

/** A `curv` or `para` curve at `at`, and the byte length it takes (unpadded). */
function readCurve(r: Reader, at: number): { curve: Curve; length: number } {
  const type = r.sig(at);
  if (type === 'curv') {
    const count = r.u32(at + 8);
    if (count === 0) return { curve: (x) => x, length: 12 };
    if (count === 1) {
      const gamma = r.u16(at + 12) / 256;
      return { curve: (x) => Math.pow(clamp01(x), gamma), length: 14 };
    }
    const values: number[] = [];
    for (let i = 0; i < count; i++) values.push(r.u16(at + 12 + 2 * i) / 65535);
    return { curve: tableCurve(values), length: 12 + 2 * count };
  }
  if (type === 'para') {
    const kind = r.u16(at + 8);
    const counts = [1, 3, 4, 5, 7];
    const n = counts[kind];
    if (n === undefined) throw new IccError(`unknown parametric curve type ${kind}`);
    const [g, a = 1, b = 0, c = 0, d = 0, e = 0, f = 0] = Array.from({ length: n }, (_, i) => r.s15(at + 12 + 4 * i));
    const pow = (v: number) => (v <= 0 ? 0 : Math.pow(v, g!));
    const curves: Curve[] = [
      (x) => pow(x),
      (x) => (x >= -b / a ? pow(a * x + b) : 0),
      (x) => (x >= -b / a ? pow(a * x + b) + c : c),
      (x) => (x >= d ? pow(a * x + b) : c * x),
      (x) => (x >= d ? pow(a * x + b) + e : c * x + f),
    ];
    return { curve: curves[kind]!, length: 12 + 4 * n };
  }
  throw new IccError(`unsupported curve type '${type}'`);
}

function readCurves(r: Reader, at: number, count: number): Curve[] {
  const curves: Curve[] = [];
  let offset = at;
  for (let i = 0; i < count; i++) {
    const { curve, length } = readCurve(r, offset);
    curves.push(curve);
    offset += (length + 3) & ~3;
  }
  return curves;
}

type Stage = (values: number[]) => number[];

/** A stage applying one curve per channel. */
const perChannel = (curves: readonly Curve[]): Stage => (values) => values.map((x, i) => curves[i]!(x));

/** `mft1` / `mft2`: input curves, CLUT, output curves (the matrix applies only to XYZ input). */
function readLutV2(r: Reader, at: number, wide: boolean): { stages: Stage[]; outputs: number; legacyLab: boolean } {
  const inputs = r.u8(at + 8);
  const outputs = r.u8(at + 9);
  const gridPoints = r.u8(at + 10);
  const inEntries = wide ? r.u16(at + 48) : 256;
  const outEntries = wide ? r.u16(at + 50) : 256;
  const size = wide ? 2 : 1;
  const max = wide ? 65535 : 255;
  let offset = at + (wide ? 52 : 48);
  /** `count` values read on from `offset`. */
  const values = (count: number): number[] => {
    const read = Array.from({ length: count }, (_, i) => (wide ? r.u16(offset + size * i) : r.u8(offset + size * i)) / max);
    offset += size * count;
    return read;
  };
  const inCurves = Array.from({ length: inputs }, () => tableCurve(values(inEntries)));
  const data = Float64Array.from(values(Math.pow(gridPoints, inputs) * outputs));
  const outCurves = Array.from({ length: outputs }, () => tableCurve(values(outEntries)));
  const clut: Clut = { grid: new Array<number>(inputs).fill(gridPoints), outputs, data };
  return {
    stages: [perChannel(inCurves), (v) => evaluateClut(clut, v), perChannel(outCurves)],
    outputs,
    legacyLab: wide,
  };
}

/** `mAB `: A curves, CLUT, M curves, matrix, B curves (each optional but B). */
function readLutAtoB(r: Reader, at: number): { stages: Stage[]; outputs: number; legacyLab: boolean } {
  const inputs = r.u8(at + 8);
  const outputs = r.u8(at + 9);
  const [bOff, matrixOff, mOff, clutOff, aOff] = [12, 16, 20, 24, 28].map((k) => r.u32(at + k));
  const stages: Stage[] = [];
  if (aOff) stages.push(perChannel(readCurves(r, at + aOff, inputs)));
  if (clutOff) {
    const start = at + clutOff!;
    const grid = Array.from({ length: inputs }, (_, i) => r.u8(start + i));
    const precision = r.u8(start + 16);
    const cells = grid.reduce((a, b) => a * b, 1) * outputs;
    const data = new Float64Array(cells);
    for (let i = 0; i < cells; i++) data[i] = precision === 1 ? r.u8(start + 20 + i) / 255 : r.u16(start + 20 + 2 * i) / 65535;
    const clut: Clut = { grid, outputs, data };
    stages.push((v) => evaluateClut(clut, v));
  }
  if (mOff) stages.push(perChannel(readCurves(r, at + mOff, outputs)));
  if (matrixOff && outputs === 3) {
    const m = Array.from({ length: 12 }, (_, i) => r.s15(at + matrixOff! + 4 * i));
    stages.push(([x = 0, y = 0, z = 0]) =>
      [0, 1, 2].map((row) => m[3 * row]! * x + m[3 * row + 1]! * y + m[3 * row + 2]! * z + m[9 + row]!),
    );
  }
  if (bOff) stages.push(perChannel(readCurves(r, at + bOff, outputs)));
  return { stages, outputs, legacyLab: false };
}

const D50: Lab = [0.9642, 1, 0.8249];

function xyzToLab([x, y, z]: readonly number[]): Lab {
  const f = (t: number) => (t > 216 / 24389 ? Math.cbrt(t) : ((24389 / 27) * t + 16) / 116);
  const [fx, fy, fz] = [f(x! / D50[0]), f(y! / D50[1]), f(z! / D50[2])];
  return [116 * fy - 16, 500 * (fx - fy), 200 * (fy - fz)];
}

export interface IccProfile {
  /** The profile's own name (its `desc` tag), or '' when it has none. */
  description: string;
  channels: number;
  toLab: DeviceToLab;
}

const CHANNELS: Readonly<Record<string, number>> = { 'CMYK': 4, 'RGB ': 3, 'GRAY': 1, 'CMY ': 3 };

/** Parses the profile; throws IccError when it is not one this module can evaluate. */
export function parseIccProfile(bytes: Buffer): IccProfile {
  if (bytes.length < 132 || bytes.toString('latin1', 36, 40) !== 'acsp') throw new IccError('not an ICC profile');
  const r = new Reader(bytes);
  const colorSpace = r.sig(16);
  const pcs = r.sig(20);
  const count = r.u32(128);
  const tags = new Map<string, number>();
  for (let i = 0; i < count && 132 + 12 * i + 12 <= bytes.length; i++) tags.set(r.sig(132 + 12 * i), r.u32(136 + 12 * i));
  const at = tags.get('A2B1') ?? tags.get('A2B0');
  if (at === undefined || at + 12 > bytes.length) throw new IccError('the profile has no device-to-PCS table');
  const type = r.sig(at);
  let lut: { stages: Stage[]; outputs: number; legacyLab: boolean };
  try {
    if (type === 'mft2') lut = readLutV2(r, at, true);
    else if (type === 'mft1') lut = readLutV2(r, at, false);
    else if (type === 'mAB ') lut = readLutAtoB(r, at);
    else throw new IccError(`unsupported table type '${type}'`);
  } catch (error) {
    if (error instanceof RangeError) throw new IccError('the profile is truncated');
    throw error;
  }
  if (lut.outputs !== 3) throw new IccError('the device-to-PCS table does not give three PCS values');
  const { stages, legacyLab } = lut;
  const toPcs = (device: readonly number[]) => stages.reduce<number[]>((values, stage) => stage(values), device.map(clamp01));
  const toLab: DeviceToLab =
    pcs === 'Lab '
      ? (device) => {
          const [l = 0, a = 0, b = 0] = toPcs(device);
          // ICC v2 16-bit Lab puts L* 100 at 0xFF00; v4 at 0xFFFF.
          const k = legacyLab ? 65535 / 65280 : 1;
          return [l * k * 100, a * k * 255 - 128, b * k * 255 - 128];
        }
      : (device) => xyzToLab(toPcs(device).map((v) => (v * 65535) / 32768));
  return {
    description: readDescription(r, tags.get('desc')),
    channels: CHANNELS[colorSpace] ?? 0,
    toLab,
  };
}

/** A `desc` (ICC v2) or `mluc` (v4, its first record) text; '' when absent or unreadable. */
function readDescription(r: Reader, at: number | undefined): string {
  try {
    if (at === undefined) return '';
    const type = r.sig(at);
    if (type === 'desc') {
      const length = r.u32(at + 8);
      return r.bytes.toString('latin1', at + 12, at + 12 + length).replace(/\0+$/, '').trim();
    }
    if (type === 'mluc' && r.u32(at + 8) > 0) {
      const [length, offset] = [r.u32(at + 20), r.u32(at + 24)];
      const utf16 = r.bytes.subarray(at + offset, at + offset + length);
      return Buffer.from(utf16).swap16().toString('utf16le').replace(/\0+$/, '').trim();
    }
  } catch {
    // A broken text tag leaves the profile unnamed.
  }
  return '';
}

/** CIE 1976 colour difference. */
export const deltaE = (a: Lab, b: Lab) => Math.hypot(a[0] - b[0], a[1] - b[1], a[2] - b[2]);
