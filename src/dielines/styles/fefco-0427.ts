/**
 * FEFCO 0427 roll-end, tuck-front mailer, one piece.
 *
 * Printed side up the blank shows the box from below: the bottom in the middle, the back wall
 * above it carrying the lid and its front tuck, the front wall below it, and the side walls left
 * and right. Seen from below, the box's left side lies on the right of the sheet.
 *
 * Construction (t = caliper; PP = 2t/3 and GE = t/3 as in PLMPackLib's 0427):
 * - front and side walls are double: the outer wall rolls over a rim into an inner wall whose lock
 *   tabs enter slots in the bottom; the side rolls also trap the corner flaps of the front and back
 *   walls, so a side roll holds three layers;
 * - the back wall is single and carries the lid; the lid's ears fold down inside the side walls,
 *   its tuck goes down behind the inner front wall;
 * - the rolled edges stay visible beside and in front of the closed lid.
 */
import { DielineDraft, rect, type StyleGeometry } from '../draft.js';
import type { StyleLimits } from '../limits.js';
import { arcPoints, OutlineBuilder, placeAlongHinge, reverseProfile, roundedPolyline } from '../profile.js';
import type { BoxDimensions, Point } from '../types.js';

export const MAILER_SUBJECT = 'a roll-end mailer';

export const MAILER_LIMITS: StyleLimits = {
  widthMm: { min: 80, max: 800 },
  depthMm: { min: 60, max: 600 },
  heightMm: { min: 25, max: 250 },
  thicknessMm: { min: 0.8, max: 7 },
};

const LOCK_TAB_MAX_WIDTH_MM = 33;
const LOCK_TAB_TAPER_DEG = 15;
/** Inner walls at least this long get two lock tabs, shorter ones one. */
const TWO_TABS_FROM_MM = 120;
const TUCK_MAX_DEPTH_MM = 50;
const TUCK_DEPTH_SHARE = 0.6;
/** The tuck's sides step in from the lid's corners on a slant this high. */
const TUCK_STEP_RISE_MM = 1;
const TUCK_CORNER_RADIUS_MAX_MM = 10;
const EAR_MAX_HEIGHT_MM = 60;
/** Ear height as a share of its swing radius, so the ear keeps a usable straight edge. */
const EAR_HEIGHT_SHARE = 0.6;
/** Gap between an ear's swing arc and the tuck. */
const EAR_FRONT_CLEARANCE_MM = 1;
const CORNER_FLAP_CHAMFER_MAX_MM = 10;

export interface MailerSizes {
  /** Side roll: outer wall to inner wall mid-plane, around the trapped corner flap (2t + PP). */
  sideRoll: number;
  /** Front roll: outer to inner front wall mid-plane (t + GE). */
  frontRoll: number;
  bottomLength: number;
  bottomDepth: number;
  wallHeight: number;
  backWallHeight: number;
  innerWallHeight: number;
  /** Front/back walls end at the middle of the side roll, where their corner flaps fold in. */
  endInset: number;
  /** Lid side creases and the rim/inner front wall ends sit just inside the inner side walls. */
  lidInset: number;
  lidDepth: number;
  tuckDepth: number;
  tuckInset: number;
  earRadius: number;
  earHeight: number;
  earRelief: number;
  cornerFlapWidth: number;
  cornerFlapSlot: number;
  lockTabLength: number;
  lockSlotWidth: number;
  lockClearance: number;
}

export function mailerSizes(inside: BoxDimensions, t: number): MailerSizes {
  const { widthMm: L, depthMm: W, heightMm: H } = inside;
  const PP = (2 * t) / 3;
  const GE = t - PP;
  const sideRoll = 2 * t + PP;
  const frontRoll = t + GE;
  // Inner faces of the inner side walls sit sideRoll + t/2 inside the bottom creases.
  const bottomLength = L + 2 * sideRoll + t;
  // Front: inner front wall face at frontRoll + t/2; back: single wall face at t/2.
  const bottomDepth = W + frontRoll + t;
  const earRadius = W - t - EAR_FRONT_CLEARANCE_MM;
  return {
    sideRoll,
    frontRoll,
    bottomLength,
    bottomDepth,
    // The lid rests on the rolled rims: the roll crease is at the inside height.
    wallHeight: H,
    // The lid's mid-plane is half a caliper above the rims' top face.
    backWallHeight: H + t,
    // From the roll crease down to the bottom's top face, less half a caliper of clearance.
    innerWallHeight: H - t,
    endInset: sideRoll / 2,
    lidInset: sideRoll + t,
    // Back wall mid-plane to the tuck's mid-plane behind the inner front wall.
    lidDepth: W,
    tuckDepth: Math.min(TUCK_MAX_DEPTH_MM, TUCK_DEPTH_SHARE * H),
    // Tuck width L − 2t: a caliper of clearance to each inner side wall.
    tuckInset: t / 2,
    // Ears swing about the lid hinge; everything within this radius clears the tuck.
    earRadius,
    earHeight: Math.min(H - t, EAR_HEIGHT_SHARE * earRadius, EAR_MAX_HEIGHT_MM),
    // Clears the back wall once the ear is folded down.
    earRelief: t + 1,
    cornerFlapWidth: Math.min(bottomDepth / 2 - t, H + t),
    cornerFlapSlot: Math.max(1, t),
    lockTabLength: t + GE,
    lockSlotWidth: t + GE,
    lockClearance: GE,
  };
}

