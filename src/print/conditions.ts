/**
 * Printing conditions a print file can be made for: the registered name its OutputIntent carries,
 * the characterisation profile (built from the condition's published data by
 * scripts/make-press-profile.sh and committed next to this file) and the total ink limit preflight
 * checks. The profiles are read from disk once per process; nothing is fetched at run time.
 */
import { readFile } from 'node:fs/promises';
import { kept } from './memo.js';

export interface PrintCondition {
  /** The value of `condition=`. */
  key: string;
  /** OutputConditionIdentifier: the condition's name in the ICC characterisation registry. */
  identifier: string;
  registry: 'http://www.color.org';
  /** Human-readable OutputCondition / Info of the OutputIntent. */
  description: string;
  /** Total area coverage limit in percent (sum of C, M, Y and K). */
  inkLimit: number;
  profileFile: string;
}

export const PRINT_CONDITIONS: Readonly<Record<string, PrintCondition>> = {
  fogra39: {
    key: 'fogra39',
    identifier: 'FOGRA39',
    registry: 'http://www.color.org',
    description:
      'Offset commercial and specialty printing according to ISO 12647-2:2004/Amd 1, OFCOM, ' +
      'paper type 1 or 2 = coated art, 115 g/m2, tone value increase curves A (CMY) and B (K)',
    inkLimit: 300,
    profileFile: 'fogra39.icc',
  },
  fogra29: {
    key: 'fogra29',
    identifier: 'FOGRA29',
    registry: 'http://www.color.org',
    description:
      'Offset commercial and specialty printing according to ISO 12647-2:2004/Amd 1, ' +
      'OFCOM, paper type 4 = uncoated white, 120 g/m2, screen ruling 60/cm',
    inkLimit: 300,
    profileFile: 'fogra29.icc',
  },
  gracol2006: {
    key: 'gracol2006',
    identifier: 'CGATS TR 006',
    registry: 'http://www.color.org',
    description: 'GRACoL 2006 Coated #1: offset printing on grade 1 coated paper (ANSI CGATS TR 006), ISO 12647-2 paper type 1',
    inkLimit: 300,
    profileFile: 'gracol2006.icc',
  },
};

export const DEFAULT_CONDITION = 'fogra39';
export const CONDITION_KEYS = Object.keys(PRINT_CONDITIONS);
/** Materials printed uncoated (the board's own surface), so for FOGRA29 unless asked otherwise. */
export const UNCOATED_MATERIALS: readonly string[] = ['kraft', 'corrugated'];

/** The condition a design prints for without `condition=`: by its material. */
export function conditionForMaterial(material: unknown): string {
  return typeof material === 'string' && UNCOATED_MATERIALS.includes(material) ? 'fogra29' : DEFAULT_CONDITION;
}

export function printCondition(key: string | undefined): PrintCondition {
  return PRINT_CONDITIONS[key ?? DEFAULT_CONDITION] ?? PRINT_CONDITIONS[DEFAULT_CONDITION]!;
}

const cache = new Map<string, Promise<Buffer>>();

/** The profile's bytes, read once per process. */
export function profilePath(file: string): URL {
  return new URL(`./profiles/${file}`, import.meta.url);
}

function readProfile(file: string): Promise<Buffer> {
  return kept(cache, file, () => readFile(profilePath(file)));
}

export const conditionProfile = (condition: PrintCondition) => readProfile(condition.profileFile);

/** sRGB IEC 61966-2.1 (icc-profiles-free, zlib licence): the RGB print files' colour space. */
export const SRGB_PROFILE_FILE = 'srgb.icc';
export const srgbProfile = () => readProfile(SRGB_PROFILE_FILE);
