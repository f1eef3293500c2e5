// The pure pieces of uploads and file serving, without a server.
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { detectImageType, looksLikeSvg } from '../../src/lib/image-type.js';
import { UploadGuard } from '../../src/lib/upload-guard.js';
import { matchesEtag } from '../../src/lib/entity-tags.js';
import { cleanFilename, STORED_NAME, THUMBNAIL_NAME, thumbnailNameOf } from '../../src/services/assets.js';
import { imageFixture } from '../helpers/images.js';

const text = (value: string) => new TextEncoder().encode(value);

describe('looksLikeSvg', () => {
  it.each([
    ['a bare root', '<svg xmlns="http://www.w3.org/2000/svg"/>'],
    ['a root with a newline before its attributes', '<svg\nxmlns="http://www.w3.org/2000/svg"></svg>'],
    ['an XML declaration, comments and whitespace first', '<?xml version="1.0"?>\n<!-- a -->\n<!-- b -->\n<svg></svg>'],
    ['a UTF-8 byte order mark first', '\uFEFF<svg></svg>'],
    [
      'a DOCTYPE with public and system ids',
      '<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd"><svg/>',
    ],
  ])('accepts %s', (_label, value) => {
    expect(looksLikeSvg(text(value))).toBe(true);
  });

  it.each([
    ['HTML', '<!DOCTYPE html><html><svg></svg></html>'],
    ['a namespaced or upper-case root', '<SVG></SVG>'],
    ['another element named svg-something', '<svgfoo></svgfoo>'],
    ['text before the root', 'hello <svg></svg>'],
    ['an unterminated comment', '<!-- <svg></svg>'],
    ['a stylesheet processing instruction', '<?xml-stylesheet href="a.xsl"?><svg/>'],
    ['an internal DTD subset', '<!DOCTYPE svg [<!ENTITY x "y">]><svg/>'],
    ['a DOCTYPE of another document type', '<!DOCTYPE html><svg/>'],
    ['nothing', ''],
  ])('refuses %s', (_label, value) => {
    expect(looksLikeSvg(text(value))).toBe(false);
  });

  it('refuses UTF-16 text', () => {
    expect(looksLikeSvg(Buffer.from('\uFEFF<svg></svg>', 'utf16le'))).toBe(false);
  });
});

describe('detectImageType', () => {
  it.each([
    ['tiny.png', 'image/png', 'png'],
    ['tiny.jpg', 'image/jpeg', 'jpg'],
    ['tiny.gif', 'image/gif', 'gif'],
    ['tiny.webp', 'image/webp', 'webp'],
    ['tiny.avif', 'image/avif', 'avif'],
    ['tiny.svg', 'image/svg+xml', 'svg'],
  ] as const)('%s is %s (.%s)', async (fixture, mime, ext) => {
    expect(await detectImageType(imageFixture(fixture))).toEqual({ mime, ext });
  });

  it('refuses HTML, a PDF and an XML document that is not SVG', async () => {
    expect(await detectImageType(imageFixture('page-disguised.png'))).toBeNull();
    expect(await detectImageType(text('%PDF-1.4\n'))).toBeNull();
    expect(await detectImageType(text('<?xml version="1.0"?><note/>'))).toBeNull();
  });
});

describe('cleanFilename', () => {
  it.each([
    [undefined, ''],
    ['logo.png', 'logo.png'],
    ['a/b/c.png', 'c.png'],
    ['a\\b\\c.png', 'c.png'],
    ['dir/', ''],
    ['  spaced.png  ', 'spaced.png'],
    ['tab\there.png', 'tabhere.png'],
    ['nul\u0000.png', 'nul.png'],
    ['c1\u0085.png', 'c1.png'],
    ['\u2066isolate\u2069.png', 'isolate.png'],
  ])('%j → %j', (raw, cleaned) => {
    expect(cleanFilename(raw)).toBe(cleaned);
  });

  it('cuts at 255 characters without splitting a surrogate pair', () => {
    const cleaned = cleanFilename('😀'.repeat(300));
    expect(Array.from(cleaned)).toHaveLength(255);
    expect(cleaned).toBe('😀'.repeat(255));
  });
});