/** Lock-tab profile along an inner wall's free edge of length `length` (s from the walk start). */
function lockTabProfile(length: number, tabLength: number): { profile: Point[]; tabs: [number, number][] } {
  const count = length >= TWO_TABS_FROM_MM ? 2 : 1;
  const width = Math.min(LOCK_TAB_MAX_WIDTH_MM, length / (2 * count + 1));
  const taper = tabLength * Math.tan((LOCK_TAB_TAPER_DEG * Math.PI) / 180);
  const profile: Point[] = [[0, 0]];
  const tabs: [number, number][] = [];
  for (let k = 0; k < count; k++) {
    const centre = (length * (k + 0.5)) / count;
    const s0 = centre - width / 2;
    const s1 = centre + width / 2;
    profile.push([s0, 0], [s0 + taper, tabLength], [s1 - taper, tabLength], [s1, 0]);
    tabs.push([s0, s1]);
  }
  profile.push([length, 0]);
  return { profile, tabs };
}

/** Corner flap profile along its hinge (s from the bottom side), chamfered at the far outer corner. */
function cornerFlapProfile(hingeLength: number, width: number): Point[] {
  const chamfer = Math.min(CORNER_FLAP_CHAMFER_MAX_MM, width / 3, hingeLength / 3);
  return [
    [0, 0],
    [0, width],
    [hingeLength - chamfer, width],
    [hingeLength, width - chamfer],
    [hingeLength, 0],
  ];
}

/** Ear profile along the lid side (s from the lid hinge): relief, straight edge, swing arc. */
function earProfile(sizes: MailerSizes): Point[] {
  const { earRadius: R, earHeight: E, earRelief: r } = sizes;
  const arcStart = Math.asin(E / R);
  return [[0, 0], [r, r], [r, E], ...arcPoints([0, 0], R, arcStart, 0)];
}

