/**
 * Independent readers for the CAD formats: ezdxf (Debian's python3-ezdxf, strict readfile plus
 * audit) for DXF, and a CF2 parser written from the format's description, as lenient as die
 * shops' readers (spaces after commas, SUB blocks placed by C records).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import type { Dieline } from '../../src/dielines/index.js';

const run = promisify(execFile);
// The system interpreter: python3-ezdxf is a Debian package, outside any virtualenv or pyenv.
const PYTHON = '/usr/bin/python3';
const SCRIPT = fileURLToPath(new URL('./dxf-read.py', import.meta.url));

export interface DxfReading {
  version: string;
  insunits: number;
  errors: string[];
  types: string[];
  layers: string[];
  lengths: Record<string, number>;
  lineEnds: Record<string, [number, number][]>;
}

/** Reads each DXF text with ezdxf; one interpreter for the whole batch. */
export async function readDxf(texts: readonly string[]): Promise<DxfReading[]> {
  const dir = await mkdtemp(join(tmpdir(), 'dxf-'));
  try {
    const files = texts.map((_, index) => join(dir, `${index}.dxf`));
    await Promise.all(texts.map((text, index) => writeFile(files[index]!, text)));
    const { stdout } = await run(PYTHON, [SCRIPT, ...files], { maxBuffer: 256 * 1024 * 1024 });
    const parsed = JSON.parse(stdout) as Record<string, DxfReading>;
    return files.map((file) => parsed[file]!);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

export interface Cf2Rule {
  kind: 'L' | 'A';
  pointage: number;
  type: number;
  length: number;
  start: [number, number];
  end: [number, number];
}

export interface Cf2Reading {
  header: string[];
  mainName: string;
  units: string;
  ll: [number, number];
  ur: [number, number];
  rules: Cf2Rule[];
}

type Transform = (p: [number, number]) => [number, number];

/** Parses a CF2 file; throws on anything it does not understand. */
export function parseCf2(text: string): Cf2Reading {
  const lines = text.split(/\r?\n/).map((line) => line.trim()).filter((line) => line.length > 0);
  const fields = (line: string) => line.split(',').map((field) => field.trim());
  if (lines[0] !== '$BOF' || lines[lines.length - 1] !== '$EOF') throw new Error('CF2 must start with $BOF and end with $EOF');
  const header: string[] = [];
  const blocks = new Map<string, string[][]>();
  let mainName = '';
  let i = 1;
  while (i < lines.length - 1) {
    const [keyword, name] = fields(lines[i]!);
    if (keyword === 'ORDER') {
      while (lines[i] !== 'END') i++;
      i++;
      continue;
    }
    if (keyword === 'MAIN' || keyword === 'SUB') {
      if (!name) throw new Error(`${keyword} without a name`);
      if (keyword === 'MAIN') mainName = name;
      const body: string[][] = [];
      i++;
      while (lines[i] !== 'END') {
        if (i >= lines.length - 1) throw new Error(`${keyword},${name} has no END`);
        body.push(fields(lines[i]!));
        i++;
      }
      blocks.set(name, body);
      i++;
      continue;
    }
    header.push(lines[i]!);
    i++;
  }
  const main = blocks.get(mainName);
  if (!main) throw new Error('no MAIN block');
  const reading: Cf2Reading = { header, mainName, units: '', ll: [0, 0], ur: [0, 0], rules: [] };
  const walk = (body: string[][], transform: Transform, scale: number, depth: number): void => {
    if (depth > 8) throw new Error('SUB calls nest too deep');
    for (const record of body) {
      const [keyword, ...rest] = record;
      const num = rest.map(Number);
      switch (keyword) {
        case 'UM':
        case 'UI':
          reading.units = keyword;
          break;
        case 'LL':
          reading.ll = [num[0]!, num[1]!];
          break;
        case 'UR':
          reading.ur = [num[0]!, num[1]!];
          break;
        case 'SCALE':
          break;
        case 'L': {
          const [p, t, , x1, y1, x2, y2] = num as number[];
          const start = transform([x1!, y1!]);
          const end = transform([x2!, y2!]);
          reading.rules.push({ kind: 'L', pointage: p!, type: t!, length: Math.hypot(end[0] - start[0], end[1] - start[1]), start, end });
          break;
        }
        case 'A': {
          const [p, t, , sx, sy, ex, ey, cx, cy, d] = num as number[];
          if (d !== 1 && d !== -1) throw new Error(`arc direction ${d}`);
          const a0 = Math.atan2(sy! - cy!, sx! - cx!);
          const a1 = Math.atan2(ey! - cy!, ex! - cx!);
          const full = Math.hypot(ex! - sx!, ey! - sy!) < 1e-9;
          let sweep = full ? 2 * Math.PI : d === 1 ? a1 - a0 : a0 - a1;
          while (sweep <= 0) sweep += 2 * Math.PI;
          const radius = Math.hypot(sx! - cx!, sy! - cy!);
          reading.rules.push({
            kind: 'A',
            pointage: p!,
            type: t!,
            length: radius * sweep * scale,
            start: transform([sx!, sy!]),
            end: transform([ex!, ey!]),
          });
          break;
        }
        case 'C': {
          // C,<sub>,x,y,angle,xscale,yscale
          const sub = blocks.get(rest[0]!);
          if (!sub) throw new Error(`C calls unknown SUB ${rest[0]}`);
          const [x, y, angle, sxScale, syScale] = rest.slice(1).map(Number);
          const rad = ((angle ?? 0) * Math.PI) / 180;
          const kx = sxScale ?? 1;
          const ky = syScale ?? 1;
          if (Math.abs(Math.abs(kx) - Math.abs(ky)) > 1e-12) throw new Error('non-uniform SUB scale');
          const inner: Transform = ([px, py]) => {
            const qx = px * kx;
            const qy = py * ky;
            return transform([x! + qx * Math.cos(rad) - qy * Math.sin(rad), y! + qx * Math.sin(rad) + qy * Math.cos(rad)]);
          };
          walk(sub, inner, scale * Math.abs(kx), depth + 1);
          break;
        }
        default:
          throw new Error(`unknown CF2 record ${record.join(',')}`);
      }
    }
  };
  walk(main, (p) => p, 1, 0);
  return reading;
}

export function polylineLength(points: readonly [number, number][], closed: boolean): number {
  let sum = 0;
  for (let k = 1; k < points.length; k++) sum += Math.hypot(points[k]![0] - points[k - 1]![0], points[k]![1] - points[k - 1]![1]);
  if (closed && points.length > 1) sum += Math.hypot(points[0]![0] - points.at(-1)![0], points[0]![1] - points.at(-1)![1]);
  return sum;
}

/** Total length of a dieline's paths of one type, as the JSON model draws them. */
export function dielineLength(dieline: Dieline, type: string): number {
  return dieline.paths.filter((path) => path.type === type).reduce((sum, path) => sum + polylineLength(path.points, path.closed), 0);
}

/** 0.1 mm plus 0.01 %: true arcs are slightly longer than the model's chords. */
export function lengthTolerance(expected: number): number {
  return 0.1 + expected * 1e-4;
}
