/**
 * The unrounded geometry a style generator produces, in any coordinate frame: `assembleDieline`
 * moves it to the origin, rounds it and derives bleed, safe and path data.
 */
import type { BoxDimensions, FrameRotation, PanelRole, Point, RuleType } from './types.js';

export interface DraftPiece {
  id: string;
  name: string;
  outline: Point[];
  holes: Point[][];
}

export interface DraftPanel {
  id: string;
  name: string;
  role: PanelRole;
  pieceId: string;
  polygon: Point[];
  /** Clockwise rotation from the panel's upright frame to the blank (see PanelFrame). */
  rotationDeg: FrameRotation;
}

export interface DraftGlueArea {
  panelId: string;
  polygon: Point[];
}

/** A straight rule other than a crease (reverse crease, perforation, half-cut, V-groove). */
export interface DraftRule {
  type: Exclude<RuleType, 'crease'>;
  from: Point;
  to: Point;
}

export interface StyleGeometry {
  pieces: DraftPiece[];
  panels: DraftPanel[];
  creases: [Point, Point][];
  rules?: DraftRule[];
  /** Open cuts that end in the board (lock slits), with the piece they cut. */
  slits?: { pieceId: string; from: Point; to: Point }[];
  /** Wrap folds over board edges (not creasing rules). */
  folds?: [Point, Point][];
  glueAreas: DraftGlueArea[];
  outside: BoxDimensions;
  parameters: Record<string, number>;
}

/** Collects a style's geometry; panels and creases keep their insertion order (deterministic). */
export class DielineDraft {
  readonly pieces: DraftPiece[] = [];
  readonly panels: DraftPanel[] = [];
  readonly creases: [Point, Point][] = [];
  readonly rules: DraftRule[] = [];
  readonly slits: { pieceId: string; from: Point; to: Point }[] = [];
  readonly folds: [Point, Point][] = [];
  readonly glueAreas: DraftGlueArea[] = [];

  addPiece(id: string, name: string, outline: Point[], holes: Point[][] = []): this {
    this.pieces.push({ id, name, outline, holes });
    return this;
  }

  addPanel(id: string, name: string, role: PanelRole, polygon: Point[], pieceId = 'blank', rotationDeg: FrameRotation = 0): this {
    this.panels.push({ id, name, role, pieceId, polygon, rotationDeg });
    return this;
  }

  /** Sets the upright-frame rotation of panels already added; an unknown id is a programming error. */
  orient(rotations: Readonly<Record<string, FrameRotation>>): this {
    for (const [id, rotationDeg] of Object.entries(rotations)) {
      const panel = this.panels.find((candidate) => candidate.id === id);
      if (!panel) throw new Error(`orient: no panel '${id}'`);
      panel.rotationDeg = rotationDeg;
    }
    return this;
  }

  addCrease(from: Point, to: Point): this {
    this.creases.push([from, to]);
    return this;
  }

  /** A rule of any type; creases go with the others' `addCrease`. */
  addRule(type: RuleType, from: Point, to: Point): this {
    if (type === 'crease') this.creases.push([from, to]);
    else this.rules.push({ type, from, to });
    return this;
  }

  addSlit(from: Point, to: Point, pieceId = 'blank'): this {
    this.slits.push({ pieceId, from, to });
    return this;
  }

  addGlueArea(panelId: string, polygon: Point[]): this {
    this.glueAreas.push({ panelId, polygon });
    return this;
  }

  finish(outside: BoxDimensions, parameters: Record<string, number>): StyleGeometry {
    return {
      pieces: this.pieces,
      panels: this.panels,
      creases: this.creases,
      ...(this.rules.length > 0 ? { rules: this.rules } : {}),
      ...(this.slits.length > 0 ? { slits: this.slits } : {}),
      ...(this.folds.length > 0 ? { folds: this.folds } : {}),
      glueAreas: this.glueAreas,
      outside,
      parameters,
    };
  }
}

/** An axis-aligned rectangle as a clockwise polygon. */
export const rect = (x0: number, y0: number, x1: number, y1: number): Point[] => [[x0, y0], [x1, y0], [x1, y1], [x0, y1]];
