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
  // x-document: the rule the OpenAPI document states (src/plugins/openapi.ts applyDocumentedRules).
  keywords: ['example', 'x-document'],
};

export type RequestValidator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

export function createValidators() {
  // discriminator: a oneOf chosen by one property checks only the chosen branch; verbose: its
  // error carries the schema, so the answer can name the allowed values.
  const body = addFormats(new Ajv({ ...shared, coerceTypes: false, discriminator: true, verbose: true }));
  const text = addFormats(new Ajv({ ...shared, coerceTypes: true }));
  return {
    compile(schema: object, httpPart: string | undefined): RequestValidator {
      return httpPart === 'body' ? body.compile(schema) : finiteAfterCoercion(text.compile(schema));
    },
  };
}

/**
 * Ajv coerces "Infinity" and "1e400" in a query string to ±Infinity and then lets them past
 * minimum/maximum. JSON bodies cannot carry them, but query strings can, so refuse them here.
 */
function finiteAfterCoercion(validate: RequestValidator): RequestValidator {
  const wrapped: RequestValidator = (data) => {
    if (!validate(data)) {
      wrapped.errors = validate.errors;
      return false;
    }
    const field = firstNonFiniteField(data);
    wrapped.errors = field === undefined ? null : [nonFiniteError(field)];
    return field === undefined;
  };
  return wrapped;
}

function firstNonFiniteField(data: unknown): string | undefined {
  if (typeof data !== 'object' || data === null) return undefined;
  return Object.entries(data).find(([, value]) => typeof value === 'number' && !Number.isFinite(value))?.[0];
}

const nonFiniteError = (field: string): ErrorObject => ({
  keyword: 'type',
  instancePath: `/${field}`,
  schemaPath: '#/type',
  params: { type: 'number' },
  message: 'must be a finite number',
});

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
    case 'enum':
      return `${where} must be one of: ${(error.params.allowedValues as unknown[]).map(String).join(', ')}.`;
    case 'const': {
      // A union of literals: Ajv reports each member; the answer names them all.
      const allowed = errors
        .filter((other) => other.keyword === 'const' && other.instancePath === error.instancePath)
        .map((other) => String(other.params.allowedValue));
      return allowed.length > 1 ? `${where} must be one of: ${allowed.join(', ')}.` : `${where} must be ${allowed[0]}.`;
    }
    case 'discriminator': {
      // The schema names the tag's values beside its oneOf (properties/<tag>/enum).
      const tag = String(error.params.tag);
      const allowed = (error.parentSchema as { properties?: Record<string, { enum?: unknown[] }> }).properties?.[tag]?.enum ?? [];
      return `${where}/${tag} must be one of: ${allowed.map(String).join(', ')}.`;
    }
    default:
      return `${where} ${error.message ?? 'is invalid'}.`;
  }
}
