-- Webhook messages for events that are not about an export (project events, webhook.test).
ALTER TABLE "webhook_messages" ALTER COLUMN "exportId" DROP NOT NULL;
ALTER TABLE "webhook_deliveries" ALTER COLUMN "exportId" DROP NOT NULL;

-- The route prefix the export was requested under ('' or '/v1'), for the routes its error names.
ALTER TABLE "exports" ADD COLUMN "routeBase" VARCHAR(8) NOT NULL DEFAULT '';
