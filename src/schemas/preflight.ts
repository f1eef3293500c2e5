// GET /projects/:id/preflight's query: the bleed (as print takes it), the printing condition (ink limit,
// profiles), how the print treats glue
// areas (the same name and values as the print's query: the severity of GLUE_AREA findings), the
// rigid box's part and the containers' layout options.
import { Type, type Static } from '@sinclair/typebox';
import { DEFAULT_GLUE_AREAS, GLUE_AREAS_MODES } from '../print/index.js';
import { StrictObject, StringEnum } from './common.js';
import { ContainerOptionsProperties } from './containers.js';
import { BleedQuery, ConditionQuery } from './print.js';
import { WrapPartQuery } from './parts.js';

export const PreflightGlueAreas = StringEnum(GLUE_AREAS_MODES, {
  default: DEFAULT_GLUE_AREAS,
  examples: ['print'],
  description:
    'How the print treats glue areas: knockout (no ink there; GLUE_AREA findings are info) or print (ink prints over ' +
    'them; GLUE_AREA findings are warnings).',
});

export const PreflightQuery = StrictObject({
  ...BleedQuery,
  ...ConditionQuery,
  glueAreas: Type.Optional(PreflightGlueAreas),
  ...WrapPartQuery,
  ...ContainerOptionsProperties,
});
export type PreflightQuery = Static<typeof PreflightQuery>;
