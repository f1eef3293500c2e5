/**
 * Layers (optional content groups) of the print file: the artwork on one, and the die's cut and
 * crease lines each on their own (and a tube laminate's or pouch's eye mark, the White plate and
 * each effect plate on its own, named as its spot colour), the die lines tagged with ISO 19593-1 processing steps (group `Structural`,
 * types `Cutting` and `Creasing`) so prepress software finds them by meaning, not by name.
 * Every layer is on by default and printed; content is wrapped in `/OC /<name> BDC … EMC`.
 */
import { EFFECT_PLATES, WHITE_PLATE, type Effect } from './effects.js';

export type LayerKey = 'white' | 'artwork' | Effect | 'eyemark' | 'cut' | 'crease';

interface LayerSpec {
  name: string;
  /** ISO 19593-1 processing step type in the Structural group; none for artwork. */
  stepType?: 'Cutting' | 'Creasing';
}

const effectLayer = (effect: Effect): LayerSpec => ({ name: EFFECT_PLATES[effect].spot });

const LAYERS: Readonly<Record<LayerKey, LayerSpec>> = {
  white: { name: WHITE_PLATE.spot },
  artwork: { name: 'Artwork' },
  'foil-gold': effectLayer('foil-gold'),
  'foil-silver': effectLayer('foil-silver'),
  'spot-uv': effectLayer('spot-uv'),
  emboss: effectLayer('emboss'),
  deboss: effectLayer('deboss'),
  eyemark: { name: 'Eye mark' },
  cut: { name: 'Cutting', stepType: 'Cutting' },
  crease: { name: 'Creasing', stepType: 'Creasing' },
};

/** Resource names of the layers in each page's Properties. */
const PROPERTY_NAMES: Readonly<Record<LayerKey, string>> = {
  white: 'OCWhite',
  artwork: 'OCArtwork',
  'foil-gold': 'OCFoilGold',
  'foil-silver': 'OCFoilSilver',
  'spot-uv': 'OCSpotUV',
  emboss: 'OCEmboss',
  deboss: 'OCDeboss',
  eyemark: 'OCEyeMark',
  cut: 'OCCut',
  crease: 'OCCrease',
};

interface PdfKitRoot {
  _root: { data: Record<string, unknown> };
}

export class PrintLayers {
  private readonly groups = new Map<LayerKey, PDFKit.PDFKitReference>();

  constructor(
    private readonly doc: PDFKit.PDFDocument,
    keys: readonly LayerKey[],
  ) {
    for (const key of keys) {
      const spec = LAYERS[key];
      const group = doc.ref({
        Type: 'OCG',
        Name: new String(spec.name),
        ...(spec.stepType ? { GTS_Metadata: { GTS_ProcStepsGroup: 'Structural', GTS_ProcStepsType: spec.stepType } } : {}),
      });
      // @types/pdfkit declares a required chunk; pdfkit writes the object when given none.
      group.end(undefined);
      this.groups.set(key, group);
    }
    const all = [...this.groups.values()];
    (doc as unknown as PdfKitRoot)._root.data.OCProperties = {
      OCGs: all,
      D: { Name: new String('Print'), Order: all, ON: all, OFF: [], BaseState: 'ON' },
    };
  }

  /** Draws `content` on the layer of `key` on the current page. */
  async on(key: LayerKey, content: () => void | Promise<void>): Promise<void> {
    const group = this.groups.get(key);
    if (!group) throw new Error(`no layer ${key}`);
    const page = this.doc.page as unknown as { resources: { data: Record<string, Record<string, unknown> | undefined> } };
    const properties = (page.resources.data.Properties ??= {});
    properties[PROPERTY_NAMES[key]] = group;
    this.doc.addContent(`/OC /${PROPERTY_NAMES[key]} BDC`);
    await content();
    this.doc.addContent('EMC');
  }
}
