/** Parameters a size error can name. */
export type DielineParameter =
  'widthMm' | 'heightMm' | 'depthMm' | 'thicknessMm' | 'bleedMm' | 'turnInMm' | 'lidHeightMm' | 'nicks' | 'nickWidthMm';

/** Base class so callers can catch every dieline error at once. */
export class DielineError extends Error {
  override name = 'DielineError';
}

/** The template has no dieline style (e.g. bottles, cans, pouches). */
export class DielineUnsupportedError extends DielineError {
  override name = 'DielineUnsupportedError';
  readonly templateId: string;

  constructor(templateId: string) {
    super(`Template "${templateId}" has no dieline.`);
    this.templateId = templateId;
  }
}

/** An option the template does not take, e.g. `lock` on a mailer; the message names the templates that take it. */
export class DielineOptionError extends DielineError {
  override name = 'DielineOptionError';
  readonly option: string;

  constructor(option: string, templates: readonly string[]) {
    const list =
      templates.length > 1
        ? `${templates.slice(0, -1).join(', ')} and ${templates[templates.length - 1]}`
        : (templates[0] ?? 'no template');
    super(`${option} applies to ${list}.`);
    this.option = option;
  }
}

/** The style cannot be built at the requested size or thickness. */
export class DielineSizeError extends DielineError {
  override name = 'DielineSizeError';
  readonly dimension: DielineParameter;
  /** The bound that was violated, in millimetres, when there is a single one. */
  readonly limitMm: number | undefined;
  readonly bound: 'min' | 'max' | 'invalid';

  constructor(dimension: DielineParameter, message: string, bound: 'min' | 'max' | 'invalid', limitMm?: number) {
    super(message);
    this.dimension = dimension;
    this.bound = bound;
    this.limitMm = limitMm;
  }
}
