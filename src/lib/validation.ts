// Request validation: bodies are checked strictly (no coercion: "100" is not a number), query
// strings and params may coerce numeric text, and nothing is ever stripped or defaulted in.
import { Ajv, type ErrorObject, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';

// ajv-formats ships CommonJS whose default export is the plugin function.
const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

const shared: Options = {
  removeAdditional: false,
  useDefaults: false,
  allErrors: false,
  strict: true,
  strictTypes: false,
  allowUnionTypes: true,
  keywords: ['example'],
};

export function createValidators() {
  const body = addFormats(new Ajv({ ...shared, coerceTypes: false }));
  const text = addFormats(new Ajv({ ...shared, coerceTypes: true }));
  return {
    compilerFor(httpPart: string | undefined) {
      return httpPart === 'body' ? body : text;
    },
  };
}

/** One clear sentence for the first violation, naming the field; never echoes the input value. */
export function formatValidationError(errors: readonly ErrorObject[], dataVar: string): string {
  const error = errors[0];
  if (!error) return `${dataVar} is invalid.`;
  const where = `${dataVar}${error.instancePath}`;
  switch (error.keyword) {
    case 'additionalProperties':
      return `${where} has an unknown field '${String(error.params.additionalProperty)}'.`;
    case 'required':
      return `${where} must have required property '${String(error.params.missingProperty)}'.`;
    default:
      return `${where} ${error.message ?? 'is invalid'}.`;
  }
}
