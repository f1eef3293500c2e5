// The local-disk storage on its own: temporary names, commit, discard, and start-up clean-up.
import { mkdtempSync, readdirSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { createLocalDiskStorage, STALE_TEMP_MS } from '../../src/storage/local-disk.js';

const freshRoot = () => path.join(mkdtempSync(path.join(tmpdir(), 'pf-storage-')), 'uploads');

describe('local-disk storage', () => {
  it('creates its directory, writes under a temporary name and shows the file only on commit', async () => {
    const root = freshRoot();
    const storage = createLocalDiskStorage(root);
    const pending = await storage.put(Readable.from([Buffer.from('hello '), Buffer.from('world')]));
    expect(pending.size).toBe(11);
    expect(readdirSync(root)).toEqual([expect.stringMatching(/^\.tmp-[a-z0-9]+$/)]);
    await pending.commit('abc.png');
    expect(readdirSync(root)).toEqual(['abc.png']);
    expect(await storage.stat('abc.png')).toEqual({ size: 11 });
    const opened = await storage.open('abc.png');
    expect(opened?.size).toBe(11);
    expect(await text(opened!.stream)).toBe('hello world');
    await pending.discard();
    expect(readdirSync(root)).toEqual(['abc.png']);
    await storage.delete('abc.png');
    await storage.delete('abc.png');
    expect(readdirSync(root)).toEqual([]);
    expect(await storage.open('abc.png')).toBeNull();
    expect(await storage.stat('abc.png')).toBeNull();
  });

  it('leaves nothing when the source fails part way', async () => {
    const root = freshRoot();
    const storage = createLocalDiskStorage(root);
    const source = new Readable({ read() {} });
    const put = storage.put(source);
    source.push(Buffer.alloc(64 * 1024));
    setTimeout(() => source.destroy(new Error('client went away')), 20);
    await expect(put).rejects.toThrow('client went away');
    expect(readdirSync(root)).toEqual([]);
  });

  it('save writes a derived object whole under its name, replaces an existing one, and leaves no temporary file', async () => {
    const root = freshRoot();
    const storage = createLocalDiskStorage(root);
    await storage.save('abc-thumb.webp', Buffer.from('first'));
    expect(readdirSync(root)).toEqual(['abc-thumb.webp']);
    await storage.save('abc-thumb.webp', Buffer.from('second, longer'));
    expect(readdirSync(root)).toEqual(['abc-thumb.webp']);
    const opened = await storage.open('abc-thumb.webp');
    expect(await text(opened!.stream)).toBe('second, longer');
    await expect(storage.save('../escape.webp', Buffer.from('x'))).rejects.toThrow(/unsafe storage name/);
    expect(readdirSync(root)).toEqual(['abc-thumb.webp']);
  });

  it('discard removes the temporary file', async () => {
    const root = freshRoot();
    const storage = createLocalDiskStorage(root);
    const pending = await storage.put(Readable.from([Buffer.from('x')]));
    await pending.discard();
    expect(readdirSync(root)).toEqual([]);
  });

  it.each(['../escape.png', 'a/b.png', '.hidden', '', 'a\\b.png', '/etc/passwd'])('refuses the unsafe name %j', async (name) => {
    const storage = createLocalDiskStorage(freshRoot());
    await expect(storage.stat(name)).rejects.toThrow(/unsafe storage name/);
    await expect(storage.open(name)).rejects.toThrow(/unsafe storage name/);
    await expect(storage.delete(name)).rejects.toThrow(/unsafe storage name/);
  });

  it('removes stale temporary files at start-up and keeps recent ones and stored files', () => {
    const root = freshRoot();
    createLocalDiskStorage(root);
    for (const name of ['.tmp-old', '.tmp-recent', 'kept.png']) writeFileSync(path.join(root, name), 'x');
    const past = (Date.now() - STALE_TEMP_MS - 60_000) / 1000;
    utimesSync(path.join(root, '.tmp-old'), past, past);
    utimesSync(path.join(root, 'kept.png'), past, past);
    createLocalDiskStorage(root);
    expect(readdirSync(root).sort()).toEqual(['.tmp-recent', 'kept.png']);
  });
});
