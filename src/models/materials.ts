/**
 * Material (substrate) and finish as glTF PBR parameters. The substrate colours the unprinted
 * board and an unprinted outside; the finish sets how the printed surface reflects.
 */
import type { FinishId, MaterialId } from '../catalog/index.js';

export interface PbrMaterial {
  name: string;
  /** Linear RGBA. */
  baseColor: [number, number, number, number];
  metallic: number;
  roughness: number;
  /** KHR_materials_transmission factor (glass). */
  transmission?: number;
  /** KHR_materials_clearcoat factor (gloss varnish). */
  clearcoat?: number;
  /** KHR_materials_volume: the wall's thickness (metres) and how fast light is tinted in it. */
  volume?: { thickness: number; attenuationDistance: number; attenuationColor: [number, number, number] };
  /** KHR_materials_ior: index of refraction. */
  ior?: number;
  /** Blended with what lies behind by the base colour's alpha (clear film without white ink). */
  blend?: boolean;
}

/** sRGB hex → linear RGBA. */
export function linearColor(hex: string, alpha = 1): [number, number, number, number] {
  const value = Number.parseInt(hex.replace('#', ''), 16);
  const channel = (shift: number): number => {
    const c = ((value >> shift) & 0xff) / 255;
    return c <= 0.04045 ? c / 12.92 : Math.pow((c + 0.055) / 1.055, 2.4);
  };
  return [channel(16), channel(8), channel(0), alpha];
}

export const SUBSTRATES: Record<MaterialId, PbrMaterial> = {
  cardboard: { name: 'white-board', baseColor: linearColor('#f3f1ec'), metallic: 0, roughness: 0.85 },
  kraft: { name: 'kraft', baseColor: linearColor('#b48a5c'), metallic: 0, roughness: 0.95 },
  corrugated: { name: 'corrugated', baseColor: linearColor('#c29a68'), metallic: 0, roughness: 0.95 },
  plastic: { name: 'plastic', baseColor: linearColor('#f2f2f2'), metallic: 0, roughness: 0.35 },
  glass: {
    name: 'glass',
    baseColor: linearColor('#f4fbf7'),
    metallic: 0,
    roughness: 0.05,
    transmission: 1,
    // Soda-lime glass: index 1.5, a faint green where light travels through a few centimetres.
    volume: { thickness: 0.003, attenuationDistance: 0.25, attenuationColor: [0.86, 0.97, 0.9] },
    ior: 1.5,
  },
  aluminum: { name: 'aluminium', baseColor: linearColor('#d4d7db'), metallic: 1, roughness: 0.3 },
};

export const FINISHES: Record<FinishId, Pick<PbrMaterial, 'metallic' | 'roughness' | 'clearcoat'>> = {
  matte: { metallic: 0, roughness: 0.8 },
  gloss: { metallic: 0, roughness: 0.25, clearcoat: 1 },
  'soft-touch': { metallic: 0, roughness: 0.95 },
  foil: { metallic: 1, roughness: 0.25 },
};

export const CLOSURE: PbrMaterial = { name: 'closure', baseColor: linearColor('#2b2b2e'), metallic: 0, roughness: 0.45 };

/** The unprinted back of a label: opaque paper, so glass never shows the print from inside. */
export const LABEL_BACK: PbrMaterial = { name: 'label-back', baseColor: linearColor('#eeece6'), metallic: 0, roughness: 0.9 };

/** The back of a clear film label: nothing, the container shows through it. */
export const CLEAR_LABEL_BACK: PbrMaterial = {
  name: 'clear-label-back',
  baseColor: [1, 1, 1, 0],
  metallic: 0,
  roughness: 0.2,
  blend: true,
};

/**
 * The printed surface: white ink base (or the substrate where nothing is printed) with the finish.
 * `clear`: film printed without white ink, transparent where the texture's alpha says so (and
 * entirely when nothing prints).
 */
export function printMaterial(material: MaterialId, finish: FinishId, textured: boolean, clear = false): PbrMaterial {
  const substrate = SUBSTRATES[material];
  // A label on glass or plastic is an opaque printed film; on aluminium the ink sits on the metal.
  const opaqueFilm = material === 'glass' || material === 'plastic';
  const base = clear
    ? linearColor('#ffffff', textured ? 1 : 0)
    : textured || opaqueFilm
      ? linearColor('#ffffff')
      : substrate.baseColor;
  const finishParams = FINISHES[finish];
  const metallic = material === 'aluminum' && finish !== 'soft-touch' ? Math.max(finishParams.metallic, 0.6) : finishParams.metallic;
  return {
    name: `print-${finish}`,
    baseColor: base,
    metallic,
    roughness: finishParams.roughness,
    ...(finishParams.clearcoat ? { clearcoat: finishParams.clearcoat } : {}),
    ...(clear ? { blend: true } : {}),
  };
}
