"""A train's lumped model against Lin and Parker's published planetary (J. Vib. Acoust. 121, 1999, 316-321).

Table 1 of the paper (also Lin's thesis, Table C.1) gives the example system; Table 2 its natural
frequencies for three, four and five equally spaced planets, grouped as rotational, translational (each
twice) and planet modes (N - 3 fold). The mode structure is the paper's theorem, checked on the shapes.
"""

import math

import numpy as np
import pytest

from core.chbm.modes import campbell, distinct, harmonic_forces, train_modes
from core.chbm.train_commands import input_body
from core.chbm.train_from_model import train_from_model
from core.chbm.train_model import TrainBody, TrainMesh, build_train
from core.gearing.mesh_model import MeshModel
from core.model.entities import SpeedMotor, TimeLaw
from core.model.files import load
from tests.conftest import EXAMPLES

ALPHA = math.radians(24.6)
# Table 2 [Hz]: rotational (one each), translational (two each), planet modes (N - 3 each)
TABLE_2 = {
    3: ([0.0, 1475.7, 1930.3, 2658.3, 7462.8, 11775.3], [743.2, 1102.4, 1896.0, 2276.4, 6986.3, 9647.9], []),
    4: ([0.0, 1536.6, 1970.6, 2625.7, 7773.6, 13071.1], [727.0, 1091.0, 1892.8, 2342.5, 7189.9, 10437.6],
        [1808.2, 5963.8, 6981.7]),
    5: ([0.0, 1567.4, 2006.1, 2614.8, 8065.4, 14253.1], [710.0, 1072.0, 1888.1, 2425.3, 7382.4, 11172.3],
        [1808.2, 5963.8, 6981.7]),
}


def lin_parker(planets: int):
    """Table 1: masses [kg], I / r^2 [kg], base diameters [mm], k_sp = k_rp = 5e8 N/m, bearings 1e8 N/m,
    the ring held torsionally by k_ru = 1e9 N/m, sun and carrier free to turn; a sun torque picks the
    loaded flanks (sun-planet drive, ring-planet coast in our terms: the paper's mesh lines)."""
    rs, rp, rr, rc = 77.4e-3 / 2, 100.3e-3 / 2, 275.0e-3 / 2, 176.8e-3 / 2
    law = MeshModel(5e8, np.ones(64), 0.0, 0.0, ALPHA)
    bodies = [TrainBody("carrier", 5.43, 6.29 * rc ** 2, rc, (0.0, 0.0), "carrier", "", (1e8, 0.0)),
              TrainBody("ring", 2.35, 3.00 * rr ** 2, rr, (0.0, 0.0), "central", "", (1e8, 0.0), (1e9 * rr ** 2, 0.0)),
              TrainBody("sun", 0.40, 0.39 * rs ** 2, rs, (0.0, 0.0), "central", "", (1e8, 0.0), torque=10.0)]
    meshes = []
    for n in range(planets):
        psi = 2 * math.pi * n / planets
        bodies.append(TrainBody(f"planet{n}", 0.66, 0.61 * rp ** 2, rp, (rc * math.cos(psi), rc * math.sin(psi)),
                                "planet", "carrier", (1e8, 0.0)))
        meshes.append(TrainMesh(f"sun_planet{n}", "sun", f"planet{n}", "external", rs, rp, ALPHA, law))
        meshes.append(TrainMesh(f"planet{n}_ring", f"planet{n}", "ring", "internal", rp, rr, ALPHA, law))
    return build_train(bodies, meshes)


@pytest.mark.parametrize("planets", [3, 4, 5])
def test_natural_frequencies_match_lin_and_parker_table_2_within_one_percent(planets):
    modes = train_modes(lin_parker(planets))
    rot, trans, planet = TABLE_2[planets]
    for kind, published in (("rotational", rot[1:]), ("translational", trans), ("planet", planet)):
        ours = [m.frequency for m in distinct(modes) if m.kind == kind]
        assert len(ours) == len(published), (kind, ours)
        worst = max((abs(a / b - 1) for a, b in zip(ours, published)), default=0.0)
        assert worst < 0.01, (kind, ours, published)
    assert [m.kind for m in modes].count("rigid") == 1  # sun and carrier turn freely: one rigid rolling


