-- Asset metadata and thumbnails (issue 15). Existing rows keep NULL metadataReadAt: the start-up
-- backfill reads their files and fills the new columns.

-- CreateEnum
CREATE TYPE "ColorSpace" AS ENUM ('srgb', 'cmyk', 'gray', 'other');

-- AlterTable
ALTER TABLE "assets" ADD COLUMN "widthPx" INTEGER,
ADD COLUMN "heightPx" INTEGER,
ADD COLUMN "dpi" DOUBLE PRECISION,
ADD COLUMN "colorSpace" "ColorSpace" NOT NULL DEFAULT 'other',
ADD COLUMN "hasAlpha" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN "sha256" CHAR(64),
ADD COLUMN "thumbnailName" VARCHAR(64),
ADD COLUMN "thumbnailBytes" INTEGER,
ADD COLUMN "metadataReadAt" TIMESTAMPTZ(3);

-- CreateTable
CREATE TABLE "file_deletions" (
    "name" VARCHAR(64) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "file_deletions_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE UNIQUE INDEX "assets_thumbnailName_key" ON "assets"("thumbnailName");
