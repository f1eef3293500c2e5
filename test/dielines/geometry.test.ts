import { describe, expect, it } from 'vitest';
import {
  distanceToSegment,
  findSelfIntersection,
  isSimplePolygon,
  offsetPolygon,
  pointInPolygon,
  polygonArea,
  segmentIntersection,
  signedArea,
} from '../../src/dielines/geometry.js';
import { ARC_TOLERANCE_MM, arcPoints, roundedPolyline } from '../../src/dielines/profile.js';
import type { Point } from '../../src/dielines/types.js';

const square = (size: number): Point[] => [
  [0, 0],
  [size, 0],
  [size, size],
  [0, size],
];

describe('segment intersection', () => {
  it('finds crossings, touches and collinear overlaps, and nothing else', () => {
    expect(segmentIntersection([0, 0], [2, 2], [0, 2], [2, 0])).toEqual([1, 1]);
    expect(segmentIntersection([0, 0], [2, 0], [1, 0], [1, 5])).toEqual([1, 0]);
    expect(segmentIntersection([0, 0], [4, 0], [2, 0], [6, 0])).toEqual([2, 0]);
    expect(segmentIntersection([0, 0], [1, 0], [2, 0], [3, 0])).toBeNull();
    expect(segmentIntersection([0, 0], [1, 0], [0, 1], [1, 1])).toBeNull();
    expect(segmentIntersection([0, 0], [1, 1], [1.1, 1.1], [2, 0])).toBeNull();
  });
});

describe('self-intersection', () => {
  it('accepts simple polygons and rejects bow-ties and fold-backs', () => {
    expect(isSimplePolygon(square(10))).toBe(true);
    expect(findSelfIntersection([[0, 0], [2, 2], [2, 0], [0, 2]])).not.toBeNull();
    // Walks back over its own edge.
    expect(findSelfIntersection([[0, 0], [4, 0], [2, 0], [2, 3]])).not.toBeNull();
    // Touches itself at a vertex.
    expect(findSelfIntersection([[0, 0], [4, 0], [4, 4], [2, 0], [0, 4]])).not.toBeNull();
  });

  it('measures area with the clockwise-on-screen orientation as positive', () => {
    expect(signedArea(square(3))).toBe(9);
    expect(signedArea([...square(3)].reverse())).toBe(-9);
  });
});

describe('polygon offset', () => {
  it('grows and shrinks a square with mitred corners', () => {
    expect(polygonArea(offsetPolygon(square(10), 2))).toBeCloseTo(196, 9);
    expect(polygonArea(offsetPolygon(square(10), -2))).toBeCloseTo(36, 9);
  });

  it('fills a slot narrower than twice the offset and stays simple', () => {
    // A U with a 2 mm slot from the top.
    const u: Point[] = [
      [0, 0],
      [9, 0],
      [9, 8],
      [11, 8],
      [11, 0],
      [20, 0],
      [20, 20],
      [0, 20],
    ];
    const grown = offsetPolygon(u, 3);
    expect(isSimplePolygon(grown)).toBe(true);
    expect(pointInPolygon([10, 4], grown)).toBe(true);
    for (const p of grown) {
      const nearest = Math.min(...u.map((a, i) => distanceToSegment(p, a, u[(i + 1) % u.length]!)));
      expect(nearest).toBeGreaterThanOrEqual(3 - 1e-9);
    }
  });

  it('drops a short step swallowed by its neighbours instead of leaving a spike', () => {
    const step: Point[] = [
      [0, 10],
      [10, 0],
      [10.5, 0],
      [10.5, -20],
      [30, -20],
      [30, 30],
      [0, 30],
    ];
    const grown = offsetPolygon(step, 3);
    expect(isSimplePolygon(grown)).toBe(true);
    for (const p of grown) {
      const nearest = Math.min(...step.map((a, i) => distanceToSegment(p, a, step[(i + 1) % step.length]!)));
      expect(nearest).toBeGreaterThanOrEqual(3 - 1e-9);
    }
  });
});

describe('arcs and fillets', () => {
  it('keeps arc chords within the tolerance', () => {
    for (const radius of [0.5, 3, 10, 250]) {
      const points = arcPoints([0, 0], radius, 0, Math.PI / 2);
      expect(points[0]![0]).toBeCloseTo(radius, 9);
      expect(points[points.length - 1]![1]).toBeCloseTo(radius, 9);
      for (let i = 1; i < points.length; i++) {
        const mid: Point = [(points[i - 1]![0] + points[i]![0]) / 2, (points[i - 1]![1] + points[i]![1]) / 2];
        expect(radius - Math.hypot(mid[0], mid[1])).toBeLessThanOrEqual(ARC_TOLERANCE_MM + 1e-12);
      }
    }
  });

  it('rounds a corner tangentially and leaves the ends alone', () => {
    const line = roundedPolyline([{ point: [0, 0] }, { point: [10, 0], radius: 2 }, { point: [10, 10] }]);
    expect(line[0]).toEqual([0, 0]);
    expect(line[line.length - 1]).toEqual([10, 10]);
    expect(line[1]![0]).toBeCloseTo(8, 9);
    expect(line[1]![1]).toBeCloseTo(0, 9);
    expect(line[line.length - 2]![0]).toBeCloseTo(10, 9);
    expect(line[line.length - 2]![1]).toBeCloseTo(2, 9);
    for (const p of line.slice(1, -1)) expect(Math.hypot(p[0] - 8, p[1] - 2)).toBeCloseTo(2, 9);
  });
});