describe('STORED_NAME', () => {
  it.each(['tz4a98xxat96iws9zmbrgj3a.png', 'abcdefghijklmnopqrst.svg', 'a'.repeat(32) + '.avif'])('matches %s', (name) => {
    expect(STORED_NAME.test(name)).toBe(true);
  });
  const refused = [
    '../a.png', 'a.png', 'A'.repeat(24) + '.png', 'a'.repeat(24) + '.html', 'a'.repeat(24) + '.png/', '.tmp-' + 'a'.repeat(24),
    'a'.repeat(33) + '.png',
  ];
  it.each(refused)('refuses %s', (name) => {
    expect(STORED_NAME.test(name)).toBe(false);
  });
});

describe('thumbnail names', () => {
  it('are the stored stem + "-thumb.webp", which THUMBNAIL_NAME accepts and STORED_NAME does not', () => {
    const name = thumbnailNameOf('tz4a98xxat96iws9zmbrgj3a.png');
    expect(name).toBe('tz4a98xxat96iws9zmbrgj3a-thumb.webp');
    expect(THUMBNAIL_NAME.test(name)).toBe(true);
    expect(STORED_NAME.test(name)).toBe(false);
  });
  const refused = [
    'tz4a98xxat96iws9zmbrgj3a.png-thumb.webp', 'a-thumb.webp', 'A'.repeat(24) + '-thumb.webp', 'a'.repeat(24) + '-thumb.png',
    '../' + 'a'.repeat(24) + '-thumb.webp',
  ];
  it.each(refused)('refuses %s', (name) => {
    expect(THUMBNAIL_NAME.test(name)).toBe(false);
  });
});

describe('matchesEtag', () => {
  const etag = '"abc.png-12"';
  it.each([
    [etag, true],
    [`W/${etag}`, true],
    [`"x", ${etag}`, true],
    ['*', true],
    ['"abc.png-13"', false],
    ['abc.png-12', false],
    [undefined, false],
    ['', false],
  ])('%j → %s', (header, expected) => {
    expect(matchesEtag(header, etag)).toBe(expected);
  });
});

describe('UploadGuard', () => {
  const guardFor = (maxBytes: number, headBytes: number) =>
    new UploadGuard<string>({
      maxBytes,
      headBytes,
      tooLarge: () => new Error('too large'),
      inspect: async (head) => {
        if (head[0] !== 0x41) throw new Error('refused');
        return `head of ${head.length}`;
      },
    });

  const collect = async (chunks: Buffer[], guard: UploadGuard<string>) => {
    const out: Buffer[] = [];
    await pipeline(Readable.from(chunks), guard, async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) out.push(chunk);
    });
    return Buffer.concat(out);
  };

  it('passes every byte through, in order, after inspecting the head', async () => {
    const guard = guardFor(100, 4);
    const data = Buffer.from('ABCDEFGHIJ');
    const out = await collect([data.subarray(0, 2), data.subarray(2, 5), data.subarray(5)], guard);
    expect(out.equals(data)).toBe(true);
    expect(guard.verdict).toBe('head of 4');
    expect(guard.bytes).toBe(10);
  });

  it('inspects a body shorter than the head at its end', async () => {
    const guard = guardFor(100, 64);
    expect((await collect([Buffer.from('AB')], guard)).toString()).toBe('AB');
    expect(guard.verdict).toBe('head of 2');
  });

  it('accepts exactly maxBytes and fails at one more', async () => {
    expect((await collect([Buffer.from('A'.repeat(10))], guardFor(10, 4))).length).toBe(10);
    await expect(collect([Buffer.from('A'.repeat(11))], guardFor(10, 4))).rejects.toThrow('too large');
  });

  it('fails with the verdict error, before releasing any byte', async () => {
    const guard = guardFor(100, 4);
    const out: Buffer[] = [];
    const run = pipeline(Readable.from([Buffer.from('ZZZZZZZZ')]), guard, async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) out.push(chunk);
    });
    await expect(run).rejects.toThrow('refused');
    expect(out).toEqual([]);
  });
});
