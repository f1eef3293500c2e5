-- CreateTable
CREATE TABLE "idempotent_requests" (
    "userId" TEXT NOT NULL,
    "route" VARCHAR(200) NOT NULL,
    "key" VARCHAR(255) NOT NULL,
    "requestDigest" CHAR(64) NOT NULL,
    "claim" VARCHAR(32) NOT NULL,
    "sealedAnswer" TEXT,
    "leaseUntil" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "idempotent_requests_pkey" PRIMARY KEY ("userId","route","key")
);

-- CreateIndex
CREATE INDEX "idempotent_requests_createdAt_idx" ON "idempotent_requests"("createdAt");

-- AddForeignKey
ALTER TABLE "idempotent_requests" ADD CONSTRAINT "idempotent_requests_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
