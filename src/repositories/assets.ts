// Asset rows: what was uploaded, by whom, under which stored name, and what the image is.
import type { BarcodeFacts } from '../barcodes/types.js';
import type { Asset as AssetRow, PrismaClient } from '../generated/prisma/client.js';
import { keysetPage, type ListPosition } from '../lib/cursors.js';
import { mapOwnerMissing } from './prisma-errors.js';
import type { ColorSpace } from '../generated/prisma/enums.js';
import type { SqlQueryable } from './driver-sql.js';
import { deleteRecordingFiles } from './file-deletions.js';

export type { ColorSpace };

/** What reading the image told: null where the file does not say. */
export type ImageMetadata = Pick<AssetRow, 'widthPx' | 'heightPx' | 'dpi' | 'colorSpace' | 'hasAlpha'>;

/** Metadata, digest and thumbnail as recorded once the stored file was read. */
export type AssetMetadata = ImageMetadata & Pick<AssetRow, 'sha256' | 'thumbnailName' | 'thumbnailBytes'>;

/** An asset without the backfill's mark; barcode: the symbol's facts when the service made it as a barcode. */
export type Asset = Omit<AssetRow, 'metadataReadAt' | 'barcode'> & { barcode: BarcodeFacts | null };

export type NewAsset = Omit<Asset, 'createdAt' | 'barcode'> & { barcode?: BarcodeFacts | null };

/** What serving a file needs. */
export type StoredFile = Pick<AssetRow, 'name' | 'mimeType' | 'sizeBytes'>;

/** What print and preview read of a placed asset. */
export interface PlacedFile extends StoredFile, Pick<ImageMetadata, 'widthPx' | 'heightPx'> {
  barcode: BarcodeFacts | null;
}

/** A stored SVG as the backfill re-checks it. */
export type StoredSvg = Pick<Asset, 'id' | 'userId' | 'name' | 'createdAt'>;

/** A row the backfill still has to read. */
export type UnreadAsset = Pick<Asset, 'id' | 'name' | 'mimeType' | 'createdAt'>;

/** An asset as the services see it: every column but the backfill's mark. */
const omitted = { metadataReadAt: true } as const;

/** The JSON column as written by create(): the facts barcodes/symbol.ts made. */
const barcodeOf = (value: unknown): BarcodeFacts | null => (value && typeof value === 'object' ? (value as BarcodeFacts) : null);
const withBarcode = <T extends { barcode: unknown }>(row: T): Omit<T, 'barcode'> & { barcode: BarcodeFacts | null } => ({
  ...row,
  barcode: barcodeOf(row.barcode),
});

export const THUMBNAIL_MIME_TYPE = 'image/webp';

export function createAssetRepository(prisma: PrismaClient, sql: SqlQueryable) {
  return {
    /** Throws OwnerMissingError when the account no longer exists. */
    async create(asset: NewAsset): Promise<Asset> {
      const { barcode, ...columns } = asset;
      const row = await mapOwnerMissing(() =>
        prisma.asset.create({
          data: { ...columns, ...(barcode ? { barcode: { ...barcode } } : {}), metadataReadAt: new Date() },
          omit: omitted,
        }),
      );
      return withBarcode(row);
    },

    /** The owner's assets, newest first. */
    async listOwned(userId: string): Promise<Asset[]> {
      const rows = await prisma.asset.findMany({ where: { userId }, orderBy: keysetPage(null).orderBy, omit: omitted });
      return rows.map(withBarcode);
    },

    async findOwned(userId: string, id: string): Promise<Asset | null> {
      const row = await prisma.asset.findFirst({ where: { id, userId }, omit: omitted });
      return row && withBarcode(row);
    },

    /**
     * Deletes the owner's asset and records its file and thumbnail in the deletion outbox, in one
     * statement: the row as it was deleted names them, so a thumbnail the backfill recorded a
     * moment before cannot be orphaned. Returns the names to remove, or null when there is no such asset.
     */
    async deleteOwned(userId: string, id: string): Promise<string[] | null> {
      const names = await deleteRecordingFiles(sql, 'assets', ['name', 'thumbnailName'], '"id" = $1 AND "userId" = $2', [id, userId]);
      return names.length > 0 ? names : null;
    },

    /** One lookup on the unique name; files are public, so no owner scope. */
    findFile(name: string): Promise<StoredFile | null> {
      return prisma.asset.findUnique({ where: { name }, select: { name: true, mimeType: true, sizeBytes: true } });
    },

    /** The thumbnail stored under name, if an asset has one by that name. */
    async findThumbnail(name: string): Promise<StoredFile | null> {
      const row = await prisma.asset.findUnique({ where: { thumbnailName: name }, select: { thumbnailBytes: true } });
      return row && row.thumbnailBytes !== null ? { name, mimeType: THUMBNAIL_MIME_TYPE, sizeBytes: row.thumbnailBytes } : null;
    },

    /** Rows stored before metadata existed, oldest first, after the cursor of the previous page. */
    listUnread(limit: number, after?: ListPosition): Promise<UnreadAsset[]> {
      const { where, orderBy } = keysetPage(after, 'asc');
      return prisma.asset.findMany({
        where: { metadataReadAt: null, ...where },
        orderBy,
        take: limit,
        select: { id: true, name: true, mimeType: true, createdAt: true },
      });
    },

    /** Stored SVGs, oldest first, a page after `after` (the backfill re-checks them against the cost model). */
    listSvgs(limit: number, after?: ListPosition): Promise<StoredSvg[]> {
      const { where, orderBy } = keysetPage(after, 'asc');
      return prisma.asset.findMany({
        where: { mimeType: 'image/svg+xml', ...where },
        orderBy,
        take: limit,
        select: { id: true, userId: true, name: true, createdAt: true },
      });
    },

    /** Records what the backfill read; false when the row is gone or was already filled. */
    async recordMetadata(id: string, metadata: AssetMetadata): Promise<boolean> {
      const { count } = await prisma.asset.updateMany({
        where: { id, metadataReadAt: null },
        data: { ...metadata, metadataReadAt: new Date() },
      });
      return count === 1;
    },

    /** The owner's assets among `names` (print and preview read only these). */
    async findOwnedByNames(userId: string, names: readonly string[]): Promise<PlacedFile[]> {
      const rows = await prisma.asset.findMany({
        where: { userId, name: { in: [...names] } },
        select: { name: true, mimeType: true, sizeBytes: true, widthPx: true, heightPx: true, barcode: true },
      });
      return rows.map(withBarcode);
    },
  };
}

export type AssetRepository = ReturnType<typeof createAssetRepository>;
