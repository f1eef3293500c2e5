-- CreateEnum
CREATE TYPE "FontFormat" AS ENUM ('truetype', 'opentype');

-- CreateEnum
CREATE TYPE "FontStyle" AS ENUM ('normal', 'italic', 'oblique');

-- CreateTable
CREATE TABLE "fonts" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "name" VARCHAR(64) NOT NULL,
    "family" VARCHAR(200) NOT NULL,
    "style" "FontStyle" NOT NULL,
    "weight" INTEGER NOT NULL,
    "format" "FontFormat" NOT NULL,
    "sizeBytes" INTEGER NOT NULL,
    "sha256" CHAR(64) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "fonts_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "fonts_name_key" ON "fonts"("name");

-- CreateIndex
CREATE INDEX "fonts_userId_createdAt_id_idx" ON "fonts"("userId", "createdAt" DESC, "id" DESC);

-- AddForeignKey
ALTER TABLE "fonts" ADD CONSTRAINT "fonts_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
