-- CreateTable
CREATE TABLE "exports" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "projectId" TEXT NOT NULL,
    "projectVersion" INTEGER NOT NULL,
    "format" VARCHAR(32) NOT NULL,
    "options" JSONB NOT NULL,
    "status" VARCHAR(16) NOT NULL DEFAULT 'queued',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "leaseUntil" TIMESTAMPTZ(3),
    "error" JSONB,
    "fileName" VARCHAR(64),
    "downloadName" VARCHAR(255),
    "contentType" VARCHAR(100),
    "sizeBytes" INTEGER,
    "idempotencyKey" VARCHAR(255),
    "requestDigest" CHAR(64),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "startedAt" TIMESTAMPTZ(3),
    "finishedAt" TIMESTAMPTZ(3),
    "expiresAt" TIMESTAMPTZ(3),
    "announcedAt" TIMESTAMPTZ(3),

    CONSTRAINT "exports_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhooks" (
    "id" TEXT NOT NULL,
    "userId" TEXT NOT NULL,
    "url" VARCHAR(2048) NOT NULL,
    "events" VARCHAR(200) NOT NULL,
    "sealedSecret" VARCHAR(200) NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhooks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_messages" (
    "id" VARCHAR(64) NOT NULL,
    "webhookId" TEXT NOT NULL,
    "event" VARCHAR(32) NOT NULL,
    "exportId" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "status" VARCHAR(16) NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMPTZ(3) NOT NULL,
    "leaseUntil" TIMESTAMPTZ(3),
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_messages_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "webhook_deliveries" (
    "id" TEXT NOT NULL,
    "webhookId" TEXT NOT NULL,
    "messageId" VARCHAR(64) NOT NULL,
    "event" VARCHAR(32) NOT NULL,
    "exportId" TEXT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "status" VARCHAR(16) NOT NULL,
    "responseStatus" INTEGER,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "exports_fileName_key" ON "exports"("fileName");

-- CreateIndex
CREATE UNIQUE INDEX "exports_userId_idempotencyKey_key" ON "exports"("userId", "idempotencyKey");

-- CreateIndex
CREATE INDEX "exports_userId_createdAt_id_idx" ON "exports"("userId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "exports_status_createdAt_idx" ON "exports"("status", "createdAt");

-- CreateIndex
CREATE INDEX "exports_expiresAt_idx" ON "exports"("expiresAt");

-- CreateIndex
CREATE INDEX "webhooks_userId_createdAt_id_idx" ON "webhooks"("userId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "webhook_messages_status_nextAttemptAt_idx" ON "webhook_messages"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "webhook_deliveries_webhookId_createdAt_id_idx" ON "webhook_deliveries"("webhookId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "webhook_deliveries_messageId_idx" ON "webhook_deliveries"("messageId");

-- AddForeignKey
ALTER TABLE "exports" ADD CONSTRAINT "exports_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhooks" ADD CONSTRAINT "webhooks_userId_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_messages" ADD CONSTRAINT "webhook_messages_webhookId_fkey" FOREIGN KEY ("webhookId") REFERENCES "webhooks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_webhookId_fkey" FOREIGN KEY ("webhookId") REFERENCES "webhooks"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "webhook_messages"("id") ON DELETE CASCADE ON UPDATE CASCADE;
