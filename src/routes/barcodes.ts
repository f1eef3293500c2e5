// Barcodes made by the service, stored as the caller's SVG assets. The same module serves the
// editor (JWT) and /v1 (developer key).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { signalOnClientGone } from '../render/index.js';
import { AssetReply, toAssetDto } from '../schemas/assets.js';
import { BarcodeBody } from '../schemas/barcodes.js';
import { EmptyQuery, errorResponses } from '../schemas/common.js';

const barcodeRoutes: FastifyPluginAsyncTypebox = async (app) => {

  app.post(
    '/',
    {
      config: { idempotent: 'body' },
      schema: {
        tags: ['assets'],
        summary: 'Make a barcode: a vector SVG asset sized in millimetres, quiet zones included',
        operationId: 'createBarcode',
        querystring: EmptyQuery,
        body: BarcodeBody,
        description:
          'EAN-13, EAN-8, UPC-A, UPC-E, ITF-14, GS1-128, GS1 DataMatrix or QR Code (a GS1 Digital Link URL is plain text). Check digits ' +
          'are computed when left out and verified when given; GS1 element strings are checked AI by AI. The SVG has the GS1 nominal ' +
          'size for the magnification or module, quiet zones included, and is stored like an upload (thumbnail, metadata); its Asset ' +
          'carries `barcode`. Placed on a project, it prints in one ink (K only in CMYK, DeviceGray in RGB), overprinting, and preflight ' +
          'checks its placed size, quiet zones and contrast. Bad input → 400 naming the field and the reason; nothing is stored.',
        response: { 201: AssetReply, ...errorResponses(400, 401, 503) },
      },
    },
    async function createBarcode(request, reply) {
      const asset = await app.services.barcodes.create(request.userId, request.body, signalOnClientGone(reply.raw));
      return reply.code(201).send({ asset: toAssetDto(asset, app.config.publicBaseUrl) });
    },
  );
};

export default barcodeRoutes;