export function buildMailer(inside: BoxDimensions, t: number): StyleGeometry {
  const H = inside.heightMm;
  const z = mailerSizes(inside, t);
  const Lb = z.bottomLength;
  const Wb = z.bottomDepth;
  const ef = z.endInset;
  const xi = z.lidInset;
  const s = z.cornerFlapSlot;
  const cornerTop = H - t; // corner flaps stop below the roll's inside top
  const cornerHinge = cornerTop - s;
  const yLid = -z.backWallHeight;
  const yTuck = yLid - z.lidDepth;
  const armInner = H + z.sideRoll; // x distance from a bottom crease to the rim/inner-wall crease
  const armEnd = armInner + z.innerWallHeight;
  const yFrontRim = Wb + H;
  const yFrontInner = yFrontRim + z.frontRoll;
  const yFrontEnd = yFrontInner + z.innerWallHeight;
  const sideInnerLength = Wb - 2 * t;
  const frontInnerLength = Lb - 2 * xi;
  const ear = earProfile(z);
  const corner = cornerFlapProfile(cornerHinge, z.cornerFlapWidth);
  const sideTabs = lockTabProfile(sideInnerLength, z.lockTabLength);
  const frontTabs = lockTabProfile(frontInnerLength, z.lockTabLength);
  const tuckWidth = frontInnerLength - 2 * z.tuckInset;
  const tuckRadius = Math.min(TUCK_CORNER_RADIUS_MAX_MM, z.tuckDepth / 2);
  // The tuck's sides step in from the lid's corners on a 1 mm slant: no sub-millimetre knife jog.
  const lidWidth = frontInnerLength;
  const tuck = roundedPolyline([
    { point: [0, 0] },
    { point: [z.tuckInset, TUCK_STEP_RISE_MM] },
    { point: [z.tuckInset, z.tuckDepth], radius: tuckRadius },
    { point: [lidWidth - z.tuckInset, z.tuckDepth], radius: tuckRadius },
    { point: [lidWidth - z.tuckInset, TUCK_STEP_RISE_MM] },
    { point: [lidWidth, 0] },
  ]);

  // Hinges, each walked clockwise around the blank (flap on the left of travel).
  const hinges = {
    cornerBackRight: [[ef, -s], [ef, -cornerTop]],
    earRight: [[xi, yLid], [xi, yLid - z.earRadius]],
    tuck: [[xi, yTuck], [Lb - xi, yTuck]],
    earLeft: [[Lb - xi, yLid - z.earRadius], [Lb - xi, yLid]],
    cornerBackLeft: [[Lb - ef, -cornerTop], [Lb - ef, -s]],
    leftInnerEdge: [[Lb + armEnd, t], [Lb + armEnd, Wb - t]],
    cornerFrontLeft: [[Lb - ef, Wb + s], [Lb - ef, Wb + cornerTop]],
    frontInnerEdge: [[Lb - xi, yFrontEnd], [xi, yFrontEnd]],
    cornerFrontRight: [[ef, Wb + cornerTop], [ef, Wb + s]],
    rightInnerEdge: [[-armEnd, Wb - t], [-armEnd, t]],
  } satisfies Record<string, [Point, Point]>;
  const along = (hinge: [Point, Point], profile: readonly Point[]): Point[] => placeAlongHinge(hinge[0], hinge[1], profile);

  const cornerBackRight = along(hinges.cornerBackRight, corner);
  const earRight = along(hinges.earRight, ear);
  const tuckFlap = along(hinges.tuck, tuck);
  const earLeft = along(hinges.earLeft, reverseProfile(ear, z.earRadius));
  const cornerBackLeft = along(hinges.cornerBackLeft, reverseProfile(corner, cornerHinge));
  const leftInnerEdge = along(hinges.leftInnerEdge, sideTabs.profile);
  const cornerFrontLeft = along(hinges.cornerFrontLeft, corner);
  const frontInnerEdge = along(hinges.frontInnerEdge, frontTabs.profile);
  const cornerFrontRight = along(hinges.cornerFrontRight, reverseProfile(corner, cornerHinge));
  const rightInnerEdge = along(hinges.rightInnerEdge, sideTabs.profile);

  const outline = new OutlineBuilder()
    .to([0, 0], [ef, 0], ...cornerBackRight)
    .to([ef, yLid], ...earRight)
    .to([xi, yTuck], ...tuckFlap, [Lb - xi, yTuck])
    .to(...earLeft)
    .to([Lb - ef, yLid], ...cornerBackLeft, [Lb - ef, 0], [Lb, 0])
    .to([Lb + H, 0], [Lb + H, t], ...leftInnerEdge, [Lb + H, Wb - t], [Lb + H, Wb], [Lb, Wb])
    .to([Lb - ef, Wb], ...cornerFrontLeft, [Lb - ef, yFrontRim], [Lb - xi, yFrontRim])
    .to(...frontInnerEdge, [xi, yFrontRim], [ef, yFrontRim])
    .to(...cornerFrontRight, [ef, Wb], [0, Wb])
    .to([-H, Wb], [-H, Wb - t], ...rightInnerEdge, [-H, t], [-H, 0])
    .close();

  // Lock slots in the bottom, under each inner wall's mid-plane, one per tab.
  const slotHalf = z.lockSlotWidth / 2;
  const c = z.lockClearance;
  const holes: Point[][] = [];
  for (const [s0, s1] of sideTabs.tabs) {
    // Right inner edge walks north from y = Wb − t; left inner edge walks south from y = t.
    holes.push(rect(z.sideRoll - slotHalf, Wb - t - s1 - c, z.sideRoll + slotHalf, Wb - t - s0 + c));
    holes.push(rect(Lb - z.sideRoll - slotHalf, t + s0 - c, Lb - z.sideRoll + slotHalf, t + s1 + c));
  }
  for (const [s0, s1] of frontTabs.tabs) {
    // Front inner edge walks west from x = Lb − xi.
    holes.push(rect(Lb - xi - s1 - c, Wb - z.frontRoll - slotHalf, Lb - xi - s0 + c, Wb - z.frontRoll + slotHalf));
  }

  const draft = new DielineDraft();
  draft.addPiece('blank', 'Blank', outline, holes);

  draft.addPanel('bottom', 'Bottom', 'bottom', rect(0, 0, Lb, Wb));
  draft.addPanel('back', 'Back wall', 'wall', rect(ef, yLid, Lb - ef, 0));
  draft.addPanel('lid', 'Lid', 'lid', rect(xi, yTuck, Lb - xi, yLid));
  draft.addPanel('tuck-front', 'Front tuck flap', 'tuck', tuckFlap);
  draft.addPanel('dust-flap-left', 'Lid ear (left)', 'dust-flap', earLeft);
  draft.addPanel('dust-flap-right', 'Lid ear (right)', 'dust-flap', earRight);
  draft.addPanel('corner-flap-back-left', 'Corner flap (back left)', 'corner-flap', cornerBackLeft);
  draft.addPanel('corner-flap-back-right', 'Corner flap (back right)', 'corner-flap', cornerBackRight);
  draft.addPanel('front', 'Front wall', 'wall', rect(ef, Wb, Lb - ef, yFrontRim));
  draft.addPanel('front-rim', 'Front rim', 'rim', rect(xi, yFrontRim, Lb - xi, yFrontInner));
  draft.addPanel('front-inner', 'Front inner wall', 'inner-wall', [[xi, yFrontInner], [Lb - xi, yFrontInner], ...frontInnerEdge]);
  draft.addPanel('corner-flap-front-left', 'Corner flap (front left)', 'corner-flap', cornerFrontLeft);
  draft.addPanel('corner-flap-front-right', 'Corner flap (front right)', 'corner-flap', cornerFrontRight);
  draft.addPanel('left', 'Left wall', 'wall', rect(Lb, 0, Lb + H, Wb));
  draft.addPanel('left-rim', 'Left rim', 'rim', rect(Lb + H, t, Lb + armInner, Wb - t));
  draft.addPanel('left-inner', 'Left inner wall', 'inner-wall', [[Lb + armInner, Wb - t], [Lb + armInner, t], ...leftInnerEdge]);
  draft.addPanel('right', 'Right wall', 'wall', rect(-H, 0, 0, Wb));
  draft.addPanel('right-rim', 'Right rim', 'rim', rect(-armInner, t, -H, Wb - t));
  draft.addPanel('right-inner', 'Right inner wall', 'inner-wall', [[-armInner, t], [-armInner, Wb - t], ...rightInnerEdge]);

  // Seen from below (the sheet): the back reads upright, the front and everything seen from above
  // or below (bottom, lid and its flaps) upside down, the side walls a quarter turn. The inner
  // walls roll 180° over their rims and read upright from inside the box: a half turn from their
  // outer walls. Rims, corner flaps and the lid's flaps keep the frame they are hinged on.
  draft.orient({
    bottom: 180,
    lid: 180,
    'tuck-front': 180,
    'dust-flap-left': 180,
    'dust-flap-right': 180,
    front: 180,
    'front-rim': 180,
    'corner-flap-front-left': 180,
    'corner-flap-front-right': 180,
    left: 90,
    'left-rim': 90,
    'left-inner': 270,
    right: 270,
    'right-rim': 270,
    'right-inner': 90,
  });

  const creases: [Point, Point][] = [
    [[ef, 0], [Lb - ef, 0]],
    [[ef, Wb], [Lb - ef, Wb]],
    [[0, 0], [0, Wb]],
    [[Lb, 0], [Lb, Wb]],
    [[xi, yLid], [Lb - xi, yLid]],
    hinges.earRight,
    hinges.earLeft,
    hinges.tuck,
    hinges.cornerBackRight,
    hinges.cornerBackLeft,
    hinges.cornerFrontLeft,
    hinges.cornerFrontRight,
    [[xi, yFrontRim], [Lb - xi, yFrontRim]],
    [[xi, yFrontInner], [Lb - xi, yFrontInner]],
    [[Lb + H, t], [Lb + H, Wb - t]],
    [[Lb + armInner, t], [Lb + armInner, Wb - t]],
    [[-H, t], [-H, Wb - t]],
    [[-armInner, t], [-armInner, Wb - t]],
  ];
  for (const [a, b] of creases) draft.addCrease(a, b);

  return draft.finish(
    { widthMm: Lb + t, depthMm: Wb + t, heightMm: H + 2 * t },
    {
      bottomLengthMm: Lb,
      bottomDepthMm: Wb,
      sideRollMm: z.sideRoll,
      frontRollMm: z.frontRoll,
      wallHeightMm: z.wallHeight,
      backWallHeightMm: z.backWallHeight,
      innerWallHeightMm: z.innerWallHeight,
      wallInsetMm: ef,
      lidInsetMm: xi,
      lidWidthMm: Lb - 2 * xi,
      lidDepthMm: z.lidDepth,
      tuckDepthMm: z.tuckDepth,
      tuckWidthMm: tuckWidth,
      earHeightMm: z.earHeight,
      earRadiusMm: z.earRadius,
      cornerFlapWidthMm: z.cornerFlapWidth,
      cornerFlapHeightMm: cornerHinge,
      lockTabLengthMm: z.lockTabLength,
      lockSlotWidthMm: z.lockSlotWidth,
    },
  );
}
