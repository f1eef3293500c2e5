-- CreateEnum
CREATE TYPE "Role" AS ENUM ('user', 'admin');

-- AlterTable
ALTER TABLE "users" ADD COLUMN     "role" "Role" NOT NULL DEFAULT 'user',
ADD COLUMN     "tokenGeneration" INTEGER NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "users_createdAt_id_idx" ON "users"("createdAt" DESC, "id" DESC);
