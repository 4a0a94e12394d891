"""Hypothesis strategies for random valid models (used by file and command tests)."""

from __future__ import annotations

import math

from hypothesis import strategies as st

from core.model.entities import (
    GROUND,
    CompliantMesh,
    FixedJoint,
    GearPair,
    PrimitiveSource,
    RevoluteJoint,
    RigidBody,
    SpeedMotor,
    TimeLaw,
    Torque,
    TorsionalSpringDamper,
)
from core.model.model import Model

finite = st.floats(min_value=-10.0, max_value=10.0, allow_nan=False)
positive = st.floats(min_value=1e-3, max_value=100.0, allow_nan=False)
vec3 = st.tuples(finite, finite, finite)
size = st.floats(min_value=1e-3, max_value=1.0)
axis = vec3.filter(lambda v: math.hypot(*v) > 1e-3)


@st.composite
def inertias(draw):
    a, b = draw(positive), draw(positive)
    c = draw(st.floats(min_value=max(abs(a - b), 1e-3), max_value=a + b))
    return ((a, 0.0, 0.0), (0.0, b, 0.0), (0.0, 0.0, c))


@st.composite
def bodies(draw, name):
    visual = draw(st.one_of(st.none(), st.builds(PrimitiveSource, shape=st.sampled_from(["cylinder", "box"]),
                                                  radius=size, length=size)))
    return RigidBody(name=name, mass=draw(positive), com=draw(vec3), inertia=draw(inertias()),
                     position=draw(vec3), angular_velocity=draw(vec3), visual=visual)


laws = st.one_of(
    st.builds(TimeLaw, kind=st.just("constant"), value=finite),
    st.builds(TimeLaw, kind=st.just("sine"), value=finite, amplitude=finite, frequency=positive),
    st.builds(TimeLaw, kind=st.just("step"), value=finite, final=finite, t_start=positive),
)


@st.composite
def models(draw, max_bodies=4):
    m = Model(name=draw(st.text(min_size=1, max_size=8).filter(lambda s: s.strip() and s.isprintable())))
    n = draw(st.integers(min_value=1, max_value=max_bodies))
    for k in range(n):
        m.bodies[f"b{k}"] = draw(bodies(f"b{k}"))
    names = [GROUND, *m.bodies]
    for k in range(draw(st.integers(min_value=0, max_value=4))):
        i, j = draw(st.sampled_from(names)), draw(st.sampled_from(names))
        if i == j:
            continue
        if draw(st.booleans()):
            m.joints[f"j{k}"] = RevoluteJoint(f"j{k}", i, j, draw(vec3), draw(axis))
        else:
            m.joints[f"j{k}"] = FixedJoint(f"j{k}", i, j, draw(vec3))
    revolutes = [j.name for j in m.joints.values() if isinstance(j, RevoluteJoint)]
    if len(revolutes) >= 2:
        j1, j2 = draw(st.permutations(revolutes))[:2]
        kind = draw(st.sampled_from(["external", "internal", "bevel"]))
        z1 = draw(st.integers(3, 60))
        m.gear_pairs["p0"] = GearPair("p0", j1, j2, draw(st.sampled_from(names)), kind=kind, z1=z1,
                                      z2=z1 + draw(st.integers(6, 60)), module=draw(st.floats(1e-3, 5e-3)))
        if draw(st.booleans()):
            m.forces["mesh0"] = CompliantMesh("mesh0", "p0", k_mean=2e8, k_amplitude=6e7, damping=draw(positive))
    if revolutes:
        j = draw(st.sampled_from(revolutes))
        m.forces["f0"] = draw(st.sampled_from([Torque, SpeedMotor]))("f0", j, draw(laws))
        m.forces["f1"] = TorsionalSpringDamper("f1", j, stiffness=draw(positive), damping=draw(positive))
    return m
