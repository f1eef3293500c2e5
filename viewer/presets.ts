// The four lighting presets of the EditorState (`lighting`), each with its default background.
export const LIGHTING_PRESETS = ['studio', 'softbox', 'dramatic', 'outdoor'] as const;
export type LightingPreset = (typeof LIGHTING_PRESETS)[number];

export interface LightSpec {
  kind: 'directional' | 'hemisphere' | 'ambient';
  color: number;
  /** Hemisphere lights: the ground colour. */
  ground?: number;
  intensity: number;
  /** Direction the light comes from, in units of the model's size. */
  from?: [number, number, number];
}

/** The first directional light of a preset is its key light: it casts the contact shadow. */
export interface PresetSpec {
  background: string;
  /** Strength of the image-based light from three's RoomEnvironment: every preset has some, so metals reflect a room. */
  environment: number;
  exposure: number;
  lights: LightSpec[];
}

export const PRESETS: Record<LightingPreset, PresetSpec> = {
  studio: {
    background: '#eceef1',
    environment: 0.55,
    exposure: 1,
    lights: [
      { kind: 'directional', color: 0xffffff, intensity: 2.4, from: [1.2, 2.6, 2.4] },
      { kind: 'hemisphere', color: 0xffffff, ground: 0x8d8d8d, intensity: 0.6 },
      { kind: 'directional', color: 0xffffff, intensity: 0.6, from: [-2, 0.8, 1] },
    ],
  },
  softbox: {
    background: '#f7f7f5',
    environment: 0.8,
    exposure: 0.9,
    lights: [
      { kind: 'directional', color: 0xffffff, intensity: 1.2, from: [0.6, 3, 2] },
      { kind: 'ambient', color: 0xffffff, intensity: 0.2 },
    ],
  },
  dramatic: {
    background: '#16181d',
    environment: 0.25,
    exposure: 1.1,
    lights: [
      { kind: 'directional', color: 0xfff1dc, intensity: 4.5, from: [-2.5, 1.6, 1.2] },
      { kind: 'ambient', color: 0xffffff, intensity: 0.04 },
      { kind: 'directional', color: 0x9fb8ff, intensity: 1.6, from: [2, 1, -2.5] },
    ],
  },
  outdoor: {
    background: '#bcd8f0',
    environment: 0.45,
    exposure: 1,
    lights: [
      { kind: 'directional', color: 0xfff0d6, intensity: 3.2, from: [1.5, 3, 1.2] },
      { kind: 'hemisphere', color: 0xcfe6ff, ground: 0x6b7d4f, intensity: 1.1 },
    ],
  },
};

export function isPreset(value: string | null): value is LightingPreset {
  return value !== null && (LIGHTING_PRESETS as readonly string[]).includes(value);
}

/** `#rgb` or `#rrggbb`, else null. */
export function parseHexColor(value: string | null): string | null {
  if (!value) return null;
  const text = value.trim().toLowerCase();
  if (/^#[0-9a-f]{6}$/.test(text)) return text;
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/.exec(text);
  return short ? `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}` : null;
}