@pytest.mark.parametrize("planets", [3, 4, 5])
def test_equally_spaced_planets_give_single_rotational_double_translational_and_n_minus_3_planet_modes(planets):
    train = lin_parker(planets)
    modes = train_modes(train)
    assert len(modes) == 3 * (planets + 3)
    for m in modes:
        expected = {"rigid": 1, "rotational": 1, "translational": 2, "planet": planets - 3}[m.kind]
        assert m.multiplicity == expected, (m.frequency, m.kind, m.multiplicity)
    assert sum(m.kind == "mixed" for m in modes) == 0
    for m in modes:
        central = [m.body_motion(train, b) for b in ("sun", "ring", "carrier")]
        size = np.abs(m.shape).max()
        if m.kind == "planet":  # no central member moves
            assert all(np.abs(t).max() < 1e-8 * size and abs(r) < 1e-8 * size for t, r in central)
        if m.kind == "rotational":  # central members only turn; all planets move alike
            assert all(np.abs(t).max() < 1e-8 * size for t, _ in central)
            u = [float(train.rotation[f"planet{n}"] @ m.shape) for n in range(planets)]
            assert max(u) - min(u) < 1e-8 * max(abs(v) for v in u)
        if m.kind == "translational":  # central members only translate
            assert all(abs(r) < 1e-8 * size for _, r in central)


def test_campbell_crossings_are_excited_as_parkers_planet_phasing_rules_say():
    """Parker (J. Sound Vib. 236, 2000): with equally spaced planets, mesh harmonic l drives rotational modes only
    when l z_s / N is whole and translational modes only when (l z_s +- 1) / N is whole. The compliant planetary
    example (z_s 25, N 3): 1x and 2x drive the translational modes only, 3x the rotational ones only. Before, every
    crossing was marked alike. The planetary example's planets mesh in phase (z_s 24): no harmonic drives its
    planet modes, every one its rotational modes."""
    seen = set()
    for name, speed, planets in (("compliant_planetary", 3000.0, 3), ("planetary", 40000.0, 3)):
        model = load(EXAMPLES / f"{name}.gdyn")
        pair = model.gear_pairs["sun_planet1"]
        assert model.joints[pair.joint1].body_j == "sun"
        sun_teeth = pair.z1  # 25 and 24
        train = train_from_model(model)
        modes = train_modes(train)
        for _, h, mode, excited, _ in campbell(train, modes, input_body(train), speed).crossings:
            if mode.kind == "rotational":
                assert excited == ((h * sun_teeth) % planets == 0), (name, h, mode.frequency)
            elif mode.kind == "translational":
                assert excited == ((h * sun_teeth + 1) % planets == 0 or (h * sun_teeth - 1) % planets == 0)
            else:
                assert mode.kind == "planet" and not excited, (name, h, mode.kind)
            seen.add((name, mode.kind, excited))
    assert {("compliant_planetary", "rotational", False), ("compliant_planetary", "rotational", True),
            ("compliant_planetary", "translational", False), ("compliant_planetary", "translational", True),
            ("planetary", "planet", False), ("planetary", "rotational", True)} <= seen


def test_a_pair_driven_by_a_speed_motor_has_its_mesh_frequency_per_input_speed():
    """A speed motor holds the input, so nothing rolls freely; the Campbell diagram's mesh frequency per input
    speed comes from the kinematics: z / (2 pi) Hz per rad/s of each gear (20 and 40 teeth). It was refused
    ('has 0 rigid-body motions ... hold or load the other members')."""
    model = load(EXAMPLES / "helical_pair.gdyn")
    model.forces["motor"] = SpeedMotor("motor", "gear1_joint", TimeLaw(value=100.0))
    train = train_from_model(model)
    assert train.rigid.shape[1] == 0
    assert train.mesh_frequencies_per_speed("gear1") == pytest.approx({"pair": 20 / (2 * math.pi)}, rel=1e-12)
    assert train.mesh_frequencies_per_speed("gear2") == pytest.approx({"pair": 40 / (2 * math.pi)}, rel=1e-12)
    modes = train_modes(train)
    crossings = campbell(train, modes, "gear1", 20000.0).crossings
    first = next(c for c in crossings if c.harmonic == 1)  # the mesh frequency z n / 60 meets the mode
    assert first.speed == pytest.approx(modes[0].frequency * 60 / 20, rel=1e-12)


