-- Barcodes the service makes are assets that carry their symbol's facts:
-- { type, data, magnification, moduleMm, widthMm, heightMm }. NULL for every other asset.

-- AlterTable
ALTER TABLE "assets" ADD COLUMN "barcode" JSONB;
