// Asset rows: what was uploaded, by whom, under which stored name.
import type { PrismaClient } from '../generated/prisma/client.js';
import { mapOwnerMissing } from './prisma-errors.js';

export interface Asset {
  id: string;
  userId: string;
  /** The stored file name served by GET /files/:name. */
  name: string;
  /** The client's original file name, cleaned. */
  filename: string;
  mimeType: string;
  sizeBytes: number;
  createdAt: Date;
}

export type NewAsset = Omit<Asset, 'createdAt'>;

/** What serving a file needs. */
export type StoredFile = Pick<Asset, 'name' | 'mimeType' | 'sizeBytes'>;

const fields = {
  id: true,
  userId: true,
  name: true,
  filename: true,
  mimeType: true,
  sizeBytes: true,
  createdAt: true,
} as const;

export function createAssetRepository(prisma: PrismaClient) {
  return {
    /** Throws OwnerMissingError when the account no longer exists. */
    create(asset: NewAsset): Promise<Asset> {
      return mapOwnerMissing(() => prisma.asset.create({ data: asset, select: fields }));
    },

    /** The owner's assets, newest first. */
    listOwned(userId: string): Promise<Asset[]> {
      return prisma.asset.findMany({
        where: { userId },
        orderBy: [{ createdAt: 'desc' }, { id: 'desc' }],
        select: fields,
      });
    },

    /** One lookup on the unique name; files are public, so no owner scope. */
    findFile(name: string): Promise<StoredFile | null> {
      return prisma.asset.findUnique({ where: { name }, select: { name: true, mimeType: true, sizeBytes: true } });
    },
  };
}

export type AssetRepository = ReturnType<typeof createAssetRepository>;
