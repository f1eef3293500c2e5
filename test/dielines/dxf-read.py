"""Reads DXF files with ezdxf (strict readfile, then audit) and prints, per file, what the tests check:
version, $INSUNITS, entity types, layer names, each layer's total length and the LINE endpoints."""
import json
import math
import sys

import ezdxf


def xy(vector):
    return (vector.x, vector.y)


def length(entity):
    kind = entity.dxftype()
    if kind == "LINE":
        return math.dist(xy(entity.dxf.start), xy(entity.dxf.end))
    if kind == "ARC":
        span = (entity.dxf.end_angle - entity.dxf.start_angle) % 360
        return math.radians(span) * entity.dxf.radius
    if kind == "CIRCLE":
        return 2 * math.pi * entity.dxf.radius
    if kind == "POLYLINE":
        points = [xy(v.dxf.location) for v in entity.vertices]
        if entity.is_closed:
            points.append(points[0])
        return sum(math.dist(a, b) for a, b in zip(points, points[1:]))
    raise ValueError(kind)


result = {}
for path in sys.argv[1:]:
    doc = ezdxf.readfile(path)
    auditor = doc.audit()
    msp = doc.modelspace()
    lengths = {}
    endpoints = {}
    for entity in msp:
        layer = entity.dxf.layer
        lengths[layer] = lengths.get(layer, 0.0) + length(entity)
        if entity.dxftype() == "LINE":
            endpoints.setdefault(layer, []).extend([list(xy(entity.dxf.start)), list(xy(entity.dxf.end))])
    result[path] = {
        "version": doc.dxfversion,
        "insunits": doc.header.get("$INSUNITS"),
        "errors": [str(error.message) for error in auditor.errors],
        "types": sorted({entity.dxftype() for entity in msp}),
        "layers": sorted(layer.dxf.name for layer in doc.layers),
        "lengths": lengths,
        "lineEnds": endpoints,
    }
json.dump(result, sys.stdout)
