-- Webhook messages for events that are not about an export (project events, webhook.test).
ALTER TABLE "webhook_messages" ALTER COLUMN "exportId" DROP NOT NULL;
ALTER TABLE "webhook_deliveries" ALTER COLUMN "exportId" DROP NOT NULL;