def test_a_two_stage_reducer_has_a_campbell_order_for_each_stage():
    """The reducer's stages mesh at z1 n / 60 = 20 / 60 and z3 (z1 / z2) n / 60 = 9 / 60 Hz per rpm of the input:
    an order each (one mesh frequency for all was refused), and each mode is met by each order's harmonic h at
    f / (h per_rpm), driven by that stage's own mesh only."""
    train = train_from_model(load(EXAMPLES / "two_stage_reducer.gdyn"))
    modes = train_modes(train)
    diagram = campbell(train, modes, "gear1", 60000.0)
    assert [name for name, _ in diagram.orders] == ["stage1", "stage2"]
    assert [per for _, per in diagram.orders] == pytest.approx([20 / 60, 9 / 60], rel=1e-12)
    for c in diagram.crossings:
        assert c.speed == pytest.approx(c.mode.frequency / (c.harmonic * diagram.orders[c.order][1]), rel=1e-12)
    assert {(c.order, c.harmonic) for c in diagram.crossings} == {(k, h) for k in (0, 1) for h in (1, 2, 3)}
    stage2 = harmonic_forces(train, 1, ["stage2"])
    assert not stage2[:2].any() and stage2[2:].any()  # stage 1's two flanks carry none of stage 2's harmonic


def _arm_torsion(model, body: str) -> float:
    """The torsional stiffness [N m/rad] of the spring arms that hold `body` about its axis: k (r x d)^2 summed,
    r the arm's point on the body from its centre, d the arm's direction."""
    centre = np.asarray(model.bodies[body].position)
    total = 0.0
    for f in model.forces.values():
        if getattr(f, "body_j", None) == body and hasattr(f, "point_j"):
            on_body = centre + np.asarray(f.point_j)
            d = (on_body - np.asarray(f.point_i)) / np.linalg.norm(on_body - np.asarray(f.point_i))
            r = on_body - centre
            total += f.stiffness * (r[0] * d[1] - r[1] * d[0]) ** 2
    return total


def test_modes_of_the_supports_alone_are_support_modes_and_parkers_rule_holds_for_every_rotational_one():
    """The compliant planetary's hubs and planet pins are held by spring arms. Each turns on its arms at
    sqrt(k_t / J) with no gear and no carrier moving: the sun and carrier hubs and the pins' two turnings
    against each other (the third, all pins alike, turns the carrier) share one frequency, four modes. Lin and
    Parker's classes are the gear set's; these were called 'rotational' (a rotational mode four-fold), and their
    Campbell crossing with mesh harmonic 3 (at 16,000 rpm) was marked excited: the meshes' modal force on them
    is round-off, and round-off of one sign reads as the planets in phase."""
    model = load(EXAMPLES / "compliant_planetary.gdyn")
    train = train_from_model(model)
    modes = train_modes(train)
    hub = math.sqrt(_arm_torsion(model, "sun_hub") / model.bodies["sun_hub"].inertia[2][2]) / (2 * math.pi)
    support = [m for m in modes if m.kind == "support"]
    assert [m.frequency for m in support] == pytest.approx([hub] * 4, rel=1e-9)
    assert all(m.multiplicity == 4 for m in support)
    geared = {"sun", "ring", "carrier", "planet1", "planet2", "planet3"}
    for m in support:
        size = np.abs(m.shape).max()
        for b in geared:
            t, r = m.body_motion(train, b)
            assert np.abs(t).max() < 1e-8 * size and abs(r) < 1e-8 * size, (m.frequency, b)
    assert all(m.kind != "support" or abs(m.frequency / hub - 1) < 1e-9 for m in modes)
    crossings = campbell(train, modes, input_body(train), 20000.0).crossings
    assert any(c.mode.kind == "support" for c in crossings)
    for c in crossings:
        if c.mode.kind == "rotational":
            assert c.excited == ((c.harmonic * 25) % 3 == 0), (c.harmonic, c.mode.frequency)
        if c.mode.kind == "support":  # the meshes do not strain it: nothing drives it
            assert not c.excited
