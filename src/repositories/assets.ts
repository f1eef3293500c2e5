// Asset rows: what was uploaded, by whom, under which stored name.
import type { PrismaClient } from '../generated/prisma/client.js';

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
    create(asset: NewAsset): Promise<Asset> {
      return prisma.asset.create({ data: asset, select: fields });
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

    /** The owner's assets among `names` (print and preview read only these). */
    findOwnedByNames(userId: string, names: readonly string[]): Promise<StoredFile[]> {
      return prisma.asset.findMany({
        where: { userId, name: { in: [...names] } },
        select: { name: true, mimeType: true, sizeBytes: true },
      });
    },
  };
}

export type AssetRepository = ReturnType<typeof createAssetRepository>;
