/**
 * What makes a pdfkit document PDF/X-4 (ISO 15930-7): the version keys in the Info dictionary and
 * the XMP metadata, `Trapped False`, the OutputIntent naming the printing condition with its
 * profile embedded once, and the document's one ICC-based sRGB colour space. pdfkit writes the
 * trailer ID, the dates and the XMP packet; this module adds to them through its low-level API.
 */
import type { PrintCondition } from './conditions.js';

export const PDFX_VERSION = 'PDF/X-4';

/** A PDF name in pdfkit's Info dictionary, where plain strings become PDF strings. */
class PdfName {
  readonly [Symbol.toStringTag] = 'PdfName';
  constructor(private readonly name: string) {}
  toString(): string {
    return `/${this.name}`;
  }
  valueOf(): string {
    return this.name;
  }
}

/** pdfkit's internals this module writes to; @types/pdfkit does not declare them. */
interface PdfKitInternals {
  _root: { data: Record<string, unknown> };
  info: Record<string, unknown>;
  appendXML(xml: string, newline?: boolean): void;
}

const xmlEscape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const isoDate = (date: Date) => `${date.toISOString().split('.')[0]}Z`;

export interface PdfXDocument {
  /** `[/ICCBased <sRGB profile>]`, for images and DefaultRGB (null in a cmyk file). */
  srgb: unknown[] | null;
}

/**
 * Declares PDF/X-4 on a document opened with pdfVersion 1.6 and fixed Title, CreationDate and
 * ModDate in its info. `documentId` is a stable identifier of the file's content (hex).
 */
export function declarePdfX(
  doc: PDFKit.PDFDocument,
  input: { condition: PrintCondition; profile: Buffer; srgbProfile: Buffer | null; documentId: string },
): PdfXDocument {
  const internals = doc as unknown as PdfKitInternals;
  const info = internals.info;
  info.GTS_PDFXVersion = PDFX_VERSION;
  info.Trapped = new PdfName('False');

  const { condition } = input;
  const profile = doc.ref({ N: 4, Alternate: 'DeviceCMYK' });
  profile.end(input.profile);
  const intent = doc.ref({
    Type: 'OutputIntent',
    S: 'GTS_PDFX',
    OutputConditionIdentifier: new String(condition.identifier),
    OutputCondition: new String(condition.description),
    RegistryName: new String(condition.registry),
    Info: new String(condition.description),
    DestOutputProfile: profile,
  });
  // @types/pdfkit declares a required chunk; pdfkit writes the object when given none.
  intent.end(undefined);
  internals._root.data.OutputIntents = [intent];

  let srgb: unknown[] | null = null;
  if (input.srgbProfile) {
    const stream = doc.ref({ N: 3, Alternate: 'DeviceRGB' });
    stream.end(input.srgbProfile);
    srgb = ['ICCBased', stream];
  }

  const created = info.CreationDate as Date;
  const modified = (info.ModDate as Date | undefined) ?? created;
  const id = input.documentId;
  const uuid = `uuid:${id.slice(0, 8)}-${id.slice(8, 12)}-${id.slice(12, 16)}-${id.slice(16, 20)}-${id.slice(20, 32)}`;
  internals.appendXML(`
        <rdf:Description rdf:about="" xmlns:pdfxid="http://www.npes.org/pdfx/ns/id/" xmlns:pdfx="http://ns.adobe.com/pdfx/1.3/">
            <pdfxid:GTS_PDFXVersion>${PDFX_VERSION}</pdfxid:GTS_PDFXVersion>
            <pdfx:GTS_PDFXVersion>${PDFX_VERSION}</pdfx:GTS_PDFXVersion>
        </rdf:Description>
        <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/">
            <xmp:ModifyDate>${isoDate(modified)}</xmp:ModifyDate>
            <xmp:MetadataDate>${isoDate(modified)}</xmp:MetadataDate>
        </rdf:Description>
        <rdf:Description rdf:about="" xmlns:pdf="http://ns.adobe.com/pdf/1.3/">
            <pdf:Trapped>False</pdf:Trapped>
        </rdf:Description>
        <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/">
            <dc:format>application/pdf</dc:format>
        </rdf:Description>
        <rdf:Description rdf:about="" xmlns:xmpMM="http://ns.adobe.com/xap/1.0/mm/">
            <xmpMM:DocumentID>${xmlEscape(uuid)}</xmpMM:DocumentID>
            <xmpMM:InstanceID>${xmlEscape(uuid)}</xmpMM:InstanceID>
            <xmpMM:VersionID>1</xmpMM:VersionID>
            <xmpMM:RenditionClass>default</xmpMM:RenditionClass>
        </rdf:Description>`);
  return { srgb };
}
